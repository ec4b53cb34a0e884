"""The by-hand pages' views: the worked example step by step, practice grids, worksheets."""
