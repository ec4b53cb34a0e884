"""Lab: the block around the head. Residual, layer norm against batch norm, feed-forward."""

import streamlit as st

from attn_core.labs import normalisation
from attn_core.pretrained import bert_layer
from attn_core.text import embed
from attn_lessons.i18n import N_, _
from attn_ui import controls, frame, lab_tables, tables
from attn_ui.compute import labs
from attn_ui.figures import lab_charts as charts
from attn_ui.figures import panels
from attn_ui.figures.matrix import matrix

DEMO_TOKENS, DEMO_FEATURES, EPS = 8, 6, 1e-12  # eps as in BERT: variances read 1.0
# the two normalised matrices' names (keys of `shown`), drawn through _
ROWS, COLUMNS = N_("Layer norm: each row"), N_("Batch norm: each column")

text = frame.page(__file__)
c = st.columns([3, 1])  # above the figures, not in the sidebar (a drawer on a phone)
with c[0]:
    controls.sentence_input()
layer = c[1].slider(_("MiniLM layer"), 0, 5, 0, key="block_layer")
sentence = controls.current().sentence
with frame.stop_on_error():
    tokens, x = embed(sentence, DEMO_FEATURES)
    run = labs.block_run(sentence, layer)

tok, x = tokens[:DEMO_TOKENS], x[:DEMO_TOKENS]
feats = tables.features(DEMO_FEATURES)
shown = {
    "X": x,
    ROWS: normalisation.normalise(x, 1, EPS),
    COLUMNS: normalisation.normalise(x, 0, EPS),
}
with frame.beside(text, ratio=(2, 1)):  # three small heatmaps in a row, the words beside
    st.subheader(_("1. Two ways to normalise the same matrix"))
    if len(tok) == 1:
        st.warning(
            _(
                "One row is a batch of one: every feature equals its own mean, so batch norm "
                "turns every entry into 0. Layer norm works token by token and still works."
            )
        )
    for col, (name, m) in zip(st.columns(3), shown.items(), strict=True):
        with col:
            matrix(
                m,
                tok,
                feats,
                name=_(name),
                row_title=_("token"),
                col_title=_("feature"),
                key=f"block_{name[:5]}",
            )
    st.caption(frame.fill(text["The demo matrix"], n=len(tok), features=DEMO_FEATURES))
    c = st.columns(2)
    c[0].markdown(_("**Layer norm: mean and variance of each row**"))
    c[0].dataframe(
        lab_tables.direction_table(shown[ROWS], 1, tables.labels(tok)),
        key="block_ln_rows",
    )
    c[1].markdown(_("**Batch norm: mean and variance of each column**"))
    c[1].dataframe(
        lab_tables.direction_table(shown[COLUMNS], 0, feats),
        key="block_bn_cols",
    )

st.subheader(_("2. MiniLM layer {layer}, step by step").format(layer=layer))
b = run.trace
std = lab_tables.stage_spread(b, run.tokens, std=True)
c = st.columns([1.5, 1])
with c[0]:
    st.markdown(text["Spread through the layer"])
    panels.chart(charts.stages_figure(std), "block_stages")
with c[1]:
    gap = float(abs(b.out - run.model_out).max())
    st.metric(_("largest |our output − the model's next-layer input|"), f"{gap:.1e}")
    st.caption(text["Our layer against the model's"])
    with st.expander(_("Each token's standard deviation, every stage (table)")):
        st.dataframe(std.round(4), key="block_std")
    with st.expander(_("Each token's mean, every stage (table)")):
        st.dataframe(lab_tables.stage_spread(b, run.tokens, std=False).round(4), key="block_mean")

stage = st.selectbox(
    _("Show a stage"),
    bert_layer.STAGES,
    index=1,
    format_func=lambda v: _(lab_tables.STAGE_NAMES[v]),
    key="block_stage",
)
name = _(lab_tables.STAGE_NAMES[stage])
m = getattr(b, stage)
limit = charts.clip_limit(m)
matrix(
    m,
    run.tokens,
    tables.features(m.shape[1]),
    name=name,
    row_title=_("token"),
    col_title=_("feature"),
    show_numbers=False,
    limit=limit,
    key="block_heat",
)
st.caption(frame.fill(text["The colour scale"], limit=f"{limit:.2f}"))

frame.footer(__file__)
