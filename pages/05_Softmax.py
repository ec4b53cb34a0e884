"""Softmax: every row of scaled scores becomes a probability distribution."""

import streamlit as st

from attn_core import explain
from attn_ui import bars, compute, controls, layout, steps_b, views

SWEEP = (0.25, 0.5, 1.0, 2.0, 4.0)

layout.page(__file__)
s = controls.sidebar()
with views.stop_on_error():
    run = compute.lesson_run(s)

t, tok, tau = run.trace, run.tokens, run.trace.temperature
steps_b.warn_tokens(tok)

st.subheader("1. Row by row: scores in, distributions out")
c = st.columns([1, 1, 0.5])
with c[0]:
    steps_b.square(t.masked, tok, s, name="S / √d_k + M", by_hand="scaled Kᵀ Q (+ M)", key="sm_in")
with c[1]:
    name = f"A = softmax by row, τ = {tau:g}"
    steps_b.square(
        t.weights, tok, s, name=name, by_hand="A (columns sum to 1)", key="sm_a", kind="weights"
    )
with c[2]:
    what = "column" if s.columns else "row"
    st.markdown(f"**Every {what} sums to 1**")
    steps_b.sums_table({f"{what} sum of A": explain.row_sums(t.weights)}, tok, key="sm_sums")

st.subheader("2. One query up close")
i = steps_b.pick_token(tok, label="Query token (row of A)", key="sm_query")
row = explain.softmax_steps(t.masked[i], tau)
c = st.columns(2)
with c[0]:
    fig = bars.row_bars(row.divided, tok, title=f"Scores of row {i}, ÷ τ", y_title="s / τ")
    views.chart(fig, "sm_scores_bars")
with c[1]:
    fig = bars.row_bars(
        row.weights, tok, title=f"Weights of row {i}", y_title="weight", y_range=(0, 1.1)
    )
    views.chart(fig, "sm_weights_bars")
st.markdown(
    f"Subtract the largest value first: it becomes 0, so the largest exp is exactly 1 and "
    f"nothing can overflow. Sum of the exps: **{row.total:.4f}**; each weight is its exp "
    f"divided by that sum."
)
steps_b.softmax_table(row, tok, key="sm_steps")

st.subheader("3. Temperature: sharper or flatter")
taus = sorted({*SWEEP, tau})
sweep = explain.temperature_sweep(t.masked[i], taus)
title = f"Weights of row {i} at several temperatures"
steps_b.sweep_chart(sweep, taus, tau, tok, title=title, s=s, key="sm_sweep")
st.caption(
    "Move the temperature slider in the sidebar. Low temperatures (top rows) pile the "
    "weight onto the largest score; high ones (bottom rows) spread it out evenly."
)

layout.footer(__file__)
