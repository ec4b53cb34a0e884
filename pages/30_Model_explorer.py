"""Model explorer: every head of a real pretrained transformer (MiniLM) on the learner's text."""

import streamlit as st

from attn_core import AttentionInputError
from attn_ui import canvas_grid, explorer, layout, views
from attn_ui import explorer_charts as charts

text = layout.page(__file__)
sentence = st.text_area(
    "Your sentence",
    max_chars=explorer.MAX_CHARS,
    height=80,
    help=f"Any language. The model reads at most {explorer.MAX_TOKENS} tokens here.",
    **explorer.remembered("sentence", explorer.DEFAULT_SENTENCE),
)
if not sentence.strip():
    st.info("Type a sentence above: the model needs at least one word.")
    st.stop()
try:
    run = explorer.model_run(sentence)
except AttentionInputError as exc:
    st.warning(str(exc))
    st.stop()

tok, t = run.tokens, run.n_tokens
explorer.describe_tokens(run)

n_layers, n_heads = run.attentions.shape[:2]
st.subheader(f"1. Model view: all {n_layers * n_heads} heads at once")
c = st.columns([1, 1, 2])
layer = c[0].selectbox("Layer", range(n_layers), **explorer.remembered("layer", 0))
head = c[1].selectbox("Head", range(n_heads), **explorer.remembered("head", 0))
how = c[2].radio(
    "Head view shows",
    list(explorer.AGGREGATES),
    horizontal=True,
    format_func=explorer.AGGREGATES.get,
    **explorer.remembered("how", "head"),
)
st.caption(
    f"Each square is one head's {t} × {t} weights (row: query, column: key; darker: more "
    f"weight, the colour scale stretched to show small weights). L is the layer, H the head; "
    f"the framed square is layer {layer}, head {head}."
)
canvas_grid.show([charts.grid(run.attentions, tok, layer, head)], key="explorer_grid")

m = explorer.head_matrix(run.attentions, layer, head, how)
name = f"Layer {layer}, head {head}: A" if how == "head" else f"Layer {layer}, {how} over heads"
st.subheader(f"2. Head view: {name.removesuffix(': A')}")
if how == "max":
    st.caption("The max over heads is not a distribution: its rows sum to more than 1.")
left, right = st.columns([3, 2])
with left:
    views.matrix(m, tok, tok, name=name, kind="weights", key="explorer_head")
with right:
    if st.session_state.get("explorer_token") not in range(-1, t):
        st.session_state["explorer_token"] = -1  # a shorter sentence than before
    names = views.labels(tok)
    query = st.selectbox(
        "Lines of",
        range(-1, t),
        format_func=lambda i: "every token" if i < 0 else names[i],
        key="explorer_token",
    )
    query = None if query < 0 else query
    if charts.line_floor(t, query) > 0.01:
        st.caption(f"{t} tokens: only weights of 0.1 or more get a line. Pick a token for all.")
    views.chart(charts.lines_figure(m, tok, query), "explorer_lines")
if st.button(
    f"Open layer {layer}, head {head} in the lessons",
    key="explorer_open",
    type="primary",
    help="The step pages then show this head's real numbers (d_k = 32).",
):
    explorer.open_in_lessons(run, layer, head)
n_lesson = explorer.lesson_cut(run)[1]
if n_lesson < t - 2:
    st.caption(
        f"The lessons take a shorter text: they will show the first {n_lesson} of your "
        f"{t - 2} word pieces, so their weights differ from these."
    )

st.subheader("3. Worked example: which heads link “it” to “car”?")
st.markdown(text["Worked example"])
explorer.worked_example()

layout.footer(__file__)
