"""Heatmaps that read like the maths: row 0 on top, one row per token, even repeated ones.

Plotly merges repeated category labels ("the" twice would lose a row), so the
axes are indexed by position and the token strings are only tick labels.

The figure is built as a plain Plotly dict (`heatmap_spec`) and sent with `chart`,
without Plotly's per-property validation: the step pages draw a dozen heatmaps per
interaction, and validating them was most of the page's time (bench/bench_app.py).
The tests check every spec against Plotly's schema instead (tests/app/test_heatmap.py).
Axes, labels, margins and colour bar: attn_ui/heatmap_axes.py.
"""

from __future__ import annotations

import base64

import numpy as np
import plotly.graph_objects as go
import streamlit as st
from plotly.colors import get_colorscale

from attn_ui.figures.heatmap_axes import (
    MAX_LABELS,
    axes_layout,
    bar_below,
    colorbar,
    numbered,
    tick_labels,
)

# Numbers are printed on cells only when the grid is small enough to read them.
MAX_CELLS_WITH_NUMBERS = 24 * 24
MAX_GAPPED = 64  # rows or columns beyond which cells are drawn without white gaps

# Scales as explicit colour lists: Plotly.js reads a name such as "Blues" as its own,
# differently ordered scale, and the specs here do not pass through Python's expansion.
DIVERGING = get_colorscale("RdBu_r")  # signed values: blue negative, white 0, red positive
SEQUENTIAL = get_colorscale("Blues")  # weights in [0, 1]: white 0, dark blue 1

CHART_CONFIG = {"displaylogo": False, "toImageButtonOptions": {"format": "png", "scale": 2}}


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


def _scale(finite_values: np.ndarray, kind: str) -> dict:
    """0..1 for weights; signed values on a diverging scale centred at 0, as wide as the
    largest magnitude (1 when there is none)."""
    if kind == "weights":
        return {"colorscale": SEQUENTIAL, "zmin": 0.0, "zmax": 1.0}
    lim = float(np.abs(finite_values).max()) if finite_values.size else 1.0
    return {"colorscale": DIVERGING, "zmid": 0.0, "zmin": -lim or -1, "zmax": lim or 1}


def _hover_template(n_r, n_c, row_title, col_title, prefix, value) -> dict:
    """Plotly prints an axis's tick label for %{y}: the hover is a template over the cell's
    position, not 1,024 strings for a 32 x 32 map (those strings were most of the browser's
    drawing time, bench/bench_app.py)."""
    col_label = "%{x}" if prefix is None else f"{prefix}%{{customdata[1]}}"
    return {
        "customdata": _positions(n_r, n_c),
        "hovertemplate": f"{row_title} %{{customdata[0]}}: %{{y}}<br>{col_title} "
        f"%{{customdata[1]}}: {col_label}<br>value: {value}<extra></extra>",
    }


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
    narrow: bool = False,
) -> dict:
    """A labelled heatmap of the (R, C) matrix `m`, as a Plotly figure dict.

    kind : "signed" (diverging scale centred at 0) or "weights" (0..1 scale).
    rows, cols : labels, one per row/column (tokens or feature names).
    hover : optional (R, C) array of extra hover text per cell.
    narrow : the figure goes in a narrow column: its colour bar goes below, and numbers go
             on cells only up to 4 columns (wider, they are dashes too small to read).
    """
    m = np.asarray(m, dtype=float)
    n_r, n_c = m.shape
    rows, cols = tick_labels(rows), tick_labels(cols)
    finite = np.isfinite(m)
    shown = np.where(finite, m, np.nan)  # -inf (masked) shows as an empty cell
    scale = _scale(m[finite], kind)
    decimals = decimals if n_c <= 8 else min(decimals, 1)  # narrow cells: fewer digits
    prefix = numbered(cols)  # "f0", "f1", ...: numbered features, not tokens
    below = bar_below(n_c, narrow)
    trace = {
        "type": "heatmap",
        "z": typed_array(shown),
        "x": list(range(n_c)),
        "y": list(range(n_r)),
        "xgap": 1 if n_c <= MAX_GAPPED else 0,  # a gap would hide cells a pixel or two wide
        "ygap": 1 if n_r <= MAX_GAPPED else 0,
        "colorbar": colorbar(scale, below),
        **scale,
    }
    value = f"%{{z:.{decimals}f}}"
    if not finite.all():  # masked cells: "-∞" on the cell and in the hover, never "NaN"
        trace["text"], value = cell_text(m, decimals), "%{text}"
    if hover is None and max(n_r, n_c) <= MAX_LABELS:
        trace.update(_hover_template(n_r, n_c, row_title, col_title, prefix, value))
    else:  # extra per-cell text, or thinned tick labels: write each cell's hover out
        text = cell_text(m, decimals)
        trace["hovertext"] = _hover_lines(rows, cols, row_title, col_title, text, hover)
        trace["hovertemplate"] = "%{hovertext}<extra></extra>"
    if show_numbers and m.size <= MAX_CELLS_WITH_NUMBERS and not (narrow and n_c > 4):
        trace["texttemplate"] = value
    layout = axes_layout(
        rows,
        cols,
        prefix,
        title=title,
        row_title=row_title,
        col_title=col_title,
        height=height,
        below=below,
    )
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
