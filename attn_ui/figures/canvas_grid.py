"""Heatmaps drawn by the browser on <canvas>: the overview's matrices, light and fast.

The step pages draw a few Plotly heatmaps each; the overview draws up to thirteen at once,
and with Plotly every new sentence remounted all thirteen figures (Streamlit 1.67 gives a
chart a new identity whenever its data changes), about 860 ms in the browser against 150 ms
for a page with one heatmap (bench/bench_app.py). Here one custom component
(st.components.v2: no iframe, no extra library) draws them all on canvases, in place.

The pictures follow the rules of attn_ui/heatmap.py: row 0 on top, every token its own
row, the same two colour scales, numbers on cells when they fit, masked cells empty, hover
text naming the cell, and a PNG download per figure.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import streamlit as st

from attn_ui.figures.heatmap import DIVERGING, MAX_CELLS_WITH_NUMBERS, SEQUENTIAL
from attn_ui.figures.heatmap_axes import numbered

_JS = Path(__file__).with_name("canvas_grid.js").read_text(encoding="utf-8")
_component = st.components.v2.component("attention_lab_canvas_grid", js=_JS, isolate_styles=False)


def _rgb(scale: list) -> list:
    """Plotly's [[position, "rgb(r, g, b)"], ...] as [[position, [r, g, b]], ...]."""
    return [[float(p), [int(v) for v in re.findall(r"\d+", c)[:3]]] for p, c in scale]


_SCALES = {"signed": _rgb(DIVERGING), "weights": _rgb(SEQUENTIAL)}


def encode(m: np.ndarray) -> str:
    """Float64 values (row-major, -inf kept for masked cells) as base64 for the browser."""
    return base64.b64encode(np.ascontiguousarray(m, dtype="<f8").data).decode("ascii")


def decode(text: str, shape: tuple[int, int]) -> np.ndarray:
    """The inverse of `encode`, for tests that read what the browser was sent."""
    return np.frombuffer(base64.b64decode(text), dtype="<f8").reshape(shape)


def figure(
    m: np.ndarray,
    rows: Sequence[str],
    cols: Sequence[str],
    *,
    title: str,
    kind: str = "signed",
    row_title: str = "query",
    col_title: str = "key",
    show_numbers: bool = True,
    decimals: int = 2,
) -> dict:
    """One heatmap of the (R, C) matrix `m` as the component draws it.

    kind : "signed" (diverging scale centred at 0, as wide as the largest magnitude) or
           "weights" (0..1).
    """
    m = np.asarray(m, dtype=float)
    n_r, n_c = m.shape
    finite = m[np.isfinite(m)]
    if kind == "weights":
        lo, hi = 0.0, 1.0
    else:
        lim = float(np.abs(finite).max()) if finite.size else 1.0
        lo, hi = -(lim or 1.0), lim or 1.0
    labels = [str(c) for c in cols]
    return {
        "title": f"{title}   ({n_r} × {n_c})",
        "shape": [n_r, n_c],
        "rows": [str(r) for r in rows],
        "cols": labels,
        "rowTitle": row_title,
        "colTitle": col_title,
        "z": encode(m),
        "zmin": lo,
        "zmax": hi,
        "scale": _SCALES[kind],
        "numbers": bool(show_numbers and m.size <= MAX_CELLS_WITH_NUMBERS),
        "decimals": decimals if n_c <= 8 else min(decimals, 1),  # narrow cells: fewer digits
        "prefix": numbered(labels),
    }


def arrow(text: str = "→") -> dict:
    """An arrow between figures (it turns to point down on a phone)."""
    return {"arrow": text}


def section(
    items: list[dict], *, widths: Sequence[float], heading: str = "", caption: str = ""
) -> dict:
    """A titled grid of `items` (figures and arrows) whose columns have the relative
    `widths`; items fill it row by row. On a phone-width screen each item gets its own line."""
    if not widths:
        raise ValueError("a grid needs at least one column")
    return {
        "heading": heading,
        "caption": caption,
        "items": items,
        "widths": [float(w) for w in widths],
    }


def show(sections: list[dict], *, key: str) -> None:
    """Draw the sections, one browser component for all of them (each element costs the
    server about a millisecond per rerun, bench/bench_app.py)."""
    _component(data={"sections": sections}, key=key)
