"""Masking: forbid some query-key pairs before the softmax, and see what the wrong way does."""

from dataclasses import replace

import streamlit as st

from attn_core import AttentionInputError, explain
from attn_ui import compute, controls, layout, masking, steps_b
from attn_ui.figures import matrix as views

layout.page(__file__)
s = controls.sidebar()
with views.stop_on_error():
    base = compute.lesson_run(replace(s, mask="none"))  # q, k, v and scores without a mask
    tok = base.tokens
    steps_b.warn_tokens(tok)
    st.subheader("1. The mask M")
    mask = masking.custom_mask(masking.preset_mask(s, len(tok)), tok, s)

c = st.columns(2)
with c[0]:
    m = explain.additive_mask(mask)
    steps_b.square(m, tok, s, name="M (0 = may attend, −∞ = masked)", by_hand="Mᵀ", key="mask_m")
try:
    t = masking.masked_trace(base.trace, mask, s.temperature)
except AttentionInputError as exc:  # a row with nothing allowed: say which, never NaN
    with c[1]:
        views.show_error(exc)
    st.stop()
with c[1]:
    steps_b.square(t.masked, tok, s, name="S/√d_k + M", by_hand="scaled Kᵀ Q + Mᵀ", key="mask_s")
wrong = explain.mask_after_softmax(base.trace.scaled, mask, s.temperature)

st.subheader("2. Right way against wrong way")
c = st.columns(2)
with c[0]:
    st.markdown("**Right:** add M *before* the softmax")
    steps_b.square(
        t.weights,
        tok,
        s,
        name="softmax(S/√d_k + M)",
        kind="weights",
        by_hand="softmax by column (+ Mᵀ)",
        key="mask_right",
    )
with c[1]:
    st.markdown("**Wrong:** softmax first, *then* set masked weights to 0")
    steps_b.square(
        wrong,
        tok,
        s,
        name="softmax(S/√d_k), masked → 0",
        kind="weights",
        by_hand="column softmax, masked → 0",
        key="mask_wrong",
    )

what = "column" if s.columns else "row"
c = st.columns([0.8, 1.2])
with c[0]:
    st.markdown(
        f"**Sum of each {what}.** The right way gives every {what} a full 1 to share among the "
        f"keys it may see. The wrong way let the masked keys take their share first and then "
        f"threw it away, so a {what} with anything masked sums to less than 1."
    )
    sums = {"right way": explain.row_sums(t.weights), "wrong way": explain.row_sums(wrong)}
    steps_b.sums_table(sums, tok, key="mask_sums")
with c[1]:
    v_cols = views.features(t.d_v, "v")
    steps_b.per_token(
        t.output, tok, v_cols, s, name="Z = softmax(S/√d_k + M) V", by_hand="Z = V A", key="mask_z"
    )

layout.footer(__file__)
