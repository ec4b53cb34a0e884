"""Decoder: grouped-query attention in SmolLM2, its three groups, one group's heads on the
learner's sentence, and the KV cache of MHA, GQA and MQA as the context grows."""

import numpy as np
import streamlit as st

from attn_core.labs import grouped_query as gq
from attn_lessons.i18n import _
from attn_ui import decoder_views, formats, frame, widgets
from attn_ui.compute import decoder
from attn_ui.figures import decoder_charts, panels
from attn_ui.figures.matrix import matrix

CONTEXTS = (128, 256, 512, 1024, 2048, 4096, 8192)

text = frame.page(__file__)
decoder_views.language_note()  # SmolLM2's Spanish and Chinese are weak: said
run = decoder_views.prompt_run()
config = decoder.smollm().config
n_heads, n_kv = config["n_heads"], config["n_kv_heads"]
group = gq.group_size(n_heads, n_kv)

reads = np.zeros((n_heads, n_kv))
reads[np.arange(n_heads), [gq.kv_head_of(h, group) for h in range(n_heads)]] = 1
with frame.beside(text):
    st.subheader(
        _("1. The grouping: {n} query heads, {n_kv} K/V heads").format(n=n_heads, n_kv=n_kv)
    )
    matrix(
        reads,
        [_("query head {h}").format(h=h) for h in range(n_heads)],
        [_("K/V head {g}").format(g=g) for g in range(n_kv)],
        name=_("Which K/V head each query head reads"),
        kind="weights",
        row_title=_("query head"),
        col_title=_("K/V head"),
        key="gqa_reads",
    )
    st.markdown(text["The grouping"])
    for g, col in enumerate(st.columns(n_kv)):
        with col.container(border=True):
            st.markdown(
                _("**K/V head {g}**: one K and one V, 64 numbers each per token").format(g=g)
            )
            st.markdown(
                "\n".join(
                    "- " + _("query head {h} reads it").format(h=h)
                    for h in gq.query_heads_of(g, group)
                )
            )

st.subheader(_("2. One group on your sentence"))
st.markdown(text["One group on your sentence"])
c = st.columns(2)
layer = c[0].slider(_("Layer"), 0, config["n_layers"] - 1, **widgets.remembered("gqa", "layer", 0))
g = c[1].radio(
    _("Group (K/V head)"),
    range(n_kv),
    horizontal=True,
    format_func=lambda i: _("K/V head {i}: query heads {heads}").format(
        i=i, heads=gq.query_heads_of(i, group)
    ),
    **widgets.remembered("gqa", "group", 0),
)
heads = gq.query_heads_of(g, group)
weights = run.attentions[layer, heads]  # (group, T, T)
tokens = [formats.token(t) for t in run.tokens]
st.caption(_(formats.TOKEN_NOTE))
for h, col in zip(heads, st.columns(group), strict=True):
    with col:
        matrix(
            run.attentions[layer, h],
            tokens,
            tokens,
            name=_("L{layer} query head {h} (K/V {g}): A").format(layer=layer, h=h, g=g),
            kind="weights",
            narrow=True,
            key=f"gqa_head{h - heads[0]}",
        )
recomputed = gq.group_attention(run.queries[layer, heads], run.keys[layer, g], run.values[layer, g])
gap = float(np.abs(recomputed.weights - weights).max())
st.markdown(frame.fill(text["Recomputed from the shared K"], gap=f"{gap:.1e}"))
left, right = st.columns(2)
with left:
    st.markdown(text["How different"])
    st.dataframe(
        decoder_views.gaps_table(gq.pattern_gaps(weights), heads).style.format(precision=3),
        key="gqa_gaps",
    )
with right:
    matrix(
        run.keys[layer, g],
        tokens,
        [f"f{j}" for j in range(config["head_dim"])],
        name=_("L{layer} K of K/V head {g}, after RoPE: shared by heads {heads}").format(
            layer=layer, g=g, heads=heads
        ),
        row_title=_("key token"),
        col_title=_("feature"),
        key="gqa_k",
    )

st.subheader(_("3. The cache: MHA, GQA, MQA"))
st.markdown(text["The cache"])
context = st.select_slider(
    _("Context length (tokens)"),
    CONTEXTS,
    **widgets.remembered("gqa", "context", CONTEXTS[-1]),
)
st.dataframe(
    decoder_views.cache_table(config, run.n_tokens, context),
    hide_index=True,
    key="gqa_cache",
)
st.caption(_(formats.SIZE_NOTE))
t = np.arange(0, CONTEXTS[-1] + 1, 64)
growth = gq.cache_growth(
    config["n_layers"], n_heads, n_kv, config["head_dim"], t
)  # name -> bytes at each T
panels.chart(decoder_charts.cache_growth(t, growth, context), "gqa_growth")

frame.footer(__file__)
