"""Axis labels: which labels a heatmap's axis gets, and escaping for the Plotly charts.

The heatmaps draw their labels as canvas text (canvas_grid.js), so they travel
as typed. The line, bar and histogram charts are Plotly's, which renders a subset of
HTML in labels: those go through `safe_label`.
"""

from __future__ import annotations

import html


def safe_label(token: str) -> str:
    """Plotly renders a subset of HTML in labels; escape so `<b>x</b>` shows literally."""
    return html.escape(str(token), quote=False)


def tick_labels(tokens) -> list[str]:
    return [safe_label(t) for t in tokens]


def numbered(labels: list[str]) -> str | None:
    """The prefix if the labels are just numbered features ("f0", "f1", ...), else None.

    Such an axis is labelled like a ruler, every 1, 2, 5, 10, ... positions as the room
    allows (their names carry only the position); an axis of tokens labels every token.
    """
    prefix = labels[0][:-1] if labels and labels[0].endswith("0") else ""
    if prefix.isalpha() and labels == [f"{prefix}{j}" for j in range(len(labels))]:
        return prefix
    return None
