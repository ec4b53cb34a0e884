"""Heatmaps that read like the maths: what every heatmap of the app shows, in one place.

One renderer draws them all: a small browser component of ours (canvas_grid.js,
on <canvas>). This module turns a matrix into what the component draws, and holds the
rules every figure follows:

- row 0 on top and one row per token, even a repeated word (rows are positions; the
  labels are only text, drawn as text: "<b>" stays "<b>");
- colours: signed values on a diverging red-blue scale centred at 0, as wide as the
  largest magnitude (or a page's fixed ±limit); weights on a blue scale from 0 to 1;
- numbers on cells when the grid is small enough (24 × 24 cells at most; in a narrow
  figure, 4 columns), with 2 decimals (signed values 1 beyond 8 columns; weights keep 2, so
  a row visibly sums to 1), left off cells too small to hold them by the browser;
- masked cells (-inf) empty and grey, "-∞ (masked)" in the hover;
- the hover names the cell (row and column by position and label), gives its value and
  any extra text a page adds; the title carries the shape; a colour bar and a PNG link.

Why not Plotly, which drew the step pages before: Streamlit 1.67 gives a Plotly chart a
new identity whenever its data changes, so every new sentence remounted every figure. On
the multi-head page (32 tokens, 4 heads) a keypress took about 4 times as long in the
browser with Plotly as with this component, for the same server time
(bench/bench_renderer.py; the figures are in docs/benchmarks.md).
"""

from __future__ import annotations

import base64
import re
from collections.abc import Sequence

import numpy as np
from plotly.colors import get_colorscale, sample_colorscale

from attn_lessons.i18n import N_, _, ngettext
from attn_ui.figures.heatmap_axes import numbered

MAX_CELLS_WITH_NUMBERS = 24 * 24
NARROW_NUMBERS = 4  # a figure in a narrow column: numbers on cells up to this many columns
BAND = "#ff7f0e"  # the outline of a local-attention band
FRAME = "#d62728"  # the frame around the chosen one of several small heatmaps
MAY_ATTEND = [198, 219, 239]  # a mask's 0 cells (its -inf cells are the renderer's grey)
# drawn instead of a colour bar: a mask has two values, not a range. (text, colour) each,
# the text translated where drawn (`figure`)
MASK_LEGEND = (
    (N_("0: may attend"), MAY_ATTEND),
    (N_("−∞: masked"), None),  # None: the renderer's masked grey
)


def _rgb(scale: list) -> list:
    """Plotly's [[position, "rgb(r, g, b)"], ...] as [[position, [r, g, b]], ...]."""
    return [[float(p), [int(v) for v in re.findall(r"\d+", c)[:3]]] for p, c in scale]


_STOPS = [i / 10 for i in range(11)]
SCALES = {
    "signed": _rgb(get_colorscale("RdBu_r")),  # blue negative, white 0, red positive
    "weights": _rgb(get_colorscale("Blues")),  # white 0, dark blue 1
    # Blues with its colours at the squares of evenly spaced weights: in a grid of many small
    # heatmaps of a long sentence most weights are small, and would be almost white.
    # a mask M: every finite cell is 0 (may attend), one colour; -inf cells are drawn empty
    "mask": [[0.0, MAY_ATTEND], [1.0, MAY_ATTEND]],
    "weights_stretched": _rgb(
        [[s * s, c] for s, c in zip(_STOPS, sample_colorscale("Blues", _STOPS), strict=True)]
    ),
}


def encode(m: np.ndarray) -> str:
    """Values (row-major, -inf kept for masked cells) as base64 of little-endian floats for
    the browser: float32 when `m` is float32 (a pretrained model's matrices: every value as
    it is, in half the bytes), float64 otherwise. A reader knows which from the length: 4 or
    8 bytes per value (`decode`, js/numbers.js `decode`)."""
    m = np.asarray(m)
    dtype = "<f4" if m.dtype == np.float32 else "<f8"
    return base64.b64encode(np.ascontiguousarray(m, dtype=dtype).data).decode("ascii")


def decode(text: str, shape: Sequence[int]) -> np.ndarray:
    """The inverse of `encode`, as float64, for tests that read what the browser was sent."""
    raw = base64.b64decode(text)
    dtype = "<f4" if len(raw) == 4 * int(np.prod(shape)) else "<f8"
    return np.frombuffer(raw, dtype=dtype).astype(np.float64).reshape(shape)


def colour_range(m: np.ndarray, kind: str, limit: float | None = None) -> tuple[float, float]:
    """The values at the two ends of the colour scale.

    Weights: 0 and 1. Signed values: ±limit when given, else ± the largest finite
    magnitude (a unit scale when there is none), so that 0 is always the middle colour.
    """
    if kind.startswith("weights") or kind == "mask":
        return 0.0, 1.0
    if limit is None:
        finite = m[np.isfinite(m)]
        limit = float(np.abs(finite).max()) if finite.size else 1.0
    return -(limit or 1.0), limit or 1.0


def numbers_on_cells(shape: tuple[int, int], show_numbers: bool, narrow: bool = False) -> bool:
    """Whether numbers go on the cells: asked for, and few enough cells to read them."""
    n_cells, n_cols = shape[0] * shape[1], shape[1]
    return (
        show_numbers
        and n_cells <= MAX_CELLS_WITH_NUMBERS
        and not (narrow and n_cols > NARROW_NUMBERS)
    )


def cell_decimals(n_cols: int, decimals: int = 2) -> int:
    """Digits after the point on cells and in the hover: fewer when cells are narrow."""
    return decimals if n_cols <= 8 else min(decimals, 1)


def _decimals(kind: str, n_cols: int, decimals: int) -> int:
    """A mask holds whole numbers (0); weights keep 2 decimals, so that a row of twelve
    0.08s is not read as twelve 0.1s summing to 1.2; other values lose one beyond 8 columns."""
    if kind == "mask":
        return 0
    return decimals if kind.startswith("weights") else cell_decimals(n_cols, decimals)


def figure(
    m: np.ndarray,
    rows: Sequence[str],
    cols: Sequence[str],
    *,
    title: str,
    kind: str = "signed",
    row_title: str | None = None,
    col_title: str | None = None,
    show_numbers: bool = True,
    decimals: int = 2,
    hover: np.ndarray | None = None,
    narrow: bool = False,
    limit: float | None = None,
    band: int | None = None,
) -> dict:
    """One heatmap of the (R, C) matrix `m`, as the component draws it.

    rows, cols : labels, one per row/column (tokens or feature names), drawn as text.
    row_title, col_title : what a row and a column are ("query" and "key" unless given).
    kind : "signed" (diverging scale centred at 0), "weights" (0..1) or "mask" (an additive
        mask M of 0 and -inf: two colours and a legend, whole numbers on cells).
    hover : optional (R, C) array of extra hover text per cell, shown under the value.
    narrow : the figure goes in a narrow column: numbers on cells up to 4 columns only.
    limit : signed values only: the colour scale runs from -limit to limit.
    band : outline the cells |i - j| <= band (a local-attention window).
    """
    given = np.asarray(m)  # sent as it is: float32 stays float32 (`encode`)
    m = np.asarray(given, dtype=float)
    n_r, n_c = m.shape
    rows, cols = [str(r) for r in rows], [str(c) for c in cols]
    lo, hi = colour_range(m, kind, limit)
    fig = {
        "title": f"{title}   ({n_r} × {n_c})",
        "shape": [n_r, n_c],
        "rows": rows,
        "cols": cols,
        "rowTitle": _("query") if row_title is None else row_title,
        "colTitle": _("key") if col_title is None else col_title,
        "z": encode(given),
        "zmin": lo,
        "zmax": hi,
        "scale": SCALES[kind],
        "numbers": numbers_on_cells((n_r, n_c), show_numbers, narrow),
        "decimals": _decimals(kind, n_c, decimals),
        "prefix": numbered(cols),  # "f0", "f1", ...: a few level labels, not every one
        "rowPrefix": numbered(rows),
    }
    if hover is not None:
        fig["hover"] = np.asarray(hover, dtype=object).astype(str).tolist()
    if kind == "mask":
        fig["legend"] = [{"text": _(text), "colour": colour} for text, colour in MASK_LEGEND]
    if kind.startswith("weights"):
        fig["unit"] = True  # cells write ".08" and "1": two decimals that fit a narrow cell
    if band is not None:
        fig["band"] = {"width": int(band), "colour": BAND}
    return fig


def small(
    m: np.ndarray,
    rows: Sequence[str],
    cols: Sequence[str],
    *,
    title: str,
    kind: str = "weights",
    framed: bool = False,
    decimals: int = 3,
) -> dict:
    """A small heatmap for a grid of many (labels, colour bar and title left to the grid);
    the hover still names the cell and, first, the `title`. `framed`: the chosen one."""
    fig = figure(m, rows, cols, title=title, kind=kind, show_numbers=False, decimals=decimals)
    fig |= {"small": True, "decimals": decimals}
    if framed:
        fig["frame"] = FRAME
    return fig


def colour_bar(kind: str, title: str, limit: float | None = None) -> dict:
    """A colour bar shared by a grid of small heatmaps (`small`)."""
    lo, hi = colour_range(np.zeros(0), kind, limit)
    return {"title": title, "scale": SCALES[kind], "zmin": lo, "zmax": hi}


def spoken(f: dict) -> dict[str, str]:
    """What a screen reader says of the heatmap `f`, in the page's language: its kind
    (aria-roledescription), its size and how to read it (aria-description), and the line its
    title gets when its columns scroll. canvas_grid.js has the same words in English, for a
    figure sent without them."""
    (n_r, n_c), rows, cols = f["shape"], f["rowTitle"], f["colTitle"]
    how = _(
        "{rows} {row_title}s by {cols} {col_title}s. The arrow keys move from cell to cell and "
        "read each one; the numbers are also in a table on this page."
    )
    # English says "columns" even of one: the same words as before
    scroll = ngettext("scroll sideways: all {n} columns", "scroll sideways: all {n} columns", n_c)
    return {
        "role": _("heatmap"),
        "description": how.format(rows=n_r, row_title=rows, cols=n_c, col_title=cols),
        "scroll": scroll.format(n=n_c),
    }
