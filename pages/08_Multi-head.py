"""Multi-head attention: several heads side by side, concatenated, then mixed by W_O."""

import streamlit as st

from attn_core.labs import weighted_sum
from attn_lessons.i18n import N_, _, ngettext
from attn_ui import controls, frame, step_tables, tables
from attn_ui.figures import panels
from attn_ui.path import checks, where

text = frame.page(__file__)
DEFAULTS = {"weights": "random"}  # toy heads
VIEWS = (N_("Each head"), N_("Mean over heads"))  # the radio's values, shown through _
s = controls.sidebar(heads=True, defaults=DEFAULTS, sentence=False, here=("n_heads",))
if s.weights == "pretrained":
    controls.sentence_box(defaults=DEFAULTS)
    st.warning(
        _(
            "This page builds its heads from the toy weights. Choose **Random** or "
            "**Similarity** weights above the figures."
        )
    )
    st.button(
        _("Use random weights"),
        key="mh_random",
        on_click=controls.update,
        kwargs={"weights": "random"},
    )
    frame.intro(text)  # no figure to stand beside: the lesson's words still come
    st.stop()


@st.fragment
def lesson() -> None:
    """The sentence box and the figures it changes, one fragment: typing a sentence reruns
    only this, not the menu, the sidebar and the lesson text (bench/bench_pages.py)."""
    # no note under the box: the caption below says whose heads
    s, run = where.lesson_start(__file__, multi=True, defaults=DEFAULTS, note=False)
    mh, tok = run.multi, run.tokens
    n_heads, d_v, d_model = mh.n_heads, mh.heads[0].d_v, mh.x.shape[1]
    if s.temperature != 1.0:
        st.info(text["One temperature for every head"])

    with frame.beside(text) as words:  # a narrow column draws one head to a line
        # English says "heads" even of one: both forms the same, as before
        heads = ngettext(
            "1. {n} heads, each with its own W_Q, W_K, W_V",
            "1. {n} heads, each with its own W_Q, W_K, W_V",
            n_heads,
        )
        st.subheader(heads.format(n=n_heads))
        view = st.radio(
            _("Show"), list(VIEWS), format_func=lambda v: _(v), horizontal=True, key="mh_view"
        )
        if view == VIEWS[0]:
            panels.heads_grid([h.weights for h in mh.heads], tok, s)
        else:
            mean = weighted_sum.mean_over_heads(mh.weights)
            name = _("mean of the heads' A")
            panels.square(mean, tok, s, name=name, kind="weights", key="mh_mean")
            st.caption(text["The mean over heads"])
        st.caption(_("Each head: d_k = {d_k}, d_v = {d_v}.").format(d_k=mh.heads[0].d_k, d_v=d_v))
    with words:
        where.show(__file__, run, s)
        if s.weights == "random":  # whose heads these are
            st.caption(text["Random heads"])

    st.subheader(_("2. Concatenate the heads, then mix with W_O"))
    # the rule in letters: the check below asks for this sentence's count
    st.markdown(frame.fill(text["Concatenation"], d_v=d_v, d_model=d_model))
    head_cols, f_cols = step_tables.head_features(n_heads, d_v), tables.features(d_model)
    panels.per_token(
        mh.concat,
        tok,
        head_cols,
        s,
        name=f"concat(Z_0 … Z_{n_heads - 1})",
        col_title=_("head · feature"),
        key="mh_concat",
    )
    c = st.columns(2)
    with c[0]:
        panels.per_token(
            mh.w_o, head_cols, f_cols, s, name="W_O", row_title=_("head · feature"), key="mh_wo"
        )
    with c[1]:
        panels.per_token(
            mh.output,
            tok,
            f_cols,
            s,
            name=_("output = concat W_O"),
            by_hand=_("output = W_O concat"),
            key="mh_out",
        )

    checks.show(__file__, run, s, whole_page=True)


lesson()
frame.footer(__file__)
