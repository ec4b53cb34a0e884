"""Lab: attention alone does not see word order; position vectors added to X do."""

from dataclasses import replace

import numpy as np
import streamlit as st

from attn_core.labs import positions
from attn_ui import compute, controls, frame, notices
from attn_ui.figures.matrix import matrix

ORDERS = {"reversed": "Reversed", "shuffled": "Shuffled (seeded)"}

text = frame.page(__file__)
s = controls.sidebar(mask=False, defaults={"weights": "random"})  # X without positions
toy = "random" if s.weights == "pretrained" else s.weights  # MiniLM's X has positions in it
with frame.stop_on_error():
    run = compute.lesson_run(replace(s, mask="none", weights=toy))  # holds without a mask
if toy != s.weights:
    st.info(text["A real head"])
t, tok = run.trace, run.tokens
notices.warn_tokens(tok)
how = st.radio("New order", list(ORDERS), format_func=ORDERS.get, horizontal=True, key="order_how")
n = len(tok)
order = np.arange(n)[::-1] if how == "reversed" else np.random.default_rng(s.seed).permutation(n)
with frame.stop_on_error():
    r = positions.reorder_test(t.x, t.w_q, t.w_k, t.w_v, order)
moved = [tok[i] for i in order]
common = {"columns": s.columns, "show_numbers": s.show_numbers, "kind": "weights"}


def pair(first, second, label: str, key: str) -> None:
    c = st.columns(2)
    with c[0]:
        matrix(first.weights, tok, tok, name=f"A, {label}: your order", key=f"{key}_a", **common)
    with c[1]:
        matrix(
            second.weights, moved, moved, name=f"A, {label}: new order", key=f"{key}_b", **common
        )


with frame.beside(text, ratio=(2, 1)):  # the two heatmaps side by side, the words beside
    st.subheader("1. Without positions: the same numbers, moved")
    st.markdown(text["Without positions"])
    pair(r.plain, r.reordered, "no positions", "order_plain")
    st.metric("Largest |Z of the new order − Z moved to the new order|", f"{r.gap:.1e}")

st.subheader("2. With positions: the order shows")
st.markdown(text["With positions"])
pair(r.plain_pos, r.reordered_pos, "x + p", "order_pos")
st.metric("Largest |Z of the new order − Z moved to the new order|", f"{r.gap_pos:.3f}")

st.subheader("3. The position vectors p")
st.markdown(text["The position vectors"])
features = [f"f{j}" for j in range(r.positions.shape[1])]
matrix(
    r.positions,
    [str(i) for i in range(n)],
    features,
    name="P (sin, cos)",
    row_title="position",
    col_title="feature",
    columns=s.columns,
    show_numbers=s.show_numbers,
    key="order_p",
)

frame.footer(__file__)
