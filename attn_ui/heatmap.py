"""Heatmaps that read like the maths: row 0 on top, one row per token, even repeated ones.

Plotly merges repeated category labels ("the" twice would lose a row), so the
axes are indexed by position and the token strings are only tick labels.
"""

from __future__ import annotations

import html

import numpy as np
import plotly.graph_objects as go

# Numbers are printed on cells only when the grid is small enough to read them.
MAX_CELLS_WITH_NUMBERS = 24 * 24
MAX_GAPPED = 64  # rows or columns beyond which cells are drawn without white gaps
MAX_LABELS = 66  # every tick labelled up to 64 tokens plus [CLS] and [SEP]

DIVERGING = "RdBu_r"  # signed values: blue negative, white 0, red positive
SEQUENTIAL = "Blues"  # weights in [0, 1]


def safe_label(token: str) -> str:
    """Plotly renders a subset of HTML in labels; escape so `<b>x</b>` shows literally."""
    return html.escape(str(token), quote=False)


def tick_labels(tokens) -> list[str]:
    return [safe_label(t) for t in tokens]


def _ticks(labels: list[str]) -> dict:
    """Every label, or on a very long axis (384 model features) every k-th, so they stay legible."""
    step = 1 if len(labels) <= MAX_LABELS else -(-len(labels) // (MAX_LABELS // 2))
    idx = list(range(0, len(labels), step))
    return {"tickvals": idx, "ticktext": [labels[i] for i in idx]}


def heatmap(
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
) -> go.Figure:
    """A labelled heatmap of the (R, C) matrix `m`.

    kind : "signed" (diverging scale centred at 0) or "weights" (0..1 scale).
    rows, cols : labels, one per row/column (tokens or feature names).
    hover : optional (R, C) array of extra hover text per cell.
    """
    m = np.asarray(m, dtype=float)
    n_r, n_c = m.shape
    rows, cols = tick_labels(rows), tick_labels(cols)
    shown = np.where(np.isfinite(m), m, np.nan)  # -inf (masked) shows as an empty cell
    if kind == "weights":
        scale = {"colorscale": SEQUENTIAL, "zmin": 0.0, "zmax": 1.0}
    else:
        lim = float(np.nanmax(np.abs(shown))) if np.isfinite(shown).any() else 1.0
        scale = {"colorscale": DIVERGING, "zmid": 0.0, "zmin": -lim or -1, "zmax": lim or 1}
    custom = np.empty((n_r, n_c, 5), dtype=object)
    custom[..., 0] = np.array(rows, dtype=object)[:, None]
    custom[..., 1] = np.array(cols, dtype=object)[None, :]
    custom[..., 2] = "" if hover is None else hover
    custom[..., 3] = np.arange(n_r)[:, None]  # positions: %{y} would print the tick label
    custom[..., 4] = np.arange(n_c)[None, :]
    decimals = decimals if n_c <= 8 else min(decimals, 1)  # narrow cells: fewer digits
    text = np.where(np.isfinite(m), (np.round(m, decimals) + 0.0).astype(str), "-∞")  # no -0.0
    trace = go.Heatmap(
        z=shown,
        x=list(range(n_c)),
        y=list(range(n_r)),
        customdata=custom,
        text=text,
        texttemplate="%{text}" if show_numbers and m.size <= MAX_CELLS_WITH_NUMBERS else None,
        hovertemplate=(
            f"{row_title} %{{customdata[3]}}: %{{customdata[0]}}"
            f"<br>{col_title} %{{customdata[4]}}: %{{customdata[1]}}"
            "<br>value: %{text}%{customdata[2]}<extra></extra>"
        ),
        xgap=1 if n_c <= MAX_GAPPED else 0,  # a gap would hide cells a pixel or two wide
        ygap=1 if n_r <= MAX_GAPPED else 0,
        **scale,
    )
    fig = go.Figure(trace)
    rotate = n_c > 6 or max(len(c) for c in cols) > 4
    tick_room = 7 * min(max(len(c) for c in cols), 14) if rotate else 20
    fig.update_traces(colorbar={"thickness": 12, "len": 0.9})
    fig.update_layout(
        title={"text": safe_label(title), "x": 0, "font": {"size": 15}},
        margin={"l": 10, "r": 10, "t": 40 if title else 10, "b": 10},
        height=height or max(240, min(720, 90 + 24 * n_r + tick_room)),
        xaxis={
            "tickmode": "array",
            **_ticks(cols),
            "title": col_title,
            "tickangle": -90 if rotate else 0,
        },
        yaxis={
            "tickmode": "array",
            **_ticks(rows),
            "title": row_title,
            "autorange": "reversed",  # row 0 on top, as in the maths
        },
    )
    return fig
