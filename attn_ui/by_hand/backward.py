"""The Gradients page's by-hand section: one backward pass of the classic sheet's convention
(tokens as columns, floor(s / 2), base 3) in exact fractions, one grid per step."""

from __future__ import annotations

import streamlit as st

from attn_core.by_hand.exercises import Exercise
from attn_lessons.i18n import _
from attn_ui.by_hand.grids import dims, show, text_table, tokens


def section(ex: Exercise) -> None:
    """The givens (K, Q, V and dZ), then A, dV, dA, c, dS, dS / 2, dQ and dK, two to a row."""
    h, hg = ex.heads[0], ex.grads
    tk, dh = tokens(ex.tokens), dims(ex.d_k)
    dv_rows = dims(len(ex.d_z))
    givens = (
        (h.k, dh, "K = W_K X", "k"),
        (h.q, dh, "Q = W_Q X", "q"),
        (h.v, dv_rows, "V = W_V X", "v"),
        (ex.d_z, dv_rows, _("dZ (given)"), "dz"),
    )
    for col, (m, r, title, key) in zip(st.columns(4), givens, strict=True):
        with col:
            show(text_table(m, r, tk), title=title, key=f"grads_hand_{key}")
    keys_q = (
        [_("key {token}").format(token=x) for x in tk],
        [_("query {token}").format(token=x) for x in tk],
    )
    steps = (
        (
            (text_table(h.weights, *keys_q), _("A (columns sum to 1)"), "a"),
            (text_table(hg.dv, dv_rows, tk), "dV = dZ Aᵀ", "dv"),
        ),
        (
            (text_table(hg.d_weights, *keys_q), "dA = Vᵀ dZ", "da"),
            (
                text_table(hg.col_dots[None], ["c"], keys_q[1]),
                _("c = column sums of A ⊙ dA"),
                "c",
            ),
        ),
        (
            (text_table(hg.d_scaled, *keys_q), "dS = A ⊙ (dA − c)", "ds"),
            (text_table(hg.d_scores, *keys_q), "dS / 2", "dscores"),
        ),
        (
            (text_table(hg.dq, dh, tk), "dQ = K (dS / 2)", "dq"),
            (text_table(hg.dk, dh, tk), "dK = Q (dS / 2)ᵀ", "dk"),
        ),
    )
    for pair in steps:
        for col, (table, title, key) in zip(st.columns(2), pair, strict=True):
            with col:
                show(table, title=title, key=f"grads_hand_{key}")
