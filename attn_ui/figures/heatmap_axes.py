"""Axis labels: which labels a heatmap's axis gets.

Every figure draws its labels as canvas text (canvas_grid.js, canvas_chart.js), so they
travel as typed: "<b>" stays "<b>", never read as HTML.
"""

from __future__ import annotations


def numbered(labels: list[str]) -> str | None:
    """The prefix if the labels are just numbered features ("f0", "f1", ...), else None.

    Such an axis is labelled like a ruler, every 1, 2, 5, 10, ... positions as the room
    allows (their names carry only the position); an axis of tokens labels every token.
    """
    prefix = labels[0][:-1] if labels and labels[0].endswith("0") else ""
    if prefix.isalpha() and labels == [f"{prefix}{j}" for j in range(len(labels))]:
        return prefix
    return None
