"""4. Scaling: divide the scores by √d_k, and see why."""

from dataclasses import replace

import streamlit as st

from attn_core import stats
from attn_ui import compute, controls, first_steps, layout, scaling_charts, steps_b, views

text = layout.page(__file__)
s = controls.sidebar(mask=False)
with views.stop_on_error():
    run = compute.lesson_run(replace(s, mask="none"))  # masking is step 7
steps_b.warn_tokens(run.tokens)  # one token, or characters the tokenizer does not know

t, tok = run.trace, run.tokens
u = stats.without_scaling(t)
common = {"columns": s.columns, "show_numbers": s.show_numbers}
st.latex(
    rf"d_k = {t.d_k},\quad \sqrt{{d_k}} = {t.d_k**0.5:.4g},\quad"
    rf"\frac{{1}}{{\sqrt{{d_k}}}} = {t.scale:.4g}"
)

st.subheader("1. Your scores, without and with scaling")
c = st.columns(2)
with c[0]:
    views.matrix(t.scores, tok, tok, name="S = Q Kᵀ", by_hand_name="Kᵀ Q", key="scl_s", **common)
with c[1]:
    views.matrix(
        t.scaled, tok, tok, name="S / √d_k", by_hand_name="Kᵀ Q / √d_k", key="scl_scaled", **common
    )

st.subheader("2. What the softmax makes of them")
c = st.columns(2)
with c[0]:
    views.matrix(
        u.weights,
        tok,
        tok,
        name="softmax(S) by row, unscaled",
        kind="weights",
        by_hand_name="softmax by column, unscaled",
        key="scl_wu",
        **common,
    )
with c[1]:
    views.matrix(
        t.weights,
        tok,
        tok,
        name="softmax(S / √d_k) by row",
        kind="weights",
        by_hand_name="softmax by column, scaled",
        key="scl_ws",
        **common,
    )
summary = first_steps.summary_table(stats.softmax_summary(u), stats.softmax_summary(t), len(tok))
c = st.columns([1, 1.4])
c[0].dataframe(summary, key="scl_summary", width="stretch")
c[1].caption(text["Reading the table"])

st.subheader("3. As d_k grows: random queries and keys with unit-variance entries")
n_keys = max(len(tok), 2)
st.caption(f"Each point: 8,000 scores of random q and k, in rows of {n_keys} keys (seeded).")
figs = scaling_charts.figures(scaling_charts.curve(n_keys), t.d_k)
for n, col in enumerate([*st.columns(2), *st.columns(2)]):
    with col:
        views.chart(figs[n], f"scl_curve_{n}")

layout.footer(__file__)
