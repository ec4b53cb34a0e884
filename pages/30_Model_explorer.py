"""Model explorer: every head of a real pretrained transformer (MiniLM) on the learner's text."""

import streamlit as st

from attn_lessons.i18n import N_, _, ngettext
from attn_ui import controls, frame, notices, tables, widgets
from attn_ui.compute import explorer
from attn_ui.figures import canvas_grid, panels
from attn_ui.figures import explorer_charts as charts
from attn_ui.figures.matrix import matrix

AGGREGATES = {
    "head": N_("One head"),
    "mean": N_("Mean over the layer's heads"),
    "max": N_("Max over the layer's heads"),
}

text = frame.page(__file__)
sentence = controls.text_line(
    _("Your sentence"),
    limit=explorer.MAX_CHARS,
    reads=ngettext(
        "The model reads at most {tokens} token",
        "The model reads at most {tokens} tokens",
        explorer.MAX_TOKENS,
    ).format(tokens=explorer.MAX_TOKENS),
    help=_(
        "Press Enter to apply. Any language. The model reads at most {tokens} tokens here; a "
        "paste over {chars} characters is cut."
    ).format(tokens=explorer.MAX_TOKENS, chars=explorer.MAX_CHARS),
    **widgets.remembered("explorer", "sentence", explorer.DEFAULT_SENTENCE),
)
if not sentence.strip():
    st.info(text["An empty text"])
    st.stop()
with frame.stop_on_error():
    run = explorer.model_run(sentence)

tok, t = run.tokens, run.n_tokens
notices.describe_tokens(run, explorer.dropped_text(run))

n_layers, n_heads = run.attentions.shape[:2]
with frame.beside(text):
    n = n_layers * n_heads
    st.subheader(
        ngettext(
            "1. Model view: all {n} head at once", "1. Model view: all {n} heads at once", n
        ).format(n=n)
    )
    c = st.columns([1, 1, 2])
    layer = c[0].selectbox(
        _("Layer"), range(n_layers), **widgets.remembered("explorer", "layer", 0)
    )
    head = c[1].selectbox(_("Head"), range(n_heads), **widgets.remembered("explorer", "head", 0))
    how = c[2].radio(
        _("Head view shows"),
        list(AGGREGATES),
        horizontal=True,
        format_func=lambda v: _(AGGREGATES[v]),
        **widgets.remembered("explorer", "how", "head"),
    )
    canvas_grid.show([charts.grid(run.attentions, tok, layer, head)], key="explorer_grid")
    st.caption(frame.fill(text["Reading the model view"], t=t, layer=layer, head=head))
    tables.numbers_of(
        _("Numbers of every head (table, CSV download)"),
        {
            _("layer {i}, head {h}").format(i=i, h=h): lambda i=i, h=h: tables.table(
                run.attentions[i, h], tok, tok
            )
            for i in range(n_layers)
            for h in range(n_heads)
        },
        key="explorer_grid",
    )

m = explorer.head_matrix(run.attentions, layer, head, how)
if how == "head":
    name = _("Layer {layer}, head {head}: A").format(layer=layer, head=head)
    view = _("Layer {layer}, head {head}").format(layer=layer, head=head)  # the name, no ": A"
elif how == "mean":
    name = view = _("Layer {layer}, mean over heads").format(layer=layer)
else:
    name = view = _("Layer {layer}, max over heads").format(layer=layer)
st.subheader(_("2. Head view: {view}").format(view=view))
if how == "max":
    st.caption(text["The max over heads"])
left, right = st.columns([3, 2])
with left:
    matrix(m, tok, tok, name=name, kind="weights", key="explorer_head")
with right:
    names = {-1: _("every token"), **dict(enumerate(tables.labels(tok)))}
    query = widgets.pick(_("Lines of"), names, key="explorer_token", default=-1)
    query = None if query < 0 else query
    if charts.line_floor(t, query) > 0.01:
        st.caption(
            ngettext(
                "{t} token: only weights of 0.1 or more get a line. Pick a token for all.",
                "{t} tokens: only weights of 0.1 or more get a line. Pick a token for all.",
                t,
            ).format(t=t)
        )
    # its numbers are the head view's, in the table under the heatmap
    fig = charts.lines_figure(m, tok, query, view)
    panels.chart(fig, "explorer_lines", numbers_box=False)
if st.button(
    _("Open layer {layer}, head {head} in the lessons").format(layer=layer, head=head),
    key="explorer_open",
    type="primary",
    help=_("The step pages then show this head's real numbers (d_k = 32)."),
):
    # as the model computes it: the learner's text (as much as the step pages take),
    # unmasked, at τ = 1
    controls.open_in_lessons(
        weights="pretrained",
        layer=layer,
        head=head,
        sentence=explorer.lesson_cut(run)[0],
        mask="none",
        temperature=1.0,
    )
n_lesson = explorer.lesson_cut(run)[1]
if n_lesson < t - 2:
    st.caption(frame.fill(text["The lessons take a shorter text"], n=n_lesson, pieces=t - 2))

st.subheader(_("3. Worked example: which heads link “it” to “car”?"))
st.markdown(text["Worked example"])
ex = explorer.model_run(explorer.DEFAULT_SENTENCE)
links = explorer.link_table(ex)
st.dataframe(links.style.format(precision=3), hide_index=True, key="explorer_links")
it = ex.tokens.index(explorer.EXAMPLE[0])
wins = ", ".join(f"{k}: {v}" for k, v in explorer.winners(ex, it).items())
heads = ex.attentions.shape[0] * ex.attentions.shape[1]
st.caption(frame.fill(text["Which key wins"], heads=heads, wins=wins))
# by position, the table's first two columns: their headings may be shown translated
best_layer, best_head = int(links.iloc[0, 0]), int(links.iloc[0, 1])
st.button(
    _("Show layer {layer}, head {head} above, on this sentence").format(
        layer=best_layer, head=best_head
    ),
    key="explorer_example",
    on_click=widgets.choose,
    args=("explorer",),
    kwargs={
        "sentence": explorer.DEFAULT_SENTENCE,
        "layer": best_layer,
        "head": best_head,
        "how": "head",
        "token": it,
    },
)

frame.footer(__file__)
