"""4. Scaling: divide the scores by √d_k, and see why."""

import streamlit as st

from attn_core.by_hand.exercises import DIFFICULTIES, SPECS
from attn_core.labs import scaling
from attn_lessons.i18n import N_, _
from attn_ui import controls, frame, step_tables, tables
from attn_ui.by_hand.inputs import EXAMPLE
from attn_ui.figures import panels, scaling_charts
from attn_ui.figures.matrix import matrix
from attn_ui.path import checks, where

# the sheets' difficulty names (attn_core's values), as a learner reads them
LEVELS = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard")}


def on_paper() -> dict[str, str]:
    """The d_k of the by-hand sheets, read from where they are made."""
    classic = len(EXAMPLE["w_q"])  # W_Q of the worked example is d_k x d_model
    by_level = {level: SPECS[level].d_k for level in DIFFICULTIES}
    sheets = ", ".join(
        (_("{lo} ({level})") if lo == hi else _("{lo} to {hi} ({level})")).format(
            lo=lo, hi=hi, level=_(LEVELS.get(level, level))
        )
        for level, (lo, hi) in by_level.items()
    )
    return {"classic": str(classic), "root": f"{classic**0.5:.3f}", "sheets": sheets}


text = frame.page(__file__)
controls.sidebar(mask=False, sentence=False, here=("d_k",))


@st.fragment
def lesson() -> None:
    """The sentence box and the figures it changes, one fragment: typing a sentence reruns
    only this, not the menu, the sidebar and the lesson text (bench/bench_pages.py)."""
    s, run = where.lesson_start(__file__, mask=False)  # masking is step 7

    t, tok = run.trace, run.tokens
    u = scaling.without_scaling(t)
    common = {"columns": s.columns, "show_numbers": s.show_numbers}
    with frame.beside(text, ratio=(2, 1)) as words:
        st.subheader(_("1. Your scores, without and with scaling"))
        st.latex(
            rf"d_k = {t.d_k},\quad \sqrt{{d_k}} = {t.d_k**0.5:.4g},\quad"
            rf"\frac{{1}}{{\sqrt{{d_k}}}} = {t.scale:.4g}"
        )
        c = st.columns(2)
        with c[0]:
            matrix(t.scores, tok, tok, name="S = Q Kᵀ", by_hand_name="Kᵀ Q", key="scl_s", **common)
        with c[1]:
            matrix(
                t.scaled,
                tok,
                tok,
                name="S / √d_k",
                by_hand_name="Kᵀ Q / √d_k",
                key="scl_scaled",
                **common,
            )
        # what the softmax makes of both, in the same column: the words beside are as long
        st.subheader(_("2. What the softmax makes of them"))
        c = st.columns(2)
        with c[0]:
            matrix(
                u.weights,
                tok,
                tok,
                name=_("softmax(S) by row, unscaled"),
                kind="weights",
                by_hand_name=_("softmax by column, unscaled"),
                key="scl_wu",
                **common,
            )
        with c[1]:
            matrix(
                t.weights,
                tok,
                tok,
                name=_("softmax(S / √d_k) by row"),
                kind="weights",
                by_hand_name=_("softmax by column, scaled"),
                key="scl_ws",
                **common,
            )
    with words:
        where.show(__file__, run, s)

    summary = step_tables.summary_table(
        scaling.softmax_summary(u), scaling.softmax_summary(t), len(tok)
    )
    c = st.columns([1, 1.4])
    c[0].dataframe(summary, key="scl_summary", width="stretch")
    c[1].caption(text["Reading the table"])

    st.caption(frame.fill(text["On paper"], **on_paper()))

    st.subheader(_("3. As d_k grows: random queries and keys with unit-variance entries"))
    n_keys = max(len(tok), 2)
    st.caption(frame.fill(text["The curves"], n_keys=n_keys))
    sweep = scaling_charts.curve(n_keys)
    panels.charts(scaling_charts.figures(sweep, t.d_k), "scl_curves")
    label = _("Numbers of these curves (table, CSV download)")
    tables.numbers(label, lambda: scaling_charts.table(sweep), key="scl_curves")

    checks.show(__file__, run, s, whole_page=True)


lesson()
frame.footer(__file__)
