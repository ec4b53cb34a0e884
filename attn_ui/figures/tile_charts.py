"""Plotly figures of the tiled-attention page: how far the output still is from full attention
after each block, and the memory of the T x T scores against one tile as T grows. Numbers
come in from ``attn_core.tiled``; figures go out (the tiles themselves are heatmaps, drawn by
``attn_ui.figures.matrix``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from attn_ui.figures.lab_charts import loglog, mark_x
from attn_ui.figures.plots import SCALED, UNSCALED

MEMORY_TICKS = [2**n for n in range(4, 15)]  # 16 .. 16,384 tokens


def distance_figure(distance: np.ndarray, step: int) -> go.Figure:
    """max |Z so far − Z| after each block (log y axis: the last point is rounding, ~1e-16),
    the block being shown marked."""
    blocks = np.arange(1, len(distance) + 1)
    shown = np.maximum(distance, 1e-18)  # an exact 0 has no place on a log axis
    fig = go.Figure()
    fig.add_scatter(
        x=blocks,
        y=shown,
        mode="lines+markers",
        name="max |Z so far − Z|",
        line={"color": SCALED},
        hovertemplate="after block %{x}: %{y:.3g}<extra></extra>",
    )
    fig.add_scatter(
        x=[step],
        y=[shown[step - 1]],
        mode="markers",
        name="this step",
        marker={"color": UNSCALED, "size": 12, "symbol": "diamond"},
        hovertemplate="this step: %{y:.3g}<extra></extra>",
    )
    fig.update_layout(
        title={
            "text": "Distance from full attention after each block",
            "x": 0,
            "font": {"size": 14},
        },
        height=300,
        margin={"l": 10, "r": 10, "t": 40, "b": 10},
        showlegend=False,
        xaxis={"title": "blocks read", "tickvals": list(blocks), "range": [0.5, len(blocks) + 0.5]},
        yaxis={"type": "log", "title": "max |difference|", "exponentformat": "power"},
    )
    return fig


def memory_figure(ts: Sequence[int], full, tiled, your_t: int, block: int) -> go.Figure:
    """Bytes of the T x T scores against one T x block tile (+ m, l, u), log-log, with the
    learner's T marked."""
    fig = loglog(
        f"Memory of one head's scores, block = {block}",
        "T (tokens)",
        "bytes",
        [("T × T scores", ts, full), (f"T × {block} tile + m, l, u", ts, tiled)],
        ticks=[x for x in ts if x != your_t or x in MEMORY_TICKS],  # no crowded extra tick
    )
    fig.data[0].line.color, fig.data[1].line.color = UNSCALED, SCALED
    # the legend at the bottom of the figure, below the axis title, however many rows it
    # takes on a phone (as attn_ui.figures.plots lays out the labs' charts)
    fig.update_layout(
        height=360,
        legend={"orientation": "h", "x": 0, "y": 0, "yref": "container", "yanchor": "bottom"},
    )
    mark_x(fig, your_t, f"your T = {your_t}")
    return fig
