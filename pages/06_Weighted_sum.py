"""Weighted sum: Z = A V, each output row a mix of the value rows."""

import streamlit as st

from attn_core import explain
from attn_ui import bars, compute, controls, layout, steps_b, views

layout.page(__file__)
s = controls.sidebar()
with views.stop_on_error():
    run = compute.lesson_run(s)

t, tok = run.trace, run.tokens
steps_b.warn_tokens(tok)
v_cols = views.features(t.d_v, "v")

st.subheader("1. Weights times values")
c = st.columns([1, 1, 1] if s.columns else [1.2, 0.8, 0.8])  # by hand, V and Z are wide
with c[0]:
    steps_b.square(
        t.weights,
        tok,
        s,
        name="A (rows sum to 1)",
        by_hand="A (columns sum to 1)",
        kind="weights",
        key="ws_a",
    )
with c[1]:
    steps_b.per_token(t.v, tok, v_cols, s, name="V", by_hand="V (features × tokens)", key="ws_v")
with c[2]:
    steps_b.per_token(t.output, tok, v_cols, s, name="Z = A V", by_hand="Z = V A", key="ws_z")

st.subheader("2. One output row, taken apart")
i = steps_b.pick_token(tok, label="Output row of token", key="ws_query")
parts = explain.weighted_sum_parts(t.weights[i], t.v)
what = "Column" if s.columns else "Row"  # token i's output in the by-hand layout is a column
st.markdown(
    f"{what} {i} of Z is $z_{{{i}}} = \\sum_{{j=0}}^{{{len(tok) - 1}}} a_{{{i}j}}\\, v_j$: every "
    "value row v_j, scaled by how much this query attends to it, added up. Token "
    f"{i}'s weights sum to **{explain.row_sums(t.weights[i]):.4f}**, so the result is a "
    "weighted average of the value rows."
)
c = st.columns([1.1, 1])
with c[0]:
    title = f"{what} {i} of Z: the value rows' shares, stacked"
    views.chart(bars.stacked_parts(parts, tok, v_cols, t.output[i], title=title), "ws_stack")
with c[1]:
    steps_b.per_token(
        parts,
        tok,
        v_cols,
        s,
        name=f"a_{i},j × v_j",
        row_title="key j",
        by_hand=f"shares of column {i} of Z",
        key="ws_parts",
    )
st.markdown("**Add the shares up, feature by feature: you get the row of Z.**")
steps_b.parts_table(parts, t.weights[i], t.output[i], tok, v_cols, key="ws_sum")

layout.footer(__file__)
