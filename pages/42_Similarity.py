"""Lab: dot product against cosine on the learner's tokens, and query/key/value as a search."""

import streamlit as st

from attn_core.labs import similarity, softmax_facts
from attn_lessons.i18n import N_, _
from attn_ui import controls, frame, lab_tables, notices, widgets
from attn_ui.compute import labs
from attn_ui.figures import bars, panels
from attn_ui.figures import plots as charts
from attn_ui.figures.matrix import matrix

DS = (2, 4, 8, 16, 32, 64, 128, 384)
# i18n: not translated: the searches are inputs to the English tokenizer and catalogue
QUERIES = (
    "kitten videos",
    "how to cook bread",
    "roman empire",
    "stretching exercises",
    "trip to Tokyo",
    "coding tutorial",
)
OWN = N_("Type my own...")  # the choice's value; shown through _

text = frame.page(__file__)
controls.sentence_input()  # above the figures, not in the sidebar (a drawer on a phone)
d = st.select_slider(_("d: features per token (both parts)"), DS, 64, key="similarity_d")

t = None  # until the sentence embeds
with frame.beside(text, ratio=(2, 1)):  # the two heatmaps side by side, the words beside
    st.subheader(_("1. Your tokens: dot product against cosine"))
    with frame.stop_on_error(_("Your sentence"), section=True):  # section 2 works
        tokens, x = labs.embedded(controls.current().sentence, d)
        notices.warn_tokens(tokens)
        t = similarity.compare(x)
    if t is not None:
        common = {
            "row_title": _("token"),
            "col_title": _("token"),
            "show_numbers": len(tokens) <= 12,
        }
        c = st.columns(2)
        with c[0]:
            matrix(
                t.dots,
                tokens,
                tokens,
                name=_("dot product x_i · x_j"),
                key="similarity_dot",
                **common,
            )
        with c[1]:
            matrix(
                t.cosines,
                tokens,
                tokens,
                name=_("cosine x_i · x_j / (|x_i| |x_j|)"),
                key="similarity_cos",
                **common,
            )
if t is not None:
    c = st.columns([3, 2])
    with c[0]:
        fig = bars.row_bars(
            t.norms,
            tokens,
            title=_("Length |x_i| of each token vector"),
            y_title="|x|",
            x_title=_("token"),
        )
        panels.chart(fig, "similarity_norms")
    with c[1]:
        i = widgets.pick_token(tokens, label=_("First token"), key="similarity_i", default=0)
        j = widgets.pick_token(tokens, label=_("Second token"), key="similarity_j", default=1)
        st.dataframe(
            lab_tables.dot_cos_table(t, tokens, i, j), key="similarity_pair", width="stretch"
        )

st.subheader(_("2. Query, keys, values: searching a video catalogue"))
c = st.columns([2, 1])
query = c[0].selectbox(
    _("Search for"),
    [*QUERIES, OWN],
    format_func=lambda q: _(q) if q == OWN else q,
    key="similarity_pick",
)
if query == OWN:
    query = c[0].text_input(_("Your query"), "funny animals", max_chars=100, key="similarity_query")
tau = c[1].select_slider(
    _("temperature τ"), (0.02, 0.05, 0.1, 0.2, 0.5, 1.0), 0.1, key="similarity_tau"
)
with frame.stop_on_error(_("Your query")):
    q_tokens, q = similarity.text_vector(query, d)
    r = similarity.retrieve(q, labs.catalogue_keys(d), similarity.catalogue_values(), tau)
if "[UNK]" in q_tokens:
    st.warning(
        _(
            "Some characters of the query are unknown to the tokenizer ([UNK]); they all "
            "share one vector, so they say little about what you are looking for."
        )
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
