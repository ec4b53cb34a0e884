"""The yardstick for a class's server (bench/bench_load.py --app bench/bare_app.py): a bare
Streamlit page with a text box, a slider and one 14 x 14 NumPy heatmap.

Its widgets have the lesson's keys, so bench_load's learners drive it as they drive the
overview: a new sentence, or the temperature slider. The heatmap is a softmax over rows of
seeded random scores divided by the temperature, drawn with Vega-Lite, the chart library
Streamlit ships. What the app does beyond this, per interaction, is the ratio bench_load
prints.
"""

import numpy as np
import streamlit as st

N = 14
sentence = st.text_input("Your sentence", "the cat sat on the mat", key="lesson_w_sentence")
temperature = st.slider("Temperature", 0.5, 2.0, 1.0, 0.5, key="lesson_w_temperature")

words = (sentence.split() + ["·"] * N)[:N]
scores = np.random.default_rng(len(sentence)).normal(size=(N, N)) / temperature
weights = np.exp(scores - scores.max(axis=1, keepdims=True))
weights /= weights.sum(axis=1, keepdims=True)
cells = [
    {"query": f"{i} {words[i]}", "key": f"{j} {words[j]}", "weight": float(weights[i, j])}
    for i in range(N)
    for j in range(N)
]
st.vega_lite_chart(
    {
        "data": {"values": cells},
        "mark": "rect",
        "encoding": {
            "x": {"field": "key", "type": "ordinal", "sort": None},
            "y": {"field": "query", "type": "ordinal", "sort": None},
            "color": {"field": "weight", "type": "quantitative"},
        },
    },
    key="bare_heatmap",
)
