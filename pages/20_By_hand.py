"""By hand: a worked example with small integers, one grid per step, beside the exact one."""

import streamlit as st

from attn_core.by_hand.compare import compare_exact
from attn_core.by_hand.trace import hand_attention
from attn_lessons.i18n import _
from attn_ui import frame
from attn_ui.by_hand import inputs, steps
from attn_ui.by_hand.grids import tokens

text = frame.page(__file__)
rule, causal = inputs.rules()
with frame.stop_on_error():
    x, w_q, w_k, w_v = inputs.own_numbers(text)
    trace = hand_attention(x, w_q, w_k, w_v, scale_rule=rule, causal=causal)
    inputs.check_size(trace)
cmp = compare_exact(trace)

st.divider()
last = steps.stepper()
with frame.beside(text):  # the givens, the lesson's words beside them
    steps.render(0, trace, cmp, 0, text, per_row=2)
follow = st.selectbox(
    _("Token to follow in the working"),
    range(trace.tokens),
    format_func=lambda j: tokens(trace.tokens)[j],
    key="hand_follow",
)
for n in range(1, last + 1):
    steps.render(n, trace, cmp, follow, text)
if last < len(steps.STEPS) - 1:
    st.button(
        _("Next step"),
        key="hand_next_bottom",
        on_click=steps.move,
        args=(1,),
        type="primary",
        icon=":material/arrow_forward:",
    )

st.divider()
steps.row_convention(trace, cmp, text)
frame.footer(__file__)
