"""Gradients: a loss on one output row, backpropagated through the head; one step; saturation."""

import streamlit as st

from attn_core.labs import gradients
from attn_lessons.i18n import _
from attn_ui import controls, frame, kernel_tables, lang, notices, widgets
from attn_ui.by_hand import backward as by_hand
from attn_ui.compute import kernel
from attn_ui.compute.lessons import lesson_mask
from attn_ui.figures import kernel_charts as charts
from attn_ui.figures import panels
from attn_ui.figures.matrix import matrix
from attn_ui.tables import features

LRS = (0.01, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)
# Opens on the random head: its gradients are 8 × 4 and readable; MiniLM's are 384 × 32.
DEFAULTS = {"weights": "random"}

text = frame.page(__file__)
s = controls.sidebar(defaults=DEFAULTS)
with frame.stop_on_error():
    head = kernel.gradient_head(s)
tok = list(head.tokens)
notices.warn_tokens(head.tokens, head.x)
n = len(tok)
c = st.columns(2)
with c[0]:
    row = widgets.pick_token(
        tok, label=_("Token i, whose output moves"), key="grads_row", default=max(n - 2, 0)
    )
with c[1]:
    toward = widgets.pick_token(
        tok, label=_("toward the value of token j"), key="grads_toward", default=1
    )
# The loss and the backward pass come first on the page but are drawn once the step is
# computed: its learning rate is set in section 3, next to what it changes.
top = st.container()
st.subheader(_("3. One step down the gradient"))
st.markdown(text["One step"])
lr = st.select_slider(_("Learning rate"), LRS, 0.05, key="grads_lr")
with top, frame.stop_on_error():
    step = gradients.gradient_step(
        head.x,
        head.w_q,
        head.w_k,
        head.w_v,
        row=row,
        toward=toward,
        lr=lr,
        mask=lesson_mask(s, n),
        bias=head.bias,
    )
g, before, after = step.grads, step.before, step.after
common = {"columns": s.columns, "show_numbers": s.show_numbers}
d_k, d_v, feats = features(before.d_k, "d"), features(before.d_v, "d"), features(head.x.shape[1])

pairs = charts.gradient_pairs(g, tok, feats, d_k, d_v)

with top:
    with frame.beside(text) as words:
        st.subheader(_("1. The loss"))
        loss = frame.fill(
            text["The loss"], row=frame.quoted(tok[row]), toward=frame.quoted(tok[toward])
        )
        st.markdown(loss)
        st.metric("L = ½ ‖z_i − v_j‖²", f"{step.loss:.4f}")
        st.subheader(_("2. The backward pass"))
        charts.gradient_pair(pairs[0], 0, **common)
        st.markdown(text["Backward"])
    if s.weights == "pretrained":
        with words:
            st.info(text["A real head"])
    for n_pair in range(1, len(pairs)):
        charts.gradient_pair(pairs[n_pair], n_pair, **common)
    matrix(
        g.dw_v,
        feats,
        d_v,
        name="dW_V = Xᵀ dV",
        row_title=_("feature of x"),
        col_title=_("feature"),
        key="grads_dwv",
        **common,
    )

c = st.columns(3)
c[0].metric(_("Loss before the step"), f"{step.loss:.4f}")
c[1].metric(
    _("Loss after the step"),
    f"{step.loss_after:.4f}",
    f"{step.loss_after - step.loss:+.4f}",
    delta_color="inverse",
)
c[2].metric(
    _("Weight of token i on token j"),
    f"{after.weights[row, toward]:.4f}",
    f"{after.weights[row, toward] - before.weights[row, toward]:+.4f}",
)
fig = charts.step_row(tok, row, before.weights[row], after.weights[row])
panels.chart(fig, "grads_row_chart")
st.dataframe(kernel_tables.step_sizes(g, lr), key="grads_moved", width="stretch")

st.subheader(_("4. Why scale: the gradient of a saturated softmax vanishes"))
st.markdown(text["Saturation"])
table = kernel_tables.saturation(kernel.saturation_table(s.seed))
st.dataframe(
    table,
    key="grads_saturation",
    width="stretch",
    column_config=kernel_tables.three_digits(table),
)
st.page_link(
    "pages/40_Why_scale.py",
    label=_("The Why √d lab: variance and saturation"),
    icon=":material/show_chart:",
    query_params=lang.link_params(),
)

st.subheader(_("5. By hand: one backward pass in fractions"))
st.markdown(text["By hand"])
seed = int(st.number_input(_("Sheet seed"), 0, 99_999, 2, step=1, key="grads_hand_seed"))
by_hand.section(kernel.backward_exercise(seed))
st.page_link(
    "pages/22_Worksheets.py",
    label=_("Print such sheets: Worksheets, variant “backward pass”"),
    icon=":material/print:",
    query_params=lang.link_params(),
)

frame.footer(__file__)
