"""Decoder: the causal mask on every head of SmolLM2, head types read from the numbers, and
MiniLM's bidirectional heads on the same words."""

import numpy as np
import streamlit as st

from attn_core.labs import decoder_heads as dh
from attn_ui import decoder_views, formats, frame, notices, tables, widgets
from attn_ui.compute import explorer
from attn_ui.figures import canvas_grid, heatmap
from attn_ui.figures.matrix import matrix

PICKS = {
    "previous": "Strongest previous-token head",
    "first": "Strongest first-token head",
    "choose": "Choose a head",
}
GALLERY = 4  # heads of each type in the gallery

text = frame.page(__file__)
run = decoder_views.prompt_run()
with frame.stop_on_error():
    enc = explorer.model_run(run.text)
notices.warn_tokens(enc.tokens)  # MiniLM's [UNK] pieces, if any
smol, mini = run.attentions, enc.attentions  # (30, 9, T, T), (6, 12, T', T')
tok = [formats.token(t) for t in run.tokens]  # SmolLM2's, spaces and line breaks visible

# the head types' scores: section 1 opens on their strongest heads; with fewer than
# dh.MIN_TOKENS tokens there are none, and section 4 says why (in the core's words)
scores = None
if smol.shape[-1] >= dh.MIN_TOKENS:
    scores = previous, first = dh.previous_token_scores(smol), dh.first_token_scores(smol)

mini_prev, mini_first = dh.previous_token_scores(mini), dh.first_token_scores(mini)
with frame.beside(text, ratio=(2, 1)):
    st.subheader("1. Side by side: a decoder head and an encoder head")
    options = list(PICKS) if scores is not None else ["choose"]
    if st.session_state.get("causal_pick") not in options:
        st.session_state["causal_pick"] = options[0]
    pick = st.radio(
        "Heads to show", options, format_func=PICKS.get, horizontal=True, key="causal_pick"
    )
    if pick == "choose":
        c = st.columns(4)
        layer = c[0].selectbox(
            "SmolLM2 layer", range(smol.shape[0]), **widgets.remembered("causal", "layer", 1)
        )
        head = c[1].selectbox(
            "SmolLM2 head", range(smol.shape[1]), **widgets.remembered("causal", "head", 2)
        )
        m_layer = c[2].selectbox(
            "MiniLM layer", range(mini.shape[0]), **widgets.remembered("causal", "m_layer", 0)
        )
        m_head = c[3].selectbox(
            "MiniLM head", range(mini.shape[1]), **widgets.remembered("causal", "m_head", 0)
        )
    else:
        layer, head = dh.top_heads(previous if pick == "previous" else first, 1)[0]
        m_layer, m_head = dh.top_heads(dh.future_weight(mini), 1)[0]  # looks ahead the most
    c = st.columns(2)
    with c[0]:
        matrix(
            smol[layer, head],
            tok,
            tok,
            name=f"SmolLM2 layer {layer}, head {head}: A",
            kind="weights",
            key="causal_smol",
        )
        future = dh.future_weight(smol[layer, head])
        st.caption(f"Weight on later tokens, mean over rows: {future:g} (the causal mask).")
    with c[1]:
        matrix(
            mini[m_layer, m_head],
            enc.tokens,
            enc.tokens,
            name=f"MiniLM layer {m_layer}, head {m_head}: A",
            kind="weights",
            key="causal_mini",
        )
        future = dh.future_weight(mini[m_layer, m_head])
        st.caption(
            f"Weight on later tokens, mean over rows: {future:.3f}. Previous-token score "
            f"{mini_prev[m_layer, m_head]:.2f}, first-token ([CLS]) score "
            f"{mini_first[m_layer, m_head]:.2f}."
        )
    st.markdown(text["Side by side"])
    if pick != "choose":
        st.caption(frame.fill(text["The MiniLM head shown"], layer=m_layer, head=m_head))

st.subheader("2. Two tokenizers")
st.markdown(text["Two tokenizers"])
st.caption(
    f"SmolLM2 reads {run.n_tokens} tokens; MiniLM reads {enc.n_tokens} "
    f"([CLS], {enc.n_tokens - 2} word pieces, [SEP]). {formats.TOKEN_NOTE}"
)
with st.expander("The tokens of each model", key="causal_tokens_box"):
    st.dataframe(
        decoder_views.tokens_table(run.tokens, enc.tokens), hide_index=True, key="causal_tokens"
    )

st.subheader("3. Above the diagonal: exactly 0 in every SmolLM2 head")
st.markdown(text["Above the diagonal"])
upper_smol, upper_mini = dh.upper_triangle(smol), dh.upper_triangle(mini)
n_smol, n_mini = smol.shape[0] * smol.shape[1], mini.shape[0] * mini.shape[1]
c = st.columns(2)
if upper_smol.size:
    c[0].metric(
        f"SmolLM2, {n_smol} heads: largest weight above the diagonal", f"{upper_smol.max():g}"
    )
    c[0].caption(
        f"{np.count_nonzero(upper_smol)} of its {upper_smol.size:,} weights above the diagonal "
        f"are not 0. Mean weight a row gives to later tokens: {dh.future_weight(smol).mean():g}."
    )
else:
    c[0].caption("One SmolLM2 token: its matrix has no cell above the diagonal.")
c[1].metric(f"MiniLM, {n_mini} heads: largest weight above the diagonal", f"{upper_mini.max():.3f}")
c[1].caption(
    f"{np.count_nonzero(upper_mini)} of its {upper_mini.size:,} weights above the diagonal are "
    f"not 0. Mean weight a row gives to later tokens: {dh.future_weight(mini).mean():.3f}."
)

st.subheader("4. Head types, read from the numbers")
st.markdown(text["Head types"])
if scores is None:
    with frame.stop_on_error("Head types", section=True):
        dh.previous_token_scores(smol)  # too few tokens: the core's sentence says why
if scores is not None:
    threshold = st.slider(
        "Threshold: a head gets a type when its score reaches",
        0.3,
        0.9,
        step=0.05,
        **widgets.remembered("causal", "threshold", 0.5),
    )
    labels = dh.label_heads(previous, first, threshold)
    counts = {k: int((labels == k).sum()) for k in (dh.PREVIOUS, dh.FIRST, dh.OTHER)}
    st.markdown(
        f"**{counts[dh.PREVIOUS]}** previous-token heads, **{counts[dh.FIRST]}** first-token "
        f"heads, **{counts[dh.OTHER]}** others, of {n_smol}."
    )
    layers = [f"L{i}" for i in range(smol.shape[0])]
    heads = [f"H{h}" for h in range(smol.shape[1])]
    common = {"kind": "weights", "row_title": "layer", "col_title": "head", "narrow": True}
    c = st.columns(2)
    with c[0]:
        matrix(previous, layers, heads, name="Previous-token score", key="causal_prev", **common)
    with c[1]:
        matrix(first, layers, heads, name="First-token score", key="causal_first", **common)
    table = decoder_views.head_types_table(previous, first, labels)
    st.dataframe(table.style.format(precision=3), hide_index=True, key="causal_types", height=300)

    st.subheader("5. The gallery")
    st.markdown(text["The gallery"])
    best = {
        dh.PREVIOUS: dh.top_heads(previous, GALLERY),
        dh.FIRST: dh.top_heads(first, GALLERY),
    }
    items = [
        heatmap.small(
            smol[i, h],
            tok,
            tok,
            title=f"layer {i}, head {h}: {kind} score {s[i, h]:.2f}",
        )
        for kind, s in ((dh.PREVIOUS, previous), (dh.FIRST, first))
        for i, h in best[kind]
    ]
    st.caption(
        "  ·  ".join(f"{kind}: " + ", ".join(f"L{i} H{h}" for i, h in best[kind]) for kind in best)
    )
    canvas_grid.show(
        [
            canvas_grid.small_multiples(
                items,
                row_labels=["previous", "first"],
                col_labels=[f"#{n + 1}" for n in range(GALLERY)],
                bar=heatmap.colour_bar("weights", "weight"),
                name="decoder_head_types",
            )
        ],
        key="causal_gallery",
    )
    tables.numbers_of(
        "Numbers of the gallery's heads (table, CSV download)",
        {
            f"layer {i}, head {h}": lambda i=i, h=h: tables.table(smol[i, h], tok, tok)
            for kind in best
            for i, h in best[kind]
        },
        key="causal_gallery",
    )

frame.footer(__file__)
