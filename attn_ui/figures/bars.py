"""Bar charts for one row of a matrix: bars indexed by position, token strings only as labels.

Plotly charts: the x axis holds positions 0..T-1 (Plotly would merge a repeated word) and
every label is HTML-escaped (Plotly renders a subset of HTML in text).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.colors import qualitative

from attn_ui.figures.heatmap_axes import safe_label, tick_labels

BAR = "#2b6cb0"
MASKED = "#a0aec0"
KEY_COLOURS = qualitative.Dark24  # one colour per key of a stacked bar, 24 before any repeats
MAX_FEATURE_TICKS = 16  # labelled features on a stacked chart's axis (turned labels overlap)
LEGEND_KEYS = 10  # a stacked chart's legend entries, at most (bench/bench_pages.py)


def _axis(names: Sequence[str], title: str) -> dict:
    return {
        "tickmode": "array",
        "tickvals": list(range(len(names))),
        "ticktext": tick_labels(names),
        "title": title,
        "tickangle": -45 if len(names) > 8 else 0,
        "automargin": True,
    }


def _layout(fig: go.Figure, title: str, height: int, *, legend: bool = False) -> go.Figure:
    """Title and size; margins with room for the value labels at the left, the turned token
    labels below and a legend at the right, as the browser measured them (32 tokens):
    automargin still widens a margin a longer label needs, but a margin that already fits
    spares Plotly drawing the figure a second time (bench/profile_browser.py)."""
    fig.update_layout(
        title={"text": safe_label(title), "x": 0, "font": {"size": 15}},
        margin={"l": 76, "r": 160 if legend else 10, "t": 40, "b": 96},
        height=height,
        bargap=0.15,
    )
    return fig


def row_bars(
    values: np.ndarray,
    tokens: Sequence[str],
    *,
    title: str,
    y_title: str,
    y_range: tuple[float, float] | None = None,
    height: int = 300,
) -> go.Figure:
    """One bar per key token; -inf (a masked score) is a flat grey bar labelled −∞."""
    values = np.asarray(values, dtype=float)
    finite = np.isfinite(values)
    heights = np.where(finite, values, 0.0)
    text = [f"{v:.2f}" if ok else "−∞" for v, ok in zip(values, finite, strict=True)]
    fig = go.Figure(
        go.Bar(
            x=list(range(len(values))),
            y=heights,
            text=text,
            textposition="outside" if len(values) <= 16 else "none",
            cliponaxis=False,
            marker_color=[BAR if ok else MASKED for ok in finite],
            customdata=tick_labels(tokens),
            hovertemplate="key %{x}: %{customdata}<br>%{text}<extra></extra>",  # −∞: masked
        )
    )
    fig.update_xaxes(**_axis(tokens, "key"))
    fig.update_yaxes(title=y_title, range=list(y_range) if y_range else None, zeroline=True)
    return _layout(fig, title, height)


def stacked_parts(
    parts: np.ndarray,
    tokens: Sequence[str],
    features: Sequence[str],
    total: np.ndarray,
    *,
    title: str,
    height: int = 380,
) -> go.Figure:
    """parts (T_k, d_v): for each feature, the shares a_j v_j stacked, and their sum as a dot.

    A legend only up to LEGEND_KEYS keys: with 32 keys its entries were most of the
    browser's time to draw the chart (bench/bench_pages.py); beyond that the hover names
    each bar's key. Every key keeps a colour of its own up to 24 keys (KEY_COLOURS)."""
    x = list(range(len(features)))
    legend = len(tokens) <= LEGEND_KEYS
    if not legend:
        title += " (◆ = their sum)"
    fig = go.Figure()
    for j, name in enumerate(tick_labels(tokens)):
        fig.add_bar(
            x=x,
            y=parts[j],
            name=f"{j} {name}",
            marker_color=KEY_COLOURS[j % len(KEY_COLOURS)],  # Plotly's 10 repeat from key 10
            hovertemplate=f"{j} {name}: %{{y:.3f}}<extra></extra>",
        )
    fig.add_scatter(
        x=x,
        y=total,
        mode="markers",
        name="sum = output row",
        marker={"symbol": "diamond", "size": 12, "color": "black"},
        hovertemplate="sum: %{y:.3f}<extra></extra>",
    )
    fig.update_layout(barmode="relative", legend={"title": "value row of key"}, showlegend=legend)
    axis = _axis(features, "feature of V")
    step = -(-len(features) // MAX_FEATURE_TICKS)  # 32 turned labels overlapped: every 2nd
    axis.update(tickvals=x[::step], ticktext=axis["ticktext"][::step])
    fig.update_xaxes(**axis)
    fig.update_yaxes(title="a_j × v_j")
    return _layout(fig, title, height, legend=legend)
