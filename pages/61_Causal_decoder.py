"""Decoder: the causal mask on every head of SmolLM2, head types read from the numbers, and
MiniLM's bidirectional heads on the same words."""

import streamlit as st

from attn_core.labs import decoder_heads as dh
from attn_ui import decoder_views, formats, frame, notices, widgets
from attn_ui.compute import explorer
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
smol, mini = run.attentions, enc.attentions  # (n_layers, n_heads, T, T) of each model
tok = [formats.token(t) for t in run.tokens]  # SmolLM2's, spaces and line breaks visible

# the head types' scores: section 1 opens on their strongest heads; with fewer than
# dh.MIN_TOKENS tokens there are none, and section 4 says why (in the core's words)
scores = decoder_views.head_scores(smol)
mini_prev, mini_first = dh.previous_token_scores(mini), dh.first_token_scores(mini)
with frame.beside(text, ratio=(2, 1)):
    st.subheader("1. Side by side: a decoder head and an encoder head")
    options = list(PICKS) if scores is not None else ["choose"]
    pick = st.radio(
        "Heads to show",
        options,
        format_func=PICKS.get,
        horizontal=True,
        **widgets.remembered("causal", "pick", options[0], options=options),
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
        layer, head = dh.top_heads(scores[0] if pick == "previous" else scores[1], 1)[0]
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
above_smol, above_mini = decoder_views.above_diagonal(smol), decoder_views.above_diagonal(mini)
c = st.columns(2)
if above_smol.weights:
    c[0].metric(
        f"SmolLM2, {above_smol.n_heads} heads: largest weight above the diagonal",
        f"{above_smol.largest:g}",
    )
    c[0].caption(
        f"{above_smol.nonzero} of its {above_smol.weights:,} weights above the diagonal are not "
        f"0. Mean weight a row gives to later tokens: {above_smol.future:g}."
    )
else:
    c[0].caption("One SmolLM2 token: its matrix has no cell above the diagonal.")
c[1].metric(
    f"MiniLM, {above_mini.n_heads} heads: largest weight above the diagonal",
    f"{above_mini.largest:.3f}",
)
c[1].caption(
    f"{above_mini.nonzero} of its {above_mini.weights:,} weights above the diagonal are not 0. "
    f"Mean weight a row gives to later tokens: {above_mini.future:.3f}."
)

st.subheader("4. Head types, read from the numbers")
st.markdown(text["Head types"])
if scores is None:
    with frame.stop_on_error("Head types", section=True):
        dh.previous_token_scores(smol)  # too few tokens: the core's sentence says why
else:
    previous, first = scores
    threshold = st.slider(
        "Threshold: a head gets a type when its score reaches",
        0.3,
        0.9,
        step=0.05,
        **widgets.remembered("causal", "threshold", 0.5),
    )
    labels = dh.label_heads(previous, first, threshold)
    counts = decoder_views.type_counts(labels)
    st.markdown(
        f"**{counts[dh.PREVIOUS]}** previous-token heads, **{counts[dh.FIRST]}** first-token "
        f"heads, **{counts[dh.OTHER]}** others, of {above_smol.n_heads}."
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
    decoder_views.gallery(smol, tok, previous, first, GALLERY)

frame.footer(__file__)
