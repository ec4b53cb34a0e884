"""Masking: forbid some query-key pairs before the softmax, and see what the wrong way does."""

import streamlit as st

from attn_core.labs import masking, weighted_sum
from attn_lessons.i18n import _
from attn_ui import controls, frame, step_tables, tables, widgets
from attn_ui.compute.lessons import masked_trace, preset_mask
from attn_ui.figures import panels
from attn_ui.path import checks, where


def right_and_wrong(t, scaled, mask, tok, s, text) -> None:
    """Section 2: the softmax with M added before it (the trace `t`), against zeroing the
    weights after the softmax of the unmasked `scaled` scores."""
    wrong = masking.mask_after_softmax(scaled, mask, s.temperature)
    st.subheader(_("2. Right way against wrong way"))
    c = st.columns(2)
    with c[0]:
        st.markdown(_("**Right:** add M *before* the softmax"))
        panels.square(
            t.weights,
            tok,
            s,
            name="softmax(S/√d_k + M)",
            kind="weights",
            by_hand=_("softmax by column (+ Mᵀ)"),
            key="mask_right",
        )
    with c[1]:
        st.markdown(_("**Wrong:** softmax first, *then* set masked weights to 0"))
        panels.square(
            wrong,
            tok,
            s,
            name=_("softmax(S/√d_k), masked → 0"),
            kind="weights",
            by_hand=_("column softmax, masked → 0"),
            key="mask_wrong",
        )

    what = _("column") if s.columns else _("row")  # fills the lesson's sentence
    c = st.columns([0.8, 1.2])
    with c[0]:
        st.markdown(frame.fill(text["Sum of each row"], what=what))
        sums = {
            _("right way"): weighted_sum.row_sums(t.weights),
            _("wrong way"): weighted_sum.row_sums(wrong),
        }
        step_tables.sums_table(sums, tok, key="mask_sums")
    with c[1]:
        v_cols = tables.features(t.d_v, "v")
        panels.per_token(
            t.output,
            tok,
            v_cols,
            s,
            name="Z = softmax(S/√d_k + M) V",
            by_hand="Z = V A",
            key="mask_z",
        )


text = frame.page(__file__)
DEFAULTS = {"mask": "causal"}  # the page opens on a mask that shows
controls.sidebar(defaults=DEFAULTS, sentence=False, here=("mask",))


@st.fragment
def lesson() -> None:
    """The sentence box and the figures it changes, one fragment: typing a sentence reruns
    only this, not the menu, the sidebar and the lesson text (bench/bench_pages.py)."""
    # q, k, v and the scores without a mask; the page's own mask comes next
    s, base = where.lesson_start(__file__, mask=False, defaults=DEFAULTS)
    tok = base.tokens
    frame.figure_heading()
    st.subheader(_("1. The mask M"))
    with frame.stop_on_error():  # the page's width: a long sentence's grid of ticks is wide
        mask = widgets.custom_mask(preset_mask(s, len(tok)), tok, s, text)
    t = None  # stays None when a row has nothing allowed
    with frame.beside(text, ratio=(2, 1), heading=False) as words:
        c = st.columns(2)
        with c[0]:
            m = masking.additive_mask(mask)
            name = _("M (0 = may attend, −∞ = masked)")
            panels.square(m, tok, s, name=name, by_hand="Mᵀ", key="mask_m", kind="mask")
        # say which row, never NaN; the rest still draws
        with c[1], frame.stop_on_error(section=True):
            t = masked_trace(base.trace, mask, s.temperature)
            panels.square(
                t.masked, tok, s, name="S/√d_k + M", by_hand=_("scaled Kᵀ Q + Mᵀ"), key="mask_s"
            )
    with words:
        where.show(__file__, base, s)
    if t is not None:
        right_and_wrong(t, base.trace.scaled, mask, tok, s, text)

    reason = None if t else "fully masked"
    unmasked = base.trace
    checks.show(__file__, base, s, trace=t, unmasked=unmasked, reason=reason, whole_page=True)


lesson()
frame.footer(__file__)
