"""The baseline for bench_app.py: a bare Streamlit page that draws one heatmap.

Same input (a sentence), same size (T x T for T tokens), nothing else.
"""

import numpy as np
import plotly.graph_objects as go
import streamlit as st

sentence = st.text_input("Your sentence", "w " * 32, key="bare_sentence")
words = sentence.split() or ["(empty)"]
t = len(words)
z = np.random.default_rng(len(sentence)).random((t, t))
fig = go.Figure(go.Heatmap(z=z))
fig.update_yaxes(tickmode="array", tickvals=list(range(t)), ticktext=words, autorange="reversed")
st.plotly_chart(fig, key="bare")
