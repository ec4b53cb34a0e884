"""The chart benchmark's Vega-Lite page: the two charts of canvas.py drawn by
`st.vega_lite_chart`, side by side in two columns. Everything a sentence changes is data,
never the spec, so Streamlit and Vega may update a chart in place. bench/bench_charts.py
says what it measures."""

import pandas as pd
import streamlit as st

from bench.chart_pages import chart_data as data

HEIGHT = 320  # px, the whole chart: about the canvas charts' height


def bar_spec(title: str, y_title: str, y_domain=None) -> dict:
    """Bars at positions, labelled with the tokens: the x field is "003:word" (a repeated
    word keeps its own bar, and the positions sort as numbers), its label the word."""
    y = {"field": "value", "type": "quantitative", "title": y_title}
    if y_domain:
        y["scale"] = {"domain": list(y_domain)}
    return {
        "title": title,
        # what a screen reader says for a bar (Vega-Lite's own says "key: 003:word; ...")
        "transform": [
            {"calculate": "datum.token + ': ' + format(datum.value, '.4f')", "as": "said"}
        ],
        "mark": {"type": "bar", "color": "#2b6cb0"},
        "encoding": {
            "x": {
                "field": "slot",
                "type": "ordinal",
                "title": "key",
                "axis": {"labelExpr": "slice(datum.label, 4)"},
            },
            "y": y,
            "description": {"field": "said"},
            "tooltip": [
                {"field": "token", "title": "key"},
                {"field": "value", "title": y_title, "format": ".4f"},
            ],
        },
    }


def line_spec(title: str, y_title: str) -> dict:
    """Three series against d (log axis), points on the lines, and a dotted rule with its
    text at the learner's d (the rows whose series is "mark")."""
    x = {
        "field": "d",
        "type": "quantitative",
        "title": "d (log scale)",
        "scale": {"type": "log"},
        "axis": {"values": data.D_TICKS},
    }
    curve = {"filter": "datum.series !== 'mark'"}
    at = {"filter": "datum.series === 'mark'"}
    colours = {"domain": list(data.SERIES), "range": list(data.COLOURS)}
    return {
        "title": title,
        "layer": [
            {
                "transform": [curve],
                "mark": {"type": "line", "point": True},
                "encoding": {
                    "x": x,
                    "y": {
                        "field": "value",
                        "type": "quantitative",
                        "title": y_title,
                        "scale": {"domain": [0, 1.02]},
                    },
                    "color": {
                        "field": "series",
                        "type": "nominal",
                        "scale": colours,
                        "legend": {"orient": "bottom", "title": None},
                    },
                    "tooltip": [
                        {"field": "series"},
                        {"field": "d"},
                        {"field": "value", "format": ".4g"},
                    ],
                },
            },
            {
                "transform": [at],
                "mark": {"type": "rule", "strokeDash": [2, 3], "color": "#555555"},
                "encoding": {"x": x},
            },
            {
                "transform": [at],
                "mark": {"type": "text", "align": "left", "dx": 4, "y": 6},
                "encoding": {"x": x, "text": {"field": "label"}},
            },
        ],
    }


def options(title: str, k: int) -> dict:
    """Its width, height, key, and its name for a screen reader (alt; else "Vega visualization")."""
    return {"width": "stretch", "height": HEIGHT, "key": f"bench_chart{k}", "alt": title}


kind = st.query_params.get("chart", "bars")
sentence = st.text_input("Your sentence", data.DEFAULT, key="bench_sentence")
left, right = st.columns(2)
if kind == "bars":
    tokens, scores, weights = data.row(sentence)
    slots = [f"{i:03d}:{w}" for i, w in enumerate(tokens)]
    for k, (col, values, domain) in enumerate(
        zip((left, right), (scores, weights), (None, (0, 1.1)), strict=True)
    ):
        frame = pd.DataFrame({"slot": slots, "token": tokens, "value": values})
        with col:
            spec = bar_spec(data.BAR_TITLES[k], data.BAR_Y[k], domain)
            st.vega_lite_chart(frame, spec, **options(data.BAR_TITLES[k], k))
else:
    d, text = data.mark(sentence)
    for k, col in enumerate((left, right)):
        rows = [
            {"series": name, "d": x, "value": v, "label": ""}
            for name, y in zip(data.SERIES, data.curves(sentence, k), strict=True)
            for x, v in zip(data.D, y, strict=True)
        ]
        rows.append({"series": "mark", "d": d, "value": 0.0, "label": text})
        with col:
            spec = line_spec(data.LINE_TITLES[k], data.LINE_Y[k])
            st.vega_lite_chart(pd.DataFrame(rows), spec, **options(data.LINE_TITLES[k], k))
