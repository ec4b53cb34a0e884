"""Plotly figures for labs 44-47: counts and costs on log-log axes, and each token's spread
through the transformer block. Numbers come in; figures go out (the heatmaps, the local
band's included, are ``attn_ui.figures.matrix``)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from attn_core.labs.cost import CostCurve, Fit
from attn_ui.figures.heatmap_axes import safe_label

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd")


def loglog(title: str, x_title: str, y_title: str, series: Sequence[tuple], ticks=None):
    """Lines on log-log axes; series: (name, x, y) or (name, x, y, dash); x labelled at `ticks`."""
    fig = go.Figure()
    for n, (name, x, y, *dash) in enumerate(series):
        label = safe_label(name)
        fig.add_scatter(
            x=np.asarray(x),
            y=np.asarray(y),
            name=label,
            mode="lines" if dash else "lines+markers",
            line={"color": COLOURS[n % len(COLOURS)], "dash": dash[0] if dash else "solid"},
            hovertemplate=f"{label}<br>{x_title} = %{{x}}: %{{y:.4g}}<extra></extra>",
        )
    fig.update_layout(
        title={"text": safe_label(title), "x": 0, "font": {"size": 14}},
        height=320,
        margin={"l": 10, "r": 10, "t": 40, "b": 10},
        legend={"orientation": "h", "y": -0.3},
        xaxis={
            "type": "log",
            "title": x_title,
            **({"tickvals": list(ticks)} if ticks is not None else {}),
        },
        yaxis={"type": "log", "title": y_title, "exponentformat": "power"},
    )
    return fig


def mark_x(fig: go.Figure, x: float, text: str) -> None:
    """A dotted vertical line at `x` on a log x axis, labelled at the top."""
    fig.add_vline(x=x, line={"dash": "dot", "color": "#555"})
    # on a log axis an annotation's x is log10 of the value (a vline's is the value itself)
    fig.add_annotation(
        x=math.log10(x),
        y=1,
        yref="paper",
        text=safe_label(text),
        showarrow=False,
        xanchor="left",
        yanchor="top",
        font={"size": 11},
    )


def fit_line(x, fit: Fit) -> np.ndarray:
    """The fitted power law c x^slope at `x`, to draw beside the measured points."""
    return fit.coefficient * np.asarray(x, dtype=float) ** fit.slope


def stages_figure(spread: pd.DataFrame) -> go.Figure:
    """One line per token (row of `spread`) across the block's stages (its columns).

    The y axis is logarithmic: a few tokens (often [SEP]) grow ten times larger than the rest.
    """
    fig = go.Figure()
    stages = [safe_label(c) for c in spread.columns]
    for name, row in spread.iterrows():
        fig.add_scatter(
            x=list(range(len(stages))),
            y=row.to_numpy(),
            name=safe_label(name),
            mode="lines+markers",
            line={"width": 1},
            customdata=stages,
            hovertemplate="%{customdata}: %{y:.3f}<extra>%{fullData.name}</extra>",
        )
    fig.update_layout(
        height=400,
        margin={"l": 10, "r": 40, "t": 10, "b": 10},
        showlegend=False,
        xaxis={
            "tickmode": "array",
            "tickvals": list(range(len(stages))),
            "ticktext": stages,
            "tickangle": -35,
            "range": [-0.4, len(stages) - 0.6],
            "automargin": True,
        },
        yaxis={
            "type": "log",
            "title": "standard deviation (log scale)",
            "tickvals": [0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50],
        },
    )
    return fig


def clip_limit(m: np.ndarray) -> float:
    """The colour scale's end for a wide heatmap (its `limit`): the 99th percentile of |m|, so
    that a few outlier features (trained transformers have some) do not wash out every other
    cell."""
    return float(np.percentile(np.abs(m), 99)) or 1.0


def _fitted(symbol: str, x: np.ndarray, start: int, fit: Fit) -> tuple:
    """The fit's dashed line over the points it used (x >= start)."""
    x = x[x >= start]
    return (f"fit: c·{symbol}^{fit.slope:.2f}", x, fit_line(x, fit), "dash")


def cost_figures(over_t: CostCurve, over_d: CostCurve, fits: dict[str, Fit], start: dict):
    """Time against T (attention, its fit, the RNN), memory against T, time against d.

    fits : {"t": attention vs T, "d": attention vs d};  start : {"t": T0, "d": d0}, the
    smallest x each fit used.
    """
    t, d = over_t.t, over_d.d
    time_t = [
        ("attention (measured)", t, over_t.seconds),
        _fitted("T", t, start["t"], fits["t"]),
        ("RNN, T steps (measured)", t, over_t.rnn_seconds),
    ]
    memory = [
        ("weights A (T × T)", t, over_t.weights_bytes),
        ("every T × T array the trace keeps", t, over_t.trace_bytes),
    ]
    time_d = [("attention (measured)", d, over_d.seconds), _fitted("d", d, start["d"], fits["d"])]
    return (
        loglog("Time against T", "T", "seconds", time_t, ticks=t),
        loglog("Memory against T", "T", "bytes", memory, ticks=t),
        loglog(f"Time against d (T = {over_d.t[0]})", "d", "seconds", time_d, ticks=d),
    )
