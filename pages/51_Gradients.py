"""Gradients: a loss on one output row, backpropagated through the head; one step; saturation."""

import numpy as np
import pandas as pd
import streamlit as st

from attn_core.labs import gradients
from attn_ui import controls, frame, notices, widgets
from attn_ui.by_hand.grids import dims, show, text_table, tokens
from attn_ui.compute import kernel
from attn_ui.compute.lessons import lesson_mask
from attn_ui.figures import panels
from attn_ui.figures import plots as charts
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
        tok, label="Token i, whose output moves", key="grads_row", default=max(n - 2, 0)
    )
with c[1]:
    toward = widgets.pick_token(
        tok, label="toward the value of token j", key="grads_toward", default=1
    )
# The loss and the backward pass come first on the page but are drawn once the step is
# computed: its learning rate is set in section 3, next to what it changes.
top = st.container()
st.subheader("3. One step down the gradient")
st.markdown(text["One step"])
lr = st.select_slider("Learning rate", LRS, 0.05, key="grads_lr")
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

pairs = [
    (
        (g.d_output, tok, d_v, "dZ = dL/dZ", "token", "feature"),
        (g.dv, tok, d_v, "dV = Aᵀ dZ", "token", "feature"),
    ),
    (
        (g.d_weights, tok, tok, "dA = dZ Vᵀ", "query", "key"),
        (g.d_scaled, tok, tok, "dS = A ⊙ (dA − rowsum)", "query", "key"),
    ),
    (
        (g.dq, tok, d_k, "dQ = dS K / √d_k", "token", "feature"),
        (g.dk, tok, d_k, "dK = dSᵀ Q / √d_k", "token", "feature"),
    ),
    (
        (g.dw_q, feats, d_k, "dW_Q = Xᵀ dQ", "feature of x", "feature"),
        (g.dw_k, feats, d_k, "dW_K = Xᵀ dK", "feature of x", "feature"),
    ),
]


def pair_of(n_pair: int) -> None:
    """Two gradients of the backward pass side by side."""
    cols = st.columns(2)
    for col, (m, rows, names, title, r_title, c_title) in zip(cols, pairs[n_pair], strict=True):
        with col:
            matrix(
                m,
                rows,
                names,
                name=title,
                row_title=r_title,
                col_title=c_title,
                key=f"grads_m{n_pair}_{title[:5]}",
                **common,
            )


with top:
    with frame.beside(text) as words:
        st.subheader("1. The loss")
        loss = frame.fill(
            text["The loss"], row=frame.quoted(tok[row]), toward=frame.quoted(tok[toward])
        )
        st.markdown(loss)
        st.metric("L = ½ ‖z_i − v_j‖²", f"{step.loss:.4f}")
        st.subheader("2. The backward pass")
        pair_of(0)
        st.markdown(text["Backward"])
    if s.weights == "pretrained":
        with words:
            st.info(text["A real head"])
    for n_pair in range(1, len(pairs)):
        pair_of(n_pair)
    matrix(
        g.dw_v,
        feats,
        d_v,
        name="dW_V = Xᵀ dV",
        row_title="feature of x",
        col_title="feature",
        key="grads_dwv",
        **common,
    )

c = st.columns(3)
c[0].metric("Loss before the step", f"{step.loss:.4f}")
c[1].metric(
    "Loss after the step",
    f"{step.loss_after:.4f}",
    f"{step.loss_after - step.loss:+.4f}",
    delta_color="inverse",
)
c[2].metric(
    "Weight of token i on token j",
    f"{after.weights[row, toward]:.4f}",
    f"{after.weights[row, toward] - before.weights[row, toward]:+.4f}",
)
fig = charts.grouped_bars(
    tok,
    [
        ("before the step", before.weights[row], charts.UNSCALED),
        ("after the step", after.weights[row], charts.SCALED),
    ],
    title=f"Row i of A: where token {tok[row]} looks",
    value_title="weight",
    name_title="key",
    value_range=(0, 1.05),
)
panels.chart(fig, "grads_row_chart")
moved = pd.DataFrame(
    {
        "largest |dW|": [float(np.abs(w).max()) for w in (g.dw_q, g.dw_k, g.dw_v)],
        "largest change, lr · |dW|": [
            lr * float(np.abs(w).max()) for w in (g.dw_q, g.dw_k, g.dw_v)
        ],
    },
    index=pd.Index(["W_Q", "W_K", "W_V"], name="matrix"),
)
st.dataframe(moved, key="grads_moved", width="stretch")

st.subheader("4. Why scale: the gradient of a saturated softmax vanishes")
st.markdown(text["Saturation"])
sat = kernel.saturation_table(s.seed)
table = pd.DataFrame(
    {
        "d": [x.d for x in sat],
        "typical max |dS| of a row, scaled": [x.row_ds_scaled for x in sat],
        "typical max |dS| of a row, unscaled": [x.row_ds_unscaled for x in sat],
        "mean |dS|, scaled": [x.mean_ds_scaled for x in sat],
        "mean |dS|, unscaled": [x.mean_ds_unscaled for x in sat],
        "largest weight, unscaled": [x.max_weight_unscaled for x in sat],
    }
).set_index("d")
# three significant digits: the unscaled gradients shrink to 1e-6 and less ("0.000003")
three = {c: st.column_config.NumberColumn(c, format="%.3g") for c in table.columns}
st.dataframe(table, key="grads_saturation", width="stretch", column_config=three)
st.page_link(
    "pages/40_Why_scale.py",
    label="The Why √d lab: variance and saturation",
    icon=":material/show_chart:",
)

st.subheader("5. By hand: one backward pass in fractions")
st.markdown(text["By hand"])
seed = int(st.number_input("Sheet seed", 0, 99_999, 2, step=1, key="grads_hand_seed"))
ex = kernel.backward_exercise(seed)
h, hg = ex.heads[0], ex.grads
tk, dh = tokens(ex.tokens), dims(ex.d_k)
dv_rows = dims(len(ex.d_z))
cols = st.columns(4)
for col, (m, r, title, key) in zip(
    cols,
    (
        (h.k, dh, "K = W_K X", "k"),
        (h.q, dh, "Q = W_Q X", "q"),
        (h.v, dv_rows, "V = W_V X", "v"),
        (ex.d_z, dv_rows, "dZ (given)", "dz"),
    ),
    strict=True,
):
    with col:
        show(text_table(m, r, tk), title=title, key=f"grads_hand_{key}")
keys_q = ([f"key {x}" for x in tk], [f"query {x}" for x in tk])
cols = st.columns(2)
with cols[0]:
    show(text_table(h.weights, *keys_q), title="A (columns sum to 1)", key="grads_hand_a")
with cols[1]:
    show(text_table(hg.dv, dv_rows, tk), title="dV = dZ Aᵀ", key="grads_hand_dv")
cols = st.columns(2)
with cols[0]:
    show(text_table(hg.d_weights, *keys_q), title="dA = Vᵀ dZ", key="grads_hand_da")
with cols[1]:
    show(
        text_table(hg.col_dots[None], ["c"], keys_q[1]),
        title="c = column sums of A ⊙ dA",
        key="grads_hand_c",
    )
cols = st.columns(2)
with cols[0]:
    show(text_table(hg.d_scaled, *keys_q), title="dS = A ⊙ (dA − c)", key="grads_hand_ds")
with cols[1]:
    show(text_table(hg.d_scores, *keys_q), title="dS / 2", key="grads_hand_dscores")
cols = st.columns(2)
with cols[0]:
    show(text_table(hg.dq, dh, tk), title="dQ = K (dS / 2)", key="grads_hand_dq")
with cols[1]:
    show(text_table(hg.dk, dh, tk), title="dK = Q (dS / 2)ᵀ", key="grads_hand_dk")
st.page_link(
    "pages/22_Worksheets.py",
    label="Print such sheets: Worksheets, variant “backward pass”",
    icon=":material/print:",
)

frame.footer(__file__)
