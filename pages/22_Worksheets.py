"""Worksheets: seeded by-hand sheets to print (PDF A4/Letter), their keys, XLSX, CSV, class sets."""

import streamlit as st

from attn_ui import layout, sheets_view
from attn_ui.figures import matrix as views
from attn_ui.pencil_view import exercise, exercise_controls, givens, show_error

layout.page(__file__)
settings = exercise_controls("sheets", sizes=True)
with views.stop_on_error(show=show_error):
    ex = exercise(**settings)

st.subheader("The sheet")
sheets_view.preview(ex)
givens(ex, "sheets_given")
st.caption("The template prints these givens and empty boxes for every other grid.")

st.subheader("Download this sheet")
paper = sheets_view.paper()
sheets_view.downloads(paper, settings)

st.subheader("A class set: a different sheet for every student")
sheets_view.class_set(paper, settings)

layout.footer(__file__)
