"""Practice: fill in one step's grid of a seeded exercise, check it, and see the likely mistake."""

import streamlit as st

from attn_lessons.i18n import _
from attn_ui import frame
from attn_ui.by_hand import practice
from attn_ui.by_hand.grids import exercise, exercise_controls, givens

text = frame.page(__file__)
# Practice checks steps 1-7; the tiles variant's extra steps are for the printed sheet.
settings = exercise_controls("practice", variants=("plain", "causal", "two_heads"))
practice.new_sheet_button()
with frame.stop_on_error():
    ex = exercise(**settings)

# the givens, the lesson's words beside them; the grid to fill in gets the page's width
with frame.beside(text):
    st.subheader(_("The givens"))
    if ex.n_heads > 1 and ex.causal:
        about = _(
            "Seed {seed}: {tokens} tokens, {features} features, d_k = {d_k}, two heads (head "
            "1 uses the rows h1 d1 to h1 d{d_k} of each W, head 2 the rows h2 d1 to h2 "
            "d{d_k}); causal: query j sees keys 1..j only"
        )
    elif ex.n_heads > 1:
        about = _(
            "Seed {seed}: {tokens} tokens, {features} features, d_k = {d_k}, two heads (head "
            "1 uses the rows h1 d1 to h1 d{d_k} of each W, head 2 the rows h2 d1 to h2 d{d_k})"
        )
    elif ex.causal:
        about = _(
            "Seed {seed}: {tokens} tokens, {features} features, d_k = {d_k}; causal: query j "
            "sees keys 1..j only"
        )
    else:
        about = _("Seed {seed}: {tokens} tokens, {features} features, d_k = {d_k}")
    st.caption(about.format(seed=ex.seed, tokens=ex.tokens, features=ex.features, d_k=ex.d_k))
    givens(ex, "practice_given", per_row=2)

st.subheader(_("Your turn"))
trace, step = practice.pick(ex)
practice.earlier(trace, step)
key = practice.grid_key(ex, trace, step)
cells = practice.editor(trace, step, key)
checking, revealing = practice.buttons(key)
if checking:
    practice.verdict(trace, step, cells)
if revealing:
    practice.answer(trace, step)

frame.footer(__file__)
