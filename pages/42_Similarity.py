"""Lab: dot product against cosine on the learner's tokens, and query/key/value as a search."""

import streamlit as st

from attn_core.labs import similarity, softmax_facts
from attn_ui import controls, frame, lab_tables, notices, widgets
from attn_ui.compute import labs
from attn_ui.figures import bars, panels
from attn_ui.figures import plots as charts
from attn_ui.figures.matrix import matrix

DS = (2, 4, 8, 16, 32, 64, 128, 384)
QUERIES = (
    "kitten videos",
    "how to cook bread",
    "roman empire",
    "stretching exercises",
    "trip to Tokyo",
    "coding tutorial",
)
OWN = "Type my own..."

text = frame.page(__file__)
controls.sentence_input()  # above the figures, not in the sidebar (a drawer on a phone)
d = st.select_slider("d: features per token (both parts)", DS, 64, key="similarity_d")

t = None  # until the sentence embeds
with frame.beside(text, ratio=(2, 1)):  # the two heatmaps side by side, the words beside
    st.subheader("1. Your tokens: dot product against cosine")
    with frame.stop_on_error("Your sentence", section=True):  # section 2 works
        tokens, x = labs.embedded(controls.current().sentence, d)
        notices.warn_tokens(tokens)
        t = similarity.compare(x)
    if t is not None:
        common = {"row_title": "token", "col_title": "token", "show_numbers": len(tokens) <= 12}
        c = st.columns(2)
        with c[0]:
            matrix(
                t.dots, tokens, tokens, name="dot product x_i · x_j", key="similarity_dot", **common
            )
        with c[1]:
            matrix(
                t.cosines,
                tokens,
                tokens,
                name="cosine x_i · x_j / (|x_i| |x_j|)",
                key="similarity_cos",
                **common,
            )
if t is not None:
    c = st.columns([3, 2])
    with c[0]:
        fig = bars.row_bars(
            t.norms,
            tokens,
            title="Length |x_i| of each token vector",
            y_title="|x|",
            x_title="token",
        )
        panels.chart(fig, "similarity_norms")
    with c[1]:
        i = widgets.pick_token(tokens, label="First token", key="similarity_i", default=0)
        j = widgets.pick_token(tokens, label="Second token", key="similarity_j", default=1)
        st.dataframe(
            lab_tables.dot_cos_table(t, tokens, i, j), key="similarity_pair", width="stretch"
        )

st.subheader("2. Query, keys, values: searching a video catalogue")
c = st.columns([2, 1])
query = c[0].selectbox("Search for", [*QUERIES, OWN], key="similarity_pick")
if query == OWN:
    query = c[0].text_input("Your query", "funny animals", max_chars=100, key="similarity_query")
tau = c[1].select_slider(
    "temperature τ", (0.02, 0.05, 0.1, 0.2, 0.5, 1.0), 0.1, key="similarity_tau"
)
with frame.stop_on_error("Your query"):
    q_tokens, q = similarity.text_vector(query, d)
    r = similarity.retrieve(q, labs.catalogue_keys(d), similarity.catalogue_values(), tau)
if "[UNK]" in q_tokens:
    st.warning(
        "Some characters of the query are unknown to the tokenizer ([UNK]); they all "
        "share one vector, so they say little about what you are looking for."
    )
st.dataframe(
    lab_tables.retrieval_table(r), key="similarity_results", hide_index=True, width="stretch"
)
c = st.columns([3, 2])
titles = [v.title for v in similarity.CATALOGUE]
with c[0]:
    fig = charts.retrieval_bars(titles, r.weights, softmax_facts.hardmax(r.scores))
    panels.chart(fig, "similarity_weights")
with c[1]:
    panels.chart(charts.value_bars(similarity.TOPICS, r.soft, r.hard), "similarity_values")

frame.footer(__file__)
