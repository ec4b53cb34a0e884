"""Multi-head attention: several heads side by side, concatenated, then mixed by W_O."""

import streamlit as st

from attn_core import explain
from attn_ui import compute, controls, layout, steps_b
from attn_ui.figures import matrix as views

layout.page(__file__)
s = controls.sidebar(heads=True)
if s.weights == "pretrained":
    st.warning(
        "This page builds its heads from the toy weights. Choose **Random** or "
        "**Similarity** weights in the sidebar."
    )
    st.button(
        "Use random weights",
        key="mh_random",
        on_click=controls.update,
        kwargs={"weights": "random"},
    )
    st.stop()
with views.stop_on_error():
    run = compute.lesson_run(s, multi=True)

mh, tok = run.multi, run.tokens
n_heads, d_v, d_model, t = mh.n_heads, mh.heads[0].d_v, mh.x.shape[1], len(tok)
steps_b.warn_tokens(tok)
if s.temperature != 1.0:
    st.info(
        "The temperature slider applies to the single-head pages; every head here uses "
        "τ = 1, as in a trained model."
    )

st.subheader(f"1. {n_heads} heads, each with its own W_Q, W_K, W_V")
st.caption(f"Each head: d_k = {mh.heads[0].d_k}, d_v = {d_v}.")
view = st.radio("Show", ["Each head", "Mean over heads"], horizontal=True, key="mh_view")
if view == "Each head":
    steps_b.heads_grid([h.weights for h in mh.heads], tok, s)
else:
    mean = explain.mean_over_heads(mh.weights)
    steps_b.square(mean, tok, s, name="mean of the heads' A", kind="weights", key="mh_mean")
    st.caption("Each row of the mean still sums to 1; a pattern one head has may fade here.")

st.subheader("2. Concatenate the heads, then mix with W_O")
st.markdown(
    f"**{t} positions × {n_heads} heads = {t * n_heads} context vectors** of {d_v} numbers "
    f"each, before W_O. Side by side they make a {t} × {n_heads * d_v} matrix; W_O turns "
    f"each position's row back into {d_model} numbers."
)
head_cols, f_cols = steps_b.head_features(n_heads, d_v), views.features(d_model)
steps_b.per_token(
    mh.concat,
    tok,
    head_cols,
    s,
    name=f"concat(Z_0 … Z_{n_heads - 1})",
    col_title="head · feature",
    key="mh_concat",
)
c = st.columns(2)
with c[0]:
    steps_b.per_token(
        mh.w_o, head_cols, f_cols, s, name="W_O", row_title="head · feature", key="mh_wo"
    )
with c[1]:
    steps_b.per_token(
        mh.output,
        tok,
        f_cols,
        s,
        name="output = concat W_O",
        by_hand="output = W_O concat",
        key="mh_out",
    )

layout.footer(__file__)
