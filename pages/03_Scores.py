"""3. Scores: S = Q Kᵀ, every query against every key."""

import streamlit as st

from attn_lessons.i18n import _
from attn_ui import controls, frame, step_tables, tables, widgets
from attn_ui.figures.matrix import matrix
from attn_ui.path import checks, where

text = frame.page(__file__)
controls.sidebar(mask=False, sentence=False)


@st.fragment
def lesson() -> None:
    """The sentence box and the figures it changes, one fragment: typing a sentence reruns
    only this, not the menu, the sidebar and the lesson text (bench/bench_pages.py)."""
    s, run = where.lesson_start(__file__, mask=False)  # scores come before any mask

    t, tok = run.trace, run.tokens
    common = {"columns": s.columns, "show_numbers": s.show_numbers}
    k_cols = tables.features(t.d_k, "k")

    with frame.beside(text, ratio=(2, 1)) as words:
        st.subheader(_("1. Q and K transposed: the inner sizes meet"))
        c = st.columns([1.6, 1] if s.columns else [1, 1.6])  # the wide matrix gets the room
        with c[0]:
            matrix(
                t.q,
                tok,
                k_cols,
                name="Q",
                by_hand_name=_("Q (features × tokens)"),
                row_title=_("query token"),
                col_title=_("feature"),
                key="sc_q",
                **common,
            )
        with c[1]:
            matrix(
                t.k.T,
                k_cols,
                tok,
                name="Kᵀ",
                by_hand_name=_("Kᵀ (tokens × features)"),
                row_title=_("feature"),
                col_title=_("key token"),
                key="sc_kt",
                **common,
            )
    with words:
        where.show(__file__, run, s)

    st.subheader(_("2. S = Q Kᵀ: hover over a cell to see its sum of products"))
    c = st.columns([1.5, 1])
    with c[0]:
        matrix(
            t.scores,
            tok,
            tok,
            name="S = Q Kᵀ",
            by_hand_name=_("S by hand = Kᵀ Q"),
            hover=step_tables.dot_hover(t.q, t.k, t.scores),
            key="sc_s",
            **common,
        )
    with c[1]:
        st.markdown(_("**One score, worked out**"))
        i = widgets.pick_token(tok, label=_("query token i"), key="sc_query", default=0)
        j = widgets.pick_token(tok, label=_("key token j"), key="sc_key", default=1)
        st.dataframe(step_tables.dot_table(t.q, t.k, i, j), key="sc_dot", width="stretch")
        # plain text, one line of products per line: st.code would load the browser's syntax
        # highlighter, a fifth of this page's first open (bench/bench_pages.py)
        st.text(f"q{i} · k{j} = " + step_tables.dot_sum(t.q[i], t.k[j], t.scores[i, j]))
        if s.columns:
            cell = _("This is S[{i}, {j}]: row {j}, column {i} of Kᵀ Q.")
        else:
            cell = _("This is S[{i}, {j}]: row {i}, column {j} of S.")
        st.caption(cell.format(i=i, j=j))

    checks.show(__file__, run, s, whole_page=True)


lesson()
frame.footer(__file__)
