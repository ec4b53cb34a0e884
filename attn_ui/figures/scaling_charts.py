"""The live 'why scale?' figures: random queries and keys measured over d_k = 1 .. 512."""

from __future__ import annotations

import math

import plotly.graph_objects as go
import streamlit as st

from attn_core.labs.scaling import ScaleSweep, scale_sweep

D_KS = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512)
N_SCORES = 8000  # scores per point, as the page says
UNSCALED, SCALED = "#d62728", "#1f77b4"  # red: q . k as is; blue: q . k / sqrt(d_k)


@st.cache_data(max_entries=80, show_spinner="Drawing random queries and keys...")
def curve(n_keys: int) -> ScaleSweep:
    """The seeded simulation for rows of `n_keys` keys (one per distinct sentence length)."""
    return scale_sweep(D_KS, n_keys, n_scores=N_SCORES)


def _figure(c: ScaleSweep, field: str, title: str, your_d_k: int, *, log_y=False) -> go.Figure:
    fig = go.Figure()
    for scaled, colour, label in ((False, UNSCALED, "q·k"), (True, SCALED, "q·k / √d_k")):
        fig.add_scatter(
            x=c.d,
            y=c.column(field, scaled=scaled),
            name=label,
            mode="lines+markers",
            line={"color": colour},
            hovertemplate=f"{label}<br>d_k = %{{x}}: %{{y:.3g}}<extra></extra>",
        )
    fig.add_vline(x=your_d_k, line={"dash": "dot", "color": "#555"})
    fig.add_annotation(
        x=math.log10(your_d_k),
        y=1,
        yref="paper",
        text=f"your d_k = {your_d_k}",
        showarrow=False,
        xanchor="left",
        yanchor="top",
        font={"size": 11},
    )
    fig.update_layout(
        title={"text": title, "x": 0, "font": {"size": 14}},
        height=300,
        # room for the value labels and the legend below, as drawn: automargin finds nothing
        # to push and Plotly draws each figure once (bench/profile_browser.py)
        margin={"l": 44, "r": 10, "t": 40, "b": 88},
        legend={"orientation": "h", "y": -0.25},
        xaxis={"type": "log", "title": "d_k", "tickvals": [1, 4, 16, 64, 256, 512]},
        yaxis={"type": "log", "dtick": 1} if log_y else {},
    )
    return fig


def figures(c: ScaleSweep, your_d_k: int) -> list[go.Figure]:
    """Variance of the scores; the softmax's largest weight, entropy and gradient size."""
    figs = [
        _figure(c, "variance", "Variance of the scores", your_d_k, log_y=True),
        _figure(c, "max_weight", "Largest weight in a row", your_d_k),
        _figure(c, "entropy", f"Entropy of a row (uniform: ln {c.n_keys})", your_d_k),
        _figure(c, "grad_norm", "Softmax gradient size", your_d_k),
    ]
    figs[0].add_scatter(
        x=c.d,
        y=c.d,
        name="d_k",
        mode="lines",
        hoverinfo="skip",
        line={"color": "#999", "dash": "dash"},
    )
    figs[1].update_yaxes(range=[0, 1.02])
    figs[2].update_yaxes(range=[0, math.log(c.n_keys) * 1.05])
    return figs
