"""Drawing a matrix on a page: heatmap, shape, the by-hand transpose, and its numbers as a table."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from attn_lessons.i18n import _
from attn_ui.figures import canvas_grid
from attn_ui.figures.heatmap import figure as heatmap_figure
from attn_ui.tables import numbers, table

__all__ = ["matrix", "oriented"]


def matrix(
    m: np.ndarray,
    rows: Sequence[str],
    cols: Sequence[str],
    *,
    name: str,
    by_hand_name: str | None = None,
    kind: str = "signed",
    row_title: str | None = None,
    col_title: str | None = None,
    columns: bool = False,
    show_numbers: bool = True,
    key: str,
    hover: np.ndarray | None = None,
    narrow: bool = False,
    limit: float | None = None,
    band: int | None = None,
) -> None:
    """Show `m` (R, C) as a heatmap titled with its name and shape, plus its table.

    columns=True shows the by-hand layout: the transpose, titled `by_hand_name`.
    row_title, col_title: what a row and a column of `m` are ("query" and "key" unless given).
    kind, hover, narrow, limit, band: as in `attn_ui.figures.heatmap.figure` (hover is (R, C),
    the matrix as given; it is transposed with it).
    """
    fig, m, rows, cols, name = oriented_figure(
        m,
        rows,
        cols,
        name=name,
        by_hand_name=by_hand_name,
        kind=kind,
        row_title=row_title,
        col_title=col_title,
        columns=columns,
        show_numbers=show_numbers,
        hover=hover,
        narrow=narrow,
        limit=limit,
        band=band,
    )
    canvas_grid.figure(fig, key=f"{key}_chart")
    label = _("Numbers of {name} (table, CSV download)").format(name=name)
    numbers(label, lambda: table(m, rows, cols), key=key)


def oriented_figure(
    m: np.ndarray,
    rows: Sequence[str],
    cols: Sequence[str],
    *,
    name: str,
    by_hand_name: str | None = None,
    row_title: str | None = None,
    col_title: str | None = None,
    columns: bool = False,
    hover: np.ndarray | None = None,
    **style,
) -> tuple[dict, np.ndarray, Sequence[str], Sequence[str], str]:
    """The heatmap of `m` as the learner asked to see it (see `oriented`), with the matrix,
    labels and name it shows: ``(figure, m, rows, cols, name)``.

    `style`: kind, show_numbers, narrow, limit, band, as in ``attn_ui.figures.heatmap.figure``.
    The overview draws such figures into one grid; `matrix` draws one with its table.
    row_title, col_title: as in `matrix`.
    """
    # resolved before `oriented` swaps them with the rows and columns
    row_title = _("query") if row_title is None else row_title
    col_title = _("key") if col_title is None else col_title
    if columns:
        hover = None if hover is None else hover.T
    m, rows, cols, name, row_title, col_title = oriented(
        m,
        rows,
        cols,
        name=name,
        by_hand_name=by_hand_name,
        row_title=row_title,
        col_title=col_title,
        columns=columns,
    )
    fig = heatmap_figure(
        m, rows, cols, title=name, row_title=row_title, col_title=col_title, hover=hover, **style
    )
    return fig, m, rows, cols, name


def oriented(m, rows, cols, *, name, by_hand_name, row_title, col_title, columns):
    """The matrix as the learner asked to see it: as is, or (columns=True) the by-hand
    layout, its transpose with rows and columns swapped and its by-hand name."""
    if not columns:
        return m, rows, cols, name, row_title, col_title
    return m.T, cols, rows, by_hand_name or f"({name})ᵀ", col_title, row_title
