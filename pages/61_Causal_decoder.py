"""Decoder: the causal mask on every head of SmolLM2, head types read from the numbers, and
MiniLM's bidirectional heads on the same words."""

import streamlit as st

from attn_core.labs import decoder_heads as dh
from attn_lessons.i18n import N_, _, ngettext
from attn_ui import decoder_views, formats, frame, notices, widgets
from attn_ui.compute import explorer
from attn_ui.figures.matrix import matrix

PICKS = {
    "previous": N_("Strongest previous-token head"),
    "first": N_("Strongest first-token head"),
    "choose": N_("Choose a head"),
}
GALLERY = 4  # heads of each type in the gallery

text = frame.page(__file__)
decoder_views.language_note()  # SmolLM2's Spanish and Chinese are weak: said
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
    st.subheader(_("1. Side by side: a decoder head and an encoder head"))
    options = list(PICKS) if scores is not None else ["choose"]
    pick = st.radio(
        _("Heads to show"),
        options,
        format_func=lambda v: _(PICKS[v]),
        horizontal=True,
        **widgets.remembered("causal", "pick", options[0], options=options),
    )
    if pick == "choose":
        c = st.columns(4)
        layer = c[0].selectbox(
            _("SmolLM2 layer"), range(smol.shape[0]), **widgets.remembered("causal", "layer", 1)
        )
        head = c[1].selectbox(
            _("SmolLM2 head"), range(smol.shape[1]), **widgets.remembered("causal", "head", 2)
        )
        m_layer = c[2].selectbox(
            _("MiniLM layer"), range(mini.shape[0]), **widgets.remembered("causal", "m_layer", 0)
        )
        m_head = c[3].selectbox(
            _("MiniLM head"), range(mini.shape[1]), **widgets.remembered("causal", "m_head", 0)
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
            name=_("SmolLM2 layer {layer}, head {head}: A").format(layer=layer, head=head),
            kind="weights",
            key="causal_smol",
        )
        future = dh.future_weight(smol[layer, head])
        st.caption(
            _("Weight on later tokens, mean over rows: {future} (the causal mask).").format(
                future=f"{future:g}"
            )
        )
    with c[1]:
        matrix(
            mini[m_layer, m_head],
            enc.tokens,
            enc.tokens,
            name=_("MiniLM layer {layer}, head {head}: A").format(layer=m_layer, head=m_head),
            kind="weights",
            key="causal_mini",
        )
        future = dh.future_weight(mini[m_layer, m_head])
        st.caption(
            _(
                "Weight on later tokens, mean over rows: {future}. Previous-token score "
                "{previous}, first-token ([CLS]) score {first}."
            ).format(
                future=f"{future:.3f}",
                previous=f"{mini_prev[m_layer, m_head]:.2f}",
                first=f"{mini_first[m_layer, m_head]:.2f}",
            )
        )
    st.markdown(text["Side by side"])
    if pick != "choose":
        st.caption(frame.fill(text["The MiniLM head shown"], layer=m_layer, head=m_head))

st.subheader(_("2. Two tokenizers"))
st.markdown(text["Two tokenizers"])
st.caption(
    _(
        "SmolLM2 reads {smol} tokens; MiniLM reads {mini} ([CLS], {pieces} word pieces, "
        "[SEP]). {note}"
    ).format(
        smol=run.n_tokens,
        mini=enc.n_tokens,
        pieces=enc.n_tokens - 2,
        note=_(formats.TOKEN_NOTE),
    )
)
with st.expander(_("The tokens of each model"), key="causal_tokens_box"):
    st.dataframe(
        decoder_views.tokens_table(run.tokens, enc.tokens), hide_index=True, key="causal_tokens"
    )

st.subheader(_("3. Above the diagonal: exactly 0 in every SmolLM2 head"))
st.markdown(text["Above the diagonal"])
above_smol, above_mini = decoder_views.above_diagonal(smol), decoder_views.above_diagonal(mini)
ABOVE = _(
    "{nonzero} of its {weights} weights above the diagonal are not 0. Mean weight a row gives "
    "to later tokens: {future}."
)
c = st.columns(2)
if above_smol.weights:
    c[0].metric(
        ngettext(
            "SmolLM2, {n} head: largest weight above the diagonal",
            "SmolLM2, {n} heads: largest weight above the diagonal",
            above_smol.n_heads,
        ).format(n=above_smol.n_heads),
        f"{above_smol.largest:g}",
    )
    c[0].caption(
        ABOVE.format(
            nonzero=above_smol.nonzero,
            weights=f"{above_smol.weights:,}",
            future=f"{above_smol.future:g}",
        )
    )
else:
    c[0].caption(_("One SmolLM2 token: its matrix has no cell above the diagonal."))
c[1].metric(
    ngettext(
        "MiniLM, {n} head: largest weight above the diagonal",
        "MiniLM, {n} heads: largest weight above the diagonal",
        above_mini.n_heads,
    ).format(n=above_mini.n_heads),
    f"{above_mini.largest:.3f}",
)
c[1].caption(
    ABOVE.format(
        nonzero=above_mini.nonzero,
        weights=f"{above_mini.weights:,}",
        future=f"{above_mini.future:.3f}",
    )
)

st.subheader(_("4. Head types, read from the numbers"))
st.markdown(text["Head types"])
if scores is None:
    with frame.stop_on_error(_("Head types"), section=True):
        dh.previous_token_scores(smol)  # too few tokens: the core's sentence says why
else:
    previous, first = scores
    threshold = st.slider(
        _("Threshold: a head gets a type when its score reaches"),
        0.3,
        0.9,
        step=0.05,
        **widgets.remembered("causal", "threshold", 0.5),
    )
    labels = dh.label_heads(previous, first, threshold)
    counts = decoder_views.type_counts(labels)
    st.markdown(
        _(
            "**{previous}** previous-token heads, **{first}** first-token heads, **{other}** "
            "others, of {n}."
        ).format(
            previous=counts[dh.PREVIOUS],
            first=counts[dh.FIRST],
            other=counts[dh.OTHER],
            n=above_smol.n_heads,
        )
    )
    layers = [f"L{i}" for i in range(smol.shape[0])]
    heads = [f"H{h}" for h in range(smol.shape[1])]
    common = {"kind": "weights", "row_title": _("layer"), "col_title": _("head"), "narrow": True}
    c = st.columns(2)
    with c[0]:
        name = _("Previous-token score")
        matrix(previous, layers, heads, name=name, key="causal_prev", **common)
    with c[1]:
        name = _("First-token score")
        matrix(first, layers, heads, name=name, key="causal_first", **common)
    table = decoder_views.head_types_table(previous, first, labels)
    st.dataframe(table.style.format(precision=3), hide_index=True, key="causal_types", height=300)

    st.subheader(_("5. The gallery"))
    st.markdown(text["The gallery"])
    decoder_views.gallery(smol, tok, previous, first, GALLERY)

frame.footer(__file__)
