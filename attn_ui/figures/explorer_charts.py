"""Figures for the model explorer: every head of the model in one grid, and one head's weights
as lines from the queries on the left to the keys on the right. Numbers come in; figures go out.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.colors import sample_colorscale
from plotly.subplots import make_subplots

from attn_ui.figures.heatmap import SEQUENTIAL
from attn_ui.figures.heatmap_axes import safe_label
from attn_ui.tables import labels

FRAME = "#d62728"  # the open head's frame
# SEQUENTIAL with its colours at the squares of evenly spaced weights: in a long sentence most
# weights are small, and on a linear scale the 72 squares would be almost white.
_STOPS = [i / 10 for i in range(11)]
STRETCHED = [[s * s, c] for s, c in zip(_STOPS, sample_colorscale(SEQUENTIAL, _STOPS), strict=True)]
LINE = "8, 48, 107"  # the darkest blue of SEQUENTIAL, as "r, g, b"
N_LEVELS = 10  # lines are drawn in this many strengths, one trace each
DENSE = 40  # beyond this many tokens the lines are packed closer, and only strong ones drawn


def grid_figure(attentions: np.ndarray, tokens: Sequence[str], layer: int, head: int) -> go.Figure:
    """(n_layers, n_heads, T, T) weights as one small heatmap per head; (layer, head) framed."""
    n_layers, n_heads = attentions.shape[:2]
    fig = make_subplots(
        n_layers,
        n_heads,
        horizontal_spacing=0.008,
        vertical_spacing=0.012,
        column_titles=[f"H{h}" for h in range(n_heads)],
        row_titles=[f"L{i}" for i in range(n_layers)],
    )
    names = [safe_label(n) for n in labels(tokens)]  # unique, so no category merges
    for i in range(n_layers):
        for h in range(n_heads):
            fig.add_trace(
                go.Heatmap(
                    z=attentions[i, h],
                    x=names,
                    y=names,
                    coloraxis="coloraxis",
                    hovertemplate=f"layer {i}, head {h}<br>query %{{y}}<br>key %{{x}}"
                    "<br>weight %{z:.3f}<extra></extra>",
                ),
                i + 1,
                h + 1,
            )
    fig.update_xaxes(showticklabels=False, ticks="")
    fig.update_yaxes(showticklabels=False, ticks="", autorange="reversed")  # row 0 on top
    n = layer * n_heads + head + 1  # subplot number, row by row
    axis = "" if n == 1 else str(n)
    fig.add_shape(
        type="rect",
        xref=f"x{axis} domain",
        yref=f"y{axis} domain",
        x0=-0.06,
        x1=1.06,
        y0=-0.06,
        y1=1.06,
        line={"color": FRAME, "width": 3},
    )
    fig.update_annotations(font={"size": 11})  # the L/H titles
    fig.update_annotations(  # row titles: level and on the left, not turned on the right
        selector={"textangle": 90}, x=0, xanchor="right", xshift=-4, textangle=0
    )
    fig.update_layout(
        coloraxis={
            "colorscale": STRETCHED,
            "cmin": 0.0,
            "cmax": 1.0,
            "colorbar": {  # below, so the 12 columns get the whole width of a phone
                "orientation": "h",
                "thickness": 10,
                "len": 0.5,
                "y": -0.02,
                "yanchor": "top",
                "title": {"text": "weight", "side": "top"},
            },
        },
        height=80 * n_layers + 90,
        margin={"l": 30, "r": 10, "t": 30, "b": 10},
    )
    return fig


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
