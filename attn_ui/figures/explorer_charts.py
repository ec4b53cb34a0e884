"""Figures for the model explorer: every head of the model in one grid, and one head's weights
as lines from the queries on the left to the keys on the right. Numbers come in; figures go out.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from attn_ui.figures import canvas_grid, heatmap
from attn_ui.figures.heatmap_axes import safe_label

LINE = "8, 48, 107"  # the darkest blue of the weights' scale, as "r, g, b"
N_LEVELS = 10  # lines are drawn in this many strengths, one trace each
DENSE = 40  # beyond this many tokens the lines are packed closer, and only strong ones drawn


def grid(attentions: np.ndarray, tokens: Sequence[str], layer: int, head: int) -> dict:
    """(n_layers, n_heads, T, T) weights as one small heatmap per head, layers as rows and
    heads as columns, (layer, head) framed: a section for `canvas_grid.show`.

    The colours are stretched towards small weights: in a long sentence most weights are
    small, and on a linear scale the 72 squares would be almost white."""
    n_layers, n_heads = attentions.shape[:2]
    items = [
        heatmap.small(
            attentions[i, h],
            tokens,
            tokens,
            title=f"layer {i}, head {h}",
            kind="weights_stretched",
            framed=(i, h) == (layer, head),
        )
        for i in range(n_layers)
        for h in range(n_heads)
    ]
    return canvas_grid.small_multiples(
        items,
        row_labels=[f"L{i}" for i in range(n_layers)],
        col_labels=[f"H{h}" for h in range(n_heads)],
        bar=heatmap.colour_bar("weights_stretched", "weight"),
        name="every_head",
    )


def line_floor(t: int, query: int | None) -> float:
    """Weights below this get no line: invisible anyway, or (all lines of a long sentence)
    too many to read."""
    return 0.1 if query is None and t > DENSE else 0.01


def _segments(weights: np.ndarray, queries: Sequence[int], level: int, floor: float):
    """x, y of the lines (query i on the left to key j on the right) whose weight falls in the
    strength band `level`, separated by None so one trace holds them all."""
    xs, ys = [], []
    for i in queries:
        band = np.ceil(weights[i] * N_LEVELS).clip(1, N_LEVELS)
        for j in np.flatnonzero((band == level) & (weights[i] >= floor)):
            xs += [0, 1, None]
            ys += [i, int(j), None]
    return xs, ys


def lines_figure(weights: np.ndarray, tokens: Sequence[str], query: int | None) -> go.Figure:
    """(T, T) weights as lines from each query (left) to each key (right), stronger for a larger
    weight; only `query`'s lines when it is given."""
    t = len(tokens)
    queries = range(t) if query is None else [query]
    floor = line_floor(t, query)
    fig = go.Figure()
    for level in range(1, N_LEVELS + 1):
        xs, ys = _segments(weights, queries, level, floor)
        if xs:
            alpha = level / N_LEVELS
            fig.add_trace(
                go.Scatter(
                    x=xs,
                    y=ys,
                    mode="lines",
                    hoverinfo="skip",
                    showlegend=False,
                    line={"color": f"rgba({LINE}, {alpha:.2f})", "width": 0.5 + 3.5 * alpha},
                )
            )
    names = [safe_label(n) for n in tokens]
    focus = ["#000000" if query in (None, i) else "#9e9e9e" for i in range(t)]
    shown = weights[query] if query is not None else None
    for x, side in ((0, "left"), (1, "right")):
        hover = (
            [f"query {i}: {n}" for i, n in enumerate(names)]
            if x == 0 or shown is None
            else [
                f"key {j}: {n}<br>weight from query {query}: {shown[j]:.3f}"
                for j, n in enumerate(names)
            ]
        )
        fig.add_trace(
            go.Scatter(
                x=[x] * t,
                y=list(range(t)),
                mode="markers+text",
                text=names,
                textposition=f"middle {side}",
                hovertext=hover,
                hoverinfo="text",
                showlegend=False,
                marker={"size": 6, "color": focus if x == 0 else "#000000"},
                textfont={"color": focus if x == 0 else "#000000", "size": 12 if t <= DENSE else 9},
            )
        )
    fig.update_layout(
        height=(22 if t <= DENSE else 12) * t + 80,  # px per token: every label readable
        margin={"l": 10, "r": 10, "t": 40, "b": 10},
        xaxis={
            "range": [-0.8, 1.8],
            "side": "top",
            "tickmode": "array",
            "tickvals": [0, 1],
            "ticktext": ["queries", "keys"],
            "showgrid": False,
            "zeroline": False,
        },
        yaxis={"autorange": "reversed", "visible": False},
        plot_bgcolor="white",
    )
    return fig
