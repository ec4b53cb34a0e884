"""The home page: what Attention Lab is and where to start."""

import streamlit as st

from attn_ui import layout


def render() -> None:
    st.set_page_config(page_title="Attention Lab", layout="wide")
    layout.navigation()
    text = layout.lesson("home")
    st.title("Attention Lab")
    st.markdown(text["The idea"])
    for group in layout.GROUPS:
        pages = [p for p in layout.PAGES if p.group == group]
        if not pages:
            continue
        st.subheader(group)
        st.markdown(text.get(group, ""))
        cols = st.columns(3)
        for i, p in enumerate(pages):
            cols[i % 3].page_link(p.path, label=p.title)
