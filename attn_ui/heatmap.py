"""Heatmaps that read like the maths: row 0 on top, one row per token, even repeated ones.

Plotly merges repeated category labels ("the" twice would lose a row), so the
axes are indexed by position and the token strings are only tick labels.

The figure is built as a plain Plotly dict (`heatmap_spec`) and sent with `chart`,
without Plotly's per-property validation: the step pages draw a dozen heatmaps per
interaction, and validating them was most of the page's time (bench/bench_app.py).
The tests check every spec against Plotly's schema instead (tests/app/test_heatmap.py).
"""

from __future__ import annotations

import base64
import html

import numpy as np
import plotly.graph_objects as go
import streamlit as st
from plotly.colors import get_colorscale

# Numbers are printed on cells only when the grid is small enough to read them.
MAX_CELLS_WITH_NUMBERS = 24 * 24
MAX_GAPPED = 64  # rows or columns beyond which cells are drawn without white gaps
MAX_LABELS = 66  # every tick labelled up to 64 tokens plus [CLS] and [SEP]

# Scales as explicit colour lists: Plotly.js reads a name such as "Blues" as its own,
# differently ordered scale, and the specs here do not pass through Python's expansion.
DIVERGING = get_colorscale("RdBu_r")  # signed values: blue negative, white 0, red positive
SEQUENTIAL = get_colorscale("Blues")  # weights in [0, 1]: white 0, dark blue 1

CHART_CONFIG = {"displaylogo": False, "toImageButtonOptions": {"format": "png", "scale": 2}}


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


def _numbered(labels: list[str]) -> str | None:
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


NARROW = 8  # this many columns or fewer: the colour bar goes below, not beside
BAR_BELOW = {  # at the foot of the figure, so a narrow matrix keeps the figure's width
    "orientation": "h", "thickness": 10, "len": 1.0,
    "yref": "container", "y": 0, "yanchor": "bottom", "ypad": 6,
    "tickangle": 0,
}  # fmt: skip
BAR_BELOW_PX = 46  # its height with its tick labels
CHAR_PX = 7.5  # a tick label character at Plotly's 12 px font, a little generous
LABEL_CHARS = 40  # margins grow with labels up to this many characters


def _bar_below(scale: dict) -> dict:
    """The short bar under a narrow matrix: its ends and middle, level, not a turned crowd."""
    lo, hi = scale["zmin"], scale["zmax"]
    ticks = [lo, (lo + hi) / 2, hi]
    return {**BAR_BELOW, "tickvals": ticks, "ticktext": [f"{v:.2g}" for v in ticks]}


def _label_px(labels: list[str]) -> int:
    return round(CHAR_PX * min(max(len(html.unescape(t)) for t in labels), LABEL_CHARS))


def _margins(rows: list[str], cols: list[str], x_axis: dict, titled: bool) -> dict:
    """Room for the tick labels, axis titles and colour bar, worked out here. Plotly's
    automargin stays on, but when the room is already there it does not draw the figure a
    second time to make it (it did for every figure on every update, bench/bench_app.py)."""
    bottom = max(_label_px(cols), 24) + 50 if x_axis["tickangle"] else 74  # labels, axis title
    right = 80  # the colour bar and its numbers
    if len(cols) <= NARROW:
        bottom, right = bottom + BAR_BELOW_PX, 16  # room for its last number
    return {"l": max(_label_px(rows), 22) + 52, "r": right, "t": 40 if titled else 10, "b": bottom}


def cell_text(m: np.ndarray, decimals: int) -> np.ndarray:
    """Each cell rounded for display, "-∞" where masked, never "-0.0"."""
    return np.where(np.isfinite(m), (np.round(m, decimals) + 0.0).astype(str), "-∞")


_TYPES = {"float64": "f8", "int16": "i2"}


def typed_array(a: np.ndarray) -> dict:
    """A NumPy array as Plotly.js's typed-array spec (base64 bytes, dtype, shape).

    What Plotly's Figure.to_dict does for us on the validated path; a plain dict would
    otherwise go out as JSON text, several times larger and slower to write and read.
    """
    a = np.ascontiguousarray(a)
    return {
        "dtype": _TYPES[str(a.dtype)],
        "bdata": base64.b64encode(a.data).decode("ascii"),
        "shape": ", ".join(str(n) for n in a.shape),
    }


def _positions(n_r: int, n_c: int) -> dict:
    """(R, C, 2) row and column index of every cell, for the hover ("query 3: the")."""
    pos = np.empty((n_r, n_c, 2), dtype=np.int16)  # the core caps T far below 32,767
    pos[..., 0] = np.arange(n_r)[:, None]
    pos[..., 1] = np.arange(n_c)[None, :]
    return typed_array(pos)


def _hover_lines(rows, cols, row_title, col_title, text, extra) -> np.ndarray:
    """(R, C) hover strings, for the heatmaps whose hover cannot be a template alone."""
    r = np.array([f"{row_title} {i}: {w}<br>" for i, w in enumerate(rows)], dtype=object)
    c = np.array([f"{col_title} {j}: {w}<br>value: " for j, w in enumerate(cols)], dtype=object)
    lines = r[:, None] + c[None, :] + text.astype(object)
    return lines if extra is None else lines + np.asarray(extra, dtype=object)


def heatmap_spec(
    m: np.ndarray,
    rows,
    cols,
    *,
    title: str = "",
    kind: str = "signed",
    row_title: str = "query",
    col_title: str = "key",
    show_numbers: bool = True,
    decimals: int = 2,
    hover: np.ndarray | None = None,
    height: int | None = None,
) -> dict:
    """A labelled heatmap of the (R, C) matrix `m`, as a Plotly figure dict.

    kind : "signed" (diverging scale centred at 0) or "weights" (0..1 scale).
    rows, cols : labels, one per row/column (tokens or feature names).
    hover : optional (R, C) array of extra hover text per cell.
    """
    m = np.asarray(m, dtype=float)
    n_r, n_c = m.shape
    rows, cols = tick_labels(rows), tick_labels(cols)
    finite = np.isfinite(m)
    shown = np.where(finite, m, np.nan)  # -inf (masked) shows as an empty cell
    if kind == "weights":
        scale = {"colorscale": SEQUENTIAL, "zmin": 0.0, "zmax": 1.0}
    else:
        lim = float(np.abs(m[finite]).max()) if finite.any() else 1.0
        scale = {"colorscale": DIVERGING, "zmid": 0.0, "zmin": -lim or -1, "zmax": lim or 1}
    decimals = decimals if n_c <= 8 else min(decimals, 1)  # narrow cells: fewer digits
    prefix = _numbered(cols)  # "f0", "f1", ...: numbered features, not tokens
    trace = {
        "type": "heatmap",
        "z": typed_array(shown),
        "x": list(range(n_c)),
        "y": list(range(n_r)),
        "xgap": 1 if n_c <= MAX_GAPPED else 0,  # a gap would hide cells a pixel or two wide
        "ygap": 1 if n_r <= MAX_GAPPED else 0,
        "colorbar": _bar_below(scale) if n_c <= NARROW else {"thickness": 12, "len": 0.9},
        **scale,
    }
    value = f"%{{z:.{decimals}f}}"
    if not finite.all():  # masked cells: "-∞" on the cell and in the hover, never "NaN"
        trace["text"], value = cell_text(m, decimals), "%{text}"
    if hover is None and max(n_r, n_c) <= MAX_LABELS:
        # Plotly prints an axis's tick label for %{y}: the hover is a template over the
        # cell's position, not 1,024 strings for a 32 x 32 map (those strings were most
        # of the browser's drawing time, bench/bench_app.py).
        col_label = "%{x}" if prefix is None else f"{prefix}%{{customdata[1]}}"
        trace["customdata"] = _positions(n_r, n_c)
        trace["hovertemplate"] = (
            f"{row_title} %{{customdata[0]}}: %{{y}}<br>{col_title} %{{customdata[1]}}: "
            f"{col_label}<br>value: {value}<extra></extra>"
        )
    else:  # extra per-cell text, or thinned tick labels: write each cell's hover out
        text = cell_text(m, decimals)
        trace["hovertext"] = _hover_lines(rows, cols, row_title, col_title, text, hover)
        trace["hovertemplate"] = "%{hovertext}<extra></extra>"
    if show_numbers and m.size <= MAX_CELLS_WITH_NUMBERS:
        trace["texttemplate"] = value
    x_axis = _x_axis(cols, prefix)
    tick_room = 7 * min(max(len(c) for c in cols), 14) if x_axis["tickangle"] else 20
    layout = {
        "title": {"text": safe_label(title), "x": 0, "font": {"size": 15}},
        "margin": _margins(rows, cols, x_axis, bool(title)),
        "height": height
        or max(240, min(720, 90 + 24 * n_r + tick_room + BAR_BELOW_PX * (n_c <= NARROW))),
        # ticklabeloverflow "allow": automargin already makes room for every label; Plotly's
        # default ("hide past div") measured each label's box on every draw, a quarter of the
        # browser's time on the overview (a CDP profile, bench/bench_app.py)
        "xaxis": {**x_axis, "title": {"text": col_title}, "ticklabeloverflow": "allow"},
        "yaxis": {
            **_ticks(rows),
            "title": {"text": row_title},
            "autorange": "reversed",  # row 0 on top, as in the maths
            "ticklabeloverflow": "allow",
        },
    }
    return {"data": [trace], "layout": layout}


def heatmap(m: np.ndarray, rows, cols, **kwargs) -> go.Figure:
    """`heatmap_spec` as a validated Figure, for charts that go on to add traces or layout."""
    return go.Figure(heatmap_spec(m, rows, cols, **kwargs))


class _Prebuilt(go.Figure):
    """A figure whose dict is already built: Streamlit takes a Figure's `to_dict()` as valid.

    Figure.__init__ is skipped on purpose: it builds an empty figure and its template
    (about 1.7 ms), only for Streamlit to ask for the dict we already have.
    """

    def __init__(self, spec: dict):  # noqa: D107 - deliberately no super().__init__()
        self.__dict__["_spec"] = spec

    def to_dict(self) -> dict:
        return self._spec


def chart(spec: dict, key: str) -> None:
    """Send a `heatmap_spec` dict to the page as it is (no second validation pass)."""
    st.plotly_chart(_Prebuilt(spec), key=key, config=CHART_CONFIG, width="stretch")
