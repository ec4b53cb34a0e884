"""Lab: Bahdanau's additive score next to the dot product, an alignment matrix, and the cost."""

import streamlit as st

import attn_core
from attn_core.labs import additive
from attn_lessons.i18n import _
from attn_ui import frame, lab_tables, tables, widgets
from attn_ui.compute import labs
from attn_ui.figures import bars, panels
from attn_ui.figures import plots as charts
from attn_ui.figures.matrix import matrix

# i18n: not translated: an English sentence and its French translation, the lab's example input
SOURCE = "The agreement on the European Economic Area was signed in August 1992."
TARGET = "L'accord sur la zone économique européenne a été signé en août 1992."

text = frame.page(__file__)
c = st.columns(2)
src = c[0].text_input(
    _("Source sentence (encoder states h: the keys)"),
    SOURCE,
    max_chars=300,
    key="additive_source",
)
tgt = c[1].text_input(
    _("Target sentence (decoder states s: the queries)"),
    TARGET,
    max_chars=300,
    key="additive_target",
)
c = st.columns(3)
d = c[0].select_slider(_("d: features per token"), (2, 4, 8, 16, 32, 64), 16, key="additive_d")
d_a = c[1].select_slider(
    _("d_a: hidden units of the scoring net"), (1, 2, 4, 8, 16, 32, 64), 16, key="additive_d_a"
)
seed = int(c[2].number_input(_("seed for W₁, W₂, v_a"), 0, 10_000, 0, step=1, key="additive_seed"))
with frame.stop_on_error(_("Source sentence")):
    h_tok, h = labs.embedded(src, d)
with frame.stop_on_error(_("Target sentence")):
    s_tok, s = labs.embedded(tgt, d)
w_1, w_2, v_a = additive.additive_params(d, d, d_a, seed=seed)
add = additive.additive_alignment(s, h, w_1, w_2, v_a)
dot = attn_core.attention(s, h, h)  # scaled by 1 / √d; the values are the keys, as in Bahdanau

with frame.beside(text, ratio=(2, 1)):  # the two heatmaps side by side, the words beside
    st.subheader(_("1. Alignment: each target token's weights over the source tokens"))
    common = {
        "kind": "weights",
        "row_title": _("target (query s)"),
        "col_title": _("source (key h)"),
        "show_numbers": max(len(s_tok), len(h_tok)) <= 12,
    }
    c = st.columns(2)
    with c[0]:
        matrix(
            add.weights,
            s_tok,
            h_tok,
            name=_("additive: softmax of v_aᵀ tanh(W₁s + W₂h)"),
            key="additive_align",
            **common,
        )
    with c[1]:
        matrix(
            dot.weights,
            s_tok,
            h_tok,
            name=_("dot product: softmax of s·h / √d"),
            key="additive_dot",
            **common,
        )

st.subheader(_("2. One target token up close"))
t = widgets.pick_token(
    s_tok, label=_("Target token (the decoder's query s_t)"), key="additive_pos", default=0
)
c = st.columns(2)
with c[0]:
    panels.chart(charts.score_bars(h_tok, add.scores[t], dot.scaled[t]), "additive_scores")
    fig = bars.row_bars(
        add.weights[t],
        h_tok,
        title=_("Additive weights α_t (a row of section 1)"),
        y_title="α",
        y_range=(0, 1.1),
        x_title=_("source token"),
    )
    panels.chart(fig, "additive_weights")
with c[1]:
    matrix(
        add.hidden[t],
        h_tok,
        tables.features(d_a, "u"),
        key="additive_hidden",
        name=_("hidden layer tanh(W₁s_t + W₂h_i)"),
        row_title=_("source token"),
        col_title=_("hidden unit"),
        show_numbers=d_a <= 8,
    )
    st.caption(text["The hidden layer"])

st.subheader(_("3. What each score costs"))
cost = additive.score_costs(len(s_tok), len(h_tok), d, d_a)
st.dataframe(
    lab_tables.score_cost_table(cost, len(s_tok), len(h_tok), d, d_a),
    key="additive_cost",
    width="stretch",
)
ratio, counts = f"{cost.additive / cost.dot:.2g}", {"tanh": f"{cost.tanh:,}"}
counts |= {"kept": f"{cost.stored_additive:,}", "scores": f"{cost.stored_dot:,}"}
st.markdown(frame.fill(text["What each score costs"], ratio=ratio, **counts))

frame.footer(__file__)
