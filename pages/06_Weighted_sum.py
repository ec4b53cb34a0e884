"""Weighted sum: Z = A V, each output row a mix of the value rows."""

import streamlit as st

from attn_core.labs import weighted_sum
from attn_lessons.i18n import _
from attn_ui import controls, frame, step_tables, tables, widgets
from attn_ui.figures import bars, panels
from attn_ui.path import checks, where

text = frame.page(__file__)
controls.sidebar(sentence=False)


@st.fragment
def lesson() -> None:
    """The sentence box and the figures it changes, one fragment: typing a sentence reruns
    only this, not the menu, the sidebar and the lesson text (bench/bench_pages.py)."""
    s, run = where.lesson_start(__file__)
    t, tok = run.trace, run.tokens
    v_cols = tables.features(t.d_v, "v")

    with frame.beside(text, ratio=(2, 1)) as words:
        st.subheader(_("1. Weights times values"))
        c = st.columns([1, 1, 1] if s.columns else [1.2, 0.8, 0.8])  # by hand, V and Z are wide
        with c[0]:
            panels.square(
                t.weights,
                tok,
                s,
                name=_("A (rows sum to 1)"),
                by_hand=_("A (columns sum to 1)"),
                kind="weights",
                key="ws_a",
            )
        with c[1]:
            panels.per_token(
                t.v, tok, v_cols, s, name="V", by_hand=_("V (features × tokens)"), key="ws_v"
            )
        with c[2]:
            panels.per_token(
                t.output, tok, v_cols, s, name="Z = A V", by_hand="Z = V A", key="ws_z"
            )
    with words:
        where.show(__file__, run, s)

    by_hand = s.columns  # token i's output in the by-hand layout is a column
    what = _("Column") if by_hand else _("Row")  # fills the lesson's sentence
    if by_hand:
        st.subheader(_("2. One output column, taken apart"))
    else:
        st.subheader(_("2. One output row, taken apart"))
    label = _("Output column of token") if by_hand else _("Output row of token")
    i = widgets.pick_token(tok, label=label, key="ws_query", default=1)
    parts = weighted_sum.weighted_sum_parts(t.weights[i], t.v)
    total = f"{weighted_sum.row_sums(t.weights[i]):.4f}"
    st.markdown(frame.fill(text["One output row"], what=what, i=i, last=len(tok) - 1, total=total))
    c = st.columns([1.1, 1])
    with c[0]:
        if by_hand:
            title = _("Column {i} of Z: the value rows' shares, stacked").format(i=i)
        else:
            title = _("Row {i} of Z: the value rows' shares, stacked").format(i=i)
        stack = bars.stacked_parts(parts, tok, v_cols, t.output[i], title=title)
        panels.charts([stack], "ws_stack", per_row=1)
    with c[1]:
        panels.per_token(
            parts,
            tok,
            v_cols,
            s,
            name=f"a_{i},j × v_j",
            row_title=_("key j"),
            by_hand=_("shares of column {i} of Z").format(i=i),
            key="ws_parts",
        )
    st.markdown(text["Adding the shares"])
    step_tables.parts_table(parts, t.weights[i], t.output[i], tok, v_cols, key="ws_sum")

    checks.show(__file__, run, s, whole_page=True)


lesson()
frame.footer(__file__)
