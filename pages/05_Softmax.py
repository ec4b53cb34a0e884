"""Softmax: every row of scaled scores becomes a probability distribution."""

import streamlit as st

from attn_core.labs import softmax_facts, weighted_sum
from attn_lessons.i18n import _
from attn_ui import controls, frame, step_tables, widgets
from attn_ui.figures import bars, panels
from attn_ui.path import checks, where

SWEEP = (0.25, 0.5, 1.0, 2.0, 4.0)

text = frame.page(__file__)
controls.sidebar(sentence=False, here=("temperature",))


@st.fragment
def lesson() -> None:
    """The sentence box and the figures it changes, one fragment: typing a sentence reruns
    only this, not the menu, the sidebar and the lesson text (bench/bench_pages.py)."""
    s, run = where.lesson_start(__file__)
    t, tok, tau = run.trace, run.tokens, run.trace.temperature

    by_hand = s.columns  # the by-hand layout: tokens are columns
    with frame.beside(text, ratio=(2, 1)) as words:
        if by_hand:
            st.subheader(_("1. Column by column: scores in, distributions out"))
        else:
            st.subheader(_("1. Row by row: scores in, distributions out"))
        c = st.columns(2)
        with c[0]:
            panels.square(
                t.masked, tok, s, name="S / √d_k + M", by_hand=_("scaled Kᵀ Q (+ M)"), key="sm_in"
            )
        with c[1]:
            name = _("A = softmax by row, τ = {tau}").format(tau=f"{tau:g}")
            panels.square(
                t.weights,
                tok,
                s,
                name=name,
                by_hand=_("A (columns sum to 1)"),
                key="sm_a",
                kind="weights",
            )
        st.markdown(_("**Every column sums to 1**") if by_hand else _("**Every row sums to 1**"))
        heading = _("column sum of A") if by_hand else _("row sum of A")
        step_tables.sums_table({heading: weighted_sum.row_sums(t.weights)}, tok, key="sm_sums")
    with words:
        where.show(__file__, run, s)

    st.subheader(_("2. One query up close"))
    label = _("Query token (column of A)") if by_hand else _("Query token (row of A)")
    i = widgets.pick_token(tok, label=label, key="sm_query", default=1)
    row = softmax_facts.softmax_steps(t, i)
    title = _("Scores of column {i}, ÷ τ") if by_hand else _("Scores of row {i}, ÷ τ")
    scores = bars.row_bars(row.divided, tok, title=title.format(i=i), y_title="s / τ")
    title = _("Weights of column {i}") if by_hand else _("Weights of row {i}")
    weights = bars.row_bars(
        row.weights, tok, title=title.format(i=i), y_title=_("weight"), y_range=(0, 1.1)
    )
    panels.charts([scores, weights], "sm_bars")
    st.markdown(frame.fill(text["The max trick"], total=f"{row.total:.4f}"))
    step_tables.softmax_table(row, tok, key="sm_steps")

    st.subheader(_("3. Temperature: sharper or flatter"))
    taus = sorted({*SWEEP, tau})
    sweep = softmax_facts.temperature_sweep(t.masked[i], taus)
    if by_hand:
        title = _("Weights of column {i} at several temperatures").format(i=i)
    else:
        title = _("Weights of row {i} at several temperatures").format(i=i)
    panels.sweep_chart(sweep, taus, tau, tok, title=title, s=s, key="sm_sweep")
    st.caption(text["Temperature"])

    checks.show(__file__, run, s, whole_page=True)


lesson()
frame.footer(__file__)
