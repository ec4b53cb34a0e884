"""Teach: create a class and see what it understood (attn_ui.teacher, attn_class)."""

import streamlit as st

from attn_lessons.i18n import _
from attn_ui import frame, teacher

text = frame.page(__file__)
gone = st.session_state.pop("teach_deleted", None)
if gone:
    st.success(frame.fill(text["Deleted"], name=frame.quoted(gone)), icon=":material/delete:")
found = teacher.credentials()
if found:
    teacher.dashboard(text, *found)
else:
    if st.query_params.get("code"):
        st.info(text["No key"], icon=":material/key:")
    st.header(_("Create a class"))  # h2 under the h1 title (axe-core's heading-order)
    teacher.create(text)
    frame.intro(text, frame.WORDS[:2])

teacher.keep()
frame.footer(__file__)
