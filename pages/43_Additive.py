"""Lab: Bahdanau's additive score next to the dot product, an alignment matrix, and the cost."""

import streamlit as st

import attn_core
from attn_core import alignment
from attn_ui import bars, labs_a, layout, steps_b, views
from attn_ui import labs_a_charts as charts

SOURCE = "The agreement on the European Economic Area was signed in August 1992."
TARGET = "L'accord sur la zone économique européenne a été signé en août 1992."

layout.page(__file__)
c = st.columns(2)
src = c[0].text_input(
    "Source sentence (encoder states h: the keys)", SOURCE, max_chars=300, key="additive_source"
)
tgt = c[1].text_input(
    "Target sentence (decoder states s: the queries)", TARGET, max_chars=300, key="additive_target"
)
c = st.columns(3)
d = c[0].select_slider("d: features per token", (2, 4, 8, 16, 32, 64), 16, key="additive_d")
d_a = c[1].select_slider(
    "d_a: hidden units of the scoring net", (1, 2, 4, 8, 16, 32, 64), 16, key="additive_d_a"
)
seed = int(c[2].number_input("seed for W₁, W₂, v_a", 0, 10_000, 0, step=1, key="additive_seed"))
h_tok, h = labs_a.embedded_or_stop("Source sentence", src, d)
s_tok, s = labs_a.embedded_or_stop("Target sentence", tgt, d)
w_1, w_2, v_a = alignment.additive_params(d, d, d_a, seed=seed)
add = alignment.additive_alignment(s, h, w_1, w_2, v_a)
dot = attn_core.attention(s, h, h)  # scaled by 1 / √d; the values are the keys, as in Bahdanau

st.subheader("1. Alignment: each target token's weights over the source tokens")
common = {
    "kind": "weights",
    "row_title": "target (query s)",
    "col_title": "source (key h)",
    "show_numbers": max(len(s_tok), len(h_tok)) <= 12,
}
c = st.columns(2)
with c[0]:
    views.matrix(
        add.weights,
        s_tok,
        h_tok,
        name="additive: softmax of v_aᵀ tanh(W₁s + W₂h)",
        key="additive_align",
        **common,
    )
with c[1]:
    views.matrix(
        dot.weights,
        s_tok,
        h_tok,
        name="dot product: softmax of s·h / √d",
        key="additive_dot",
        **common,
    )

st.subheader("2. One target token up close")
t = steps_b.pick_token(
    s_tok, label="Target token (the decoder's query s_t)", key="additive_pos", default=0
)
c = st.columns(2)
with c[0]:
    fig = charts.grouped_bars(
        h_tok,
        [
            ("additive e_t,i", add.scores[t], charts.HARD),
            ("dot product s·h / √d", dot.scaled[t], charts.SOFT),
        ],
        title="Scores over the source tokens",
        value_title="score",
        name_title="source token",
    )
    views.chart(fig, "additive_scores")
    fig = bars.row_bars(
        add.weights[t],
        h_tok,
        title="Additive weights α_t (a row of section 1)",
        y_title="α",
        y_range=(0, 1.1),
    )
    views.chart(fig.update_xaxes(title="source token"), "additive_weights")
with c[1]:
    views.matrix(
        add.hidden[t],
        h_tok,
        views.features(d_a, "u"),
        key="additive_hidden",
        name="hidden layer tanh(W₁s_t + W₂h_i)",
        row_title="source token",
        col_title="hidden unit",
        show_numbers=d_a <= 8,
    )
    st.caption(
        "Each row is the network's hidden layer for one source token; the score is its "
        "dot product with v_a. Every entry lies between −1 and 1, the range of tanh."
    )

st.subheader("3. What each score costs")
cost = alignment.score_costs(len(s_tok), len(h_tok), d, d_a)
st.dataframe(
    labs_a.cost_table(cost, len(s_tok), len(h_tok), d, d_a), key="additive_cost", width="stretch"
)
st.markdown(labs_a.cost_sentence(cost))

layout.footer(__file__)
