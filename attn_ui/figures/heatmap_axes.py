"""The axes of a heatmap: tick labels, axis layout, margins and colour bar.

Labels are escaped here (Plotly renders a subset of HTML in them). The margins are worked
out from the labels before Plotly sees them: Plotly's automargin stays on, but when the
room is already there it does not draw the figure a second time to make it, which it did
for every figure on every update (bench/profile_browser.py, a CDP profile of the overview).
"""

from __future__ import annotations

import html

MAX_LABELS = 66  # every tick labelled up to 64 tokens plus [CLS] and [SEP]
NARROW = 8  # this many columns or fewer: the colour bar goes below, not beside
BAR_BELOW = {  # at the foot of the figure, so a narrow matrix keeps the figure's width
    "orientation": "h",
    "thickness": 10,
    "len": 1.0,
    "yref": "container",
    "y": 0,
    "yanchor": "bottom",
    "ypad": 6,
    "tickangle": 0,
}
BAR_BELOW_PX = 46  # its height with its tick labels
CHAR_PX = 7.5  # a tick label character at Plotly's 12 px font, a little generous
LABEL_CHARS = 40  # margins grow with labels up to this many characters
ROW_PX, MAX_CELLS_PX = 24, 600  # height of a row of cells, and of all of them at most


def safe_label(token: str) -> str:
    """Plotly renders a subset of HTML in labels; escape so `<b>x</b>` shows literally."""
    return html.escape(str(token), quote=False)


def tick_labels(tokens) -> list[str]:
    return [safe_label(t) for t in tokens]


def _ticks(labels: list[str]) -> dict:
    """Every label, or on a very long axis (384 model features) every k-th, so they stay legible."""
    step = 1 if len(labels) <= MAX_LABELS else -(-len(labels) // (MAX_LABELS // 2))
    idx = list(range(0, len(labels), step))
    return {"tickmode": "array", "tickvals": idx, "ticktext": [labels[i] for i in idx]}


def numbered(labels: list[str]) -> str | None:
    """The prefix if the labels are just numbered features ("f0", "f1", ...), else None."""
    prefix = labels[0][:-1] if labels and labels[0].endswith("0") else ""
    if prefix.isalpha() and labels == [f"{prefix}{j}" for j in range(len(labels))]:
        return prefix
    return None


def _x_axis(cols: list[str], prefix: str | None) -> dict:
    """Every label, turned upright when many or long; but more than 8 numbered features
    get a few level numbers with the prefix (their names carry only the position, and
    hundreds of turned labels were the largest cost of drawing a page, bench_app.py)."""
    if prefix is not None and len(cols) > 8:  # Plotly spaces them by the axis's width
        return {"tickmode": "auto", "tickprefix": prefix, "tickangle": 0}
    rotate = len(cols) > 6 or max(len(c) for c in cols) > 4
    return {**_ticks(cols), "tickangle": -90 if rotate else 0}


def bar_below(n_cols: int, narrow_figure: bool) -> bool:
    """The colour bar goes under a matrix of few columns, or a figure in a narrow column,
    where a bar beside it would take the width the cells need."""
    return narrow_figure or n_cols <= NARROW


def colorbar(scale: dict, below: bool) -> dict:
    """Beside the matrix, or below it: a short level bar with its ends and middle."""
    if not below:
        return {"thickness": 12, "len": 0.9}
    lo, hi = scale["zmin"], scale["zmax"]
    ticks = [lo, (lo + hi) / 2, hi]
    return {**BAR_BELOW, "tickvals": ticks, "ticktext": [f"{v:.2g}" for v in ticks]}


def _label_px(labels: list[str]) -> int:
    return round(CHAR_PX * min(max(len(html.unescape(t)) for t in labels), LABEL_CHARS))


def _margins(rows: list[str], cols: list[str], x_axis: dict, titled: bool, below: bool) -> dict:
    """Room for the tick labels, axis titles and colour bar (see the module's docstring)."""
    bottom = max(_label_px(cols), 24) + 54 if x_axis["tickangle"] else 76  # labels, axis title
    right = 84  # the colour bar and its numbers
    if below:
        bottom, right = bottom + BAR_BELOW_PX, 16  # room for its last number
    return {"l": max(_label_px(rows), 22) + 56, "r": right, "t": 40 if titled else 10, "b": bottom}


def axes_layout(
    rows: list[str],
    cols: list[str],
    prefix: str | None,
    *,
    title: str,
    row_title: str,
    col_title: str,
    height: int | None,
    below: bool,
) -> dict:
    """The figure layout around an (R, C) heatmap whose labels `rows`, `cols` are escaped;
    `below`: the colour bar is under the matrix (`bar_below`)."""
    x_axis = _x_axis(cols, prefix)
    margin = _margins(rows, cols, x_axis, bool(title), below)
    cells = min(ROW_PX * len(rows), MAX_CELLS_PX)  # the plot itself; the margins come on top
    return {
        "title": {"text": safe_label(title), "x": 0, "font": {"size": 15}},
        "margin": margin,
        "height": height or max(240, cells + margin["t"] + margin["b"]),
        # ticklabeloverflow "allow": automargin already makes room for every label; Plotly's
        # default ("hide past div") measured each label's box on every draw, a quarter of the
        # browser's time on the overview (bench/profile_browser.py)
        "xaxis": {**x_axis, "title": {"text": col_title}, "ticklabeloverflow": "allow"},
        "yaxis": {
            **_ticks(rows),
            "title": {"text": row_title},
            "autorange": "reversed",  # row 0 on top, as in the maths
            "ticklabeloverflow": "allow",
        },
    }
