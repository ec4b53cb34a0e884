"""The chart benchmark's canvas page: two charts drawn by the heatmaps' canvas component, as
pages/05_Softmax.py draws its bars (`?chart=bars`, the default) or as the labs draw curves
against d (`?chart=lines`). bench/bench_charts.py says what it measures."""

import streamlit as st

from attn_ui.figures import bars, chart, panels
from bench.chart_pages import chart_data as data

kind = st.query_params.get("chart", "bars")
sentence = st.text_input("Your sentence", data.DEFAULT, key="bench_sentence")
if kind == "bars":
    tokens, scores, weights = data.row(sentence)
    a = bars.row_bars(scores, tokens, title=data.BAR_TITLES[0], y_title=data.BAR_Y[0])
    b = bars.row_bars(
        weights, tokens, title=data.BAR_TITLES[1], y_title=data.BAR_Y[1], y_range=(0, 1.1)
    )
    panels.charts([a, b], "bench_chart")
else:
    figs = [
        chart.lines(
            data.D,
            [
                chart.series(name, y, colour, style="line")
                for name, y, colour in zip(
                    data.SERIES, data.curves(sentence, k), data.COLOURS, strict=True
                )
            ],
            title=data.LINE_TITLES[k],
            x_title="d (log scale)",
            y_title=data.LINE_Y[k],
            log_x=True,
            x_ticks=data.D_TICKS,
            y_range=(0, 1.02),
            mark=data.mark(sentence),
        )
        for k in range(2)
    ]
    panels.charts(figs, "bench_chart")
