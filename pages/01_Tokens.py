"""1. Tokens and embeddings: the sentence becomes T rows of X."""

import streamlit as st

from attn_core.labs import similarity
from attn_core.text import repeated_tokens
from attn_lessons.i18n import _, ngettext
from attn_ui import controls, frame, step_tables, tables
from attn_ui.figures.matrix import matrix
from attn_ui.path import checks, where

text = frame.page(__file__)
controls.sidebar(mask=False, sentence=False)


@st.fragment
def lesson() -> None:
    """The sentence box and the figures it changes, one fragment: typing a sentence reruns
    only this, not the menu, the sidebar and the lesson text (bench/bench_pages.py)."""
    s, run = where.lesson_start(__file__, mask=False)  # no mask before step 7

    tok, x = run.tokens, run.x
    common = {"columns": s.columns, "show_numbers": s.show_numbers}

    with frame.beside(text) as words:
        # the by-hand layout: tokens are columns
        st.subheader(_("1. X: one column per token") if s.columns else _("1. X: one row per token"))
        matrix(
            x,
            tok,
            tables.features(x.shape[1]),
            name="X",
            by_hand_name=_("X (features × tokens)"),
            row_title=_("token"),
            col_title=_("feature"),
            key="tok_x",
            **common,
        )
        real = s.weights == "pretrained"
        st.info(text["Where X comes from with a real head" if real else "Where X comes from here"])
        repeats = repeated_tokens(tok, x)
        if repeats:
            st.markdown(text["Repeated tokens"])
            st.dataframe(step_tables.repeats_table(repeats), key="tok_repeats", hide_index=True)
    with words:
        where.show(__file__, run, s)

    # English says "tokens" even of one: both forms the same, as before
    n = len(tok)
    st.subheader(
        ngettext("2. Your sentence as {n} tokens", "2. Your sentence as {n} tokens", n).format(n=n)
    )
    with st.columns([1, 1.4])[0]:  # three short columns: a table as wide as before
        height = min(36 + 35 * len(tok), 560)  # every token without scrolling, up to 15
        st.dataframe(step_tables.token_table(tok), key="tok_tokens", width="stretch", height=height)

    st.subheader(_("3. Which tokens look alike? Cosine similarity of the rows"))
    matrix(
        similarity.cosine_similarity(x),
        tok,
        tok,
        name="cos(xᵢ, xⱼ)",
        by_hand_name="cos(xᵢ, xⱼ)",
        row_title=_("token"),
        col_title=_("token"),
        key="tok_cos",
        **common,
    )

    checks.show(__file__, run, s, whole_page=True)


lesson()
frame.footer(__file__)
