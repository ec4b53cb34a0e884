"""2. Projection: Q = X W_Q, K = X W_K, V = X W_V."""

import streamlit as st

from attn_lessons.i18n import _
from attn_ui import controls, frame, tables
from attn_ui.compute.lessons import real_head, with_d_v
from attn_ui.figures import panels
from attn_ui.figures.matrix import matrix
from attn_ui.path import checks, where

text = frame.page(__file__)
controls.sidebar(mask=False, sentence=False)


@st.fragment
def lesson() -> None:
    """The sentence box and the figures it changes, one fragment: typing a sentence reruns
    only this, not the menu, the sidebar and the lesson text (bench/bench_pages.py)."""
    s, run = where.lesson_start(__file__, mask=False)  # no mask before step 7
    with frame.stop_on_error():
        real = real_head(s.sentence, s.layer, s.head) if s.weights == "pretrained" else None

    t, tok = run.trace, run.tokens
    w = real[0] if real else t  # the real head's trace records W_Q, W_K, W_V
    common = {"columns": s.columns, "show_numbers": s.show_numbers}
    d_cols = tables.features(run.x.shape[1])
    k_cols, v_cols = tables.features(t.d_k, "k"), tables.features(t.d_v, "v")
    feature = {"row_title": _("token"), "col_title": _("feature")}

    shapes = {"X": run.x, "W_Q": w.w_q, "W_K": w.w_k, "W_V": w.w_v, "Q": t.q, "K": t.k, "V": t.v}
    with frame.beside(text) as words:
        st.subheader(_("1. X and the shapes that must fit"))
        matrix(
            run.x,
            tok,
            d_cols,
            name="X",
            by_hand_name=_("X (features × tokens)"),
            key="proj_x",
            **feature,
            **common,
        )
        st.dataframe(tables.shapes_table(shapes), key="proj_shapes", width="content")
    with words:
        where.show(__file__, run, s)

    st.subheader(_("2. The learned weights W_Q, W_K, W_V"))
    weights = {"W_Q": w.w_q, "W_K": w.w_k, "W_V": w.w_v}
    hand = ["W_Q (d_k × d_model)", "W_K (d_k × d_model)", "W_V (d_v × d_model)"]
    panels.in_a_row(
        weights,
        d_cols,
        [k_cols, k_cols, v_cols],
        by_hand=hand,
        key="proj_w",
        row_title=_("input feature"),
        col_title=_("output feature"),
        **common,
    )
    if real:
        st.caption(text["The real head's bias"])

    if s.columns:
        st.subheader(_("3. Q, K and V: one column per token"))
    else:
        st.subheader(_("3. Q, K and V: one row per token"))
    qkv = {"Q = X W_Q": t.q, "K = X W_K": t.k, "V = X W_V": t.v}
    hand = ["Q = W_Q X", "K = W_K X", "V = W_V X"]
    panels.in_a_row(
        qkv, tok, [k_cols, k_cols, v_cols], by_hand=hand, key="proj_qkv", **feature, **common
    )

    st.subheader(_("4. V may have its own width d_v"))
    st.markdown(text["A different d_v"])
    if s.weights == "random":
        d_v = st.select_slider(
            _("d_v (value size)"), [1, 2, 4, 8, 16, 32, 64], value=t.d_v, key="proj_d_v"
        )
        tv = with_d_v(run.x, s, d_v)
        c = st.columns([1, 2])
        c[0].dataframe(tables.shapes_table({"Q": tv.q, "K": tv.k, "V": tv.v, "Z": tv.output}))
        with c[1]:
            matrix(
                tv.v,
                tok,
                tables.features(d_v, "v"),
                name=_("V with d_v = {d_v}").format(d_v=d_v),
                by_hand_name=f"V (d_v = {d_v})",
                key="proj_v_dv",
                **feature,
                **common,
            )
    else:
        st.caption(text["Only random weights change d_v"])

    checks.show(__file__, run, s, whole_page=True)


lesson()
frame.footer(__file__)
