"""The chart benchmark's Plotly page: the two charts of canvas.py drawn by `st.plotly_chart`,
side by side in two columns, as the labs draw theirs (attn_ui/figures/plots.py, with
panels.chart's config and axes). bench/bench_charts.py says what it measures."""

import math

import plotly.graph_objects as go
import streamlit as st

from bench.chart_pages import chart_data as data

CONFIG = {"displaylogo": False, "toImageButtonOptions": {"format": "png", "scale": 2}}


def layout(fig: go.Figure, title: str, **axes) -> go.Figure:
    fig.update_layout(
        title={"text": title, "x": 0, "font": {"size": 15}},
        margin={"l": 10, "r": 10, "t": 40, "b": 10},
        height=340,
        legend={"orientation": "h", "x": 0, "y": 0, "yref": "container", "yanchor": "bottom"},
        **axes,
    )
    fig.update_xaxes(ticklabeloverflow="allow")
    fig.update_yaxes(ticklabeloverflow="allow")
    return fig


def bar_figure(tokens, values, title: str, y_title: str, y_range=None) -> go.Figure:
    """One bar per position, labelled with its token (Plotly merges repeated categories)."""
    pos = list(range(len(tokens)))
    fig = go.Figure(
        go.Bar(
            x=pos,
            y=values,
            marker_color="#2b6cb0",
            customdata=tokens,
            hovertemplate=f"%{{customdata}}: %{{y:.4f}}<extra>{y_title}</extra>",
        )
    )
    x = {"tickmode": "array", "tickvals": pos, "ticktext": tokens, "title": "key"}
    y = {"title": y_title, **({"range": list(y_range)} if y_range else {})}
    return layout(fig, title, xaxis=x, yaxis=y)


def line_figure(sentence: str, k: int) -> go.Figure:
    fig = go.Figure()
    for name, y, colour in zip(data.SERIES, data.curves(sentence, k), data.COLOURS, strict=True):
        fig.add_scatter(
            x=data.D,
            y=y,
            name=name,
            mode="lines+markers",
            line={"color": colour},
            hovertemplate=f"{name}<br>d = %{{x}}: %{{y:.4g}}<extra></extra>",
        )
    d, text = data.mark(sentence)
    fig.add_vline(x=d, line={"dash": "dot", "color": "#555555"})
    # its text apart: add_vline's annotation_text lands at 10**d on a log axis
    fig.add_annotation(
        x=math.log10(d), y=1, yref="paper", text=text, showarrow=False, xanchor="left"
    )
    x = {"type": "log", "title": "d (log scale)", "tickvals": data.D_TICKS}
    x["range"] = [-0.15, math.log10(data.D[-1]) + 0.15]  # the annotation widens autorange
    y = {"title": data.LINE_Y[k], "range": [0, 1.02]}
    return layout(fig, data.LINE_TITLES[k], xaxis=x, yaxis=y)


kind = st.query_params.get("chart", "bars")
sentence = st.text_input("Your sentence", data.DEFAULT, key="bench_sentence")
left, right = st.columns(2)
if kind == "bars":
    tokens, scores, weights = data.row(sentence)
    figs = [
        bar_figure(tokens, scores, data.BAR_TITLES[0], data.BAR_Y[0]),
        bar_figure(tokens, weights, data.BAR_TITLES[1], data.BAR_Y[1], (0, 1.1)),
    ]
else:
    figs = [line_figure(sentence, k) for k in range(2)]
for k, (col, fig) in enumerate(zip((left, right), figs, strict=True)):
    with col:
        alt = fig.layout.title.text  # its name for a screen reader
        st.plotly_chart(fig, key=f"bench_chart{k}", config=CONFIG, width="stretch", alt=alt)
