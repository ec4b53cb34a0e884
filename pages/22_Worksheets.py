"""Worksheets: seeded by-hand sheets to print (PDF A4/Letter), their keys, XLSX, CSV, class sets."""

import streamlit as st

from attn_lessons.i18n import _
from attn_ui import frame
from attn_ui.by_hand import sheets
from attn_ui.by_hand.grids import exercise, exercise_controls, givens
from attn_ui.reconnect import rerun_on_reconnect

text = frame.page(__file__)
rerun_on_reconnect()  # its files live in this server's memory: see attn_ui/reconnect.py
settings = exercise_controls("sheets", sizes=True)
with frame.stop_on_error():
    ex = exercise(**settings)

with frame.beside(text):  # the sheet's givens, the lesson's words beside them
    st.subheader(_("The sheet"))
    sheets.header(ex)
    givens(ex, "sheets_given", per_row=2)
    st.caption(text["The givens"])
    sheets.rules(ex)

st.subheader(_("Download this sheet"))
paper = sheets.paper()
sheets.downloads(paper, settings)

st.subheader(_("A class set: a different sheet for every student"))
sheets.class_set(paper, settings)

frame.footer(__file__)
