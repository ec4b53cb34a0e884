"""Lab: attention alone does not see word order; position vectors added to X do."""

from dataclasses import replace

import numpy as np
import streamlit as st

from attn_core.labs import positions
from attn_lessons.i18n import N_, _
from attn_ui import compute, controls, frame, notices
from attn_ui.figures.matrix import matrix

ORDERS = {"reversed": N_("Reversed"), "shuffled": N_("Shuffled (seeded)")}

text = frame.page(__file__)
s = controls.sidebar(mask=False, defaults={"weights": "random"})  # X without positions
toy = "random" if s.weights == "pretrained" else s.weights  # MiniLM's X has positions in it
with frame.stop_on_error():
    run = compute.lesson_run(replace(s, mask="none", weights=toy))  # holds without a mask
if toy != s.weights:
    st.info(text["A real head"])
t, tok = run.trace, run.tokens
notices.warn_tokens(tok)
how = st.radio(
    _("New order"),
    list(ORDERS),
    format_func=lambda v: _(ORDERS[v]),
    horizontal=True,
    key="order_how",
)
n = len(tok)
order = np.arange(n)[::-1] if how == "reversed" else np.random.default_rng(s.seed).permutation(n)
with frame.stop_on_error():
    r = positions.reorder_test(t.x, t.w_q, t.w_k, t.w_v, order)
moved = [tok[i] for i in order]
common = {"columns": s.columns, "show_numbers": s.show_numbers, "kind": "weights"}


def pair(first, second, names: tuple[str, str], key: str) -> None:
    """The weights in the learner's order and in the new one, under `names`."""
    c = st.columns(2)
    with c[0]:
        matrix(first.weights, tok, tok, name=names[0], key=f"{key}_a", **common)
    with c[1]:
        matrix(second.weights, moved, moved, name=names[1], key=f"{key}_b", **common)


with frame.beside(text, ratio=(2, 1)):  # the two heatmaps side by side, the words beside
    st.subheader(_("1. Without positions: the same numbers, moved"))
    st.markdown(text["Without positions"])
    names = (_("A, no positions: your order"), _("A, no positions: new order"))
    pair(r.plain, r.reordered, names, "order_plain")
    st.metric(_("Largest |Z of the new order − Z moved to the new order|"), f"{r.gap:.1e}")

st.subheader(_("2. With positions: the order shows"))
st.markdown(text["With positions"])
pair(
    r.plain_pos, r.reordered_pos, (_("A, x + p: your order"), _("A, x + p: new order")), "order_pos"
)
st.metric(_("Largest |Z of the new order − Z moved to the new order|"), f"{r.gap_pos:.3f}")

st.subheader(_("3. The position vectors p"))
st.markdown(text["The position vectors"])
features = [f"f{j}" for j in range(r.positions.shape[1])]
matrix(
    r.positions,
    [str(i) for i in range(n)],
    features,
    name="P (sin, cos)",
    row_title=_("position"),
    col_title=_("feature"),
    columns=s.columns,
    show_numbers=s.show_numbers,
    key="order_p",
)

frame.footer(__file__)
