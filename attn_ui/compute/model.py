"""The pretrained model (MiniLM), loaded once per server process and shared."""

from __future__ import annotations

import streamlit as st


@st.cache_resource(show_spinner="Loading the pretrained model (once per server)...")
def minilm():
    """The pretrained model, loaded once per server process and shared; never mutated."""
    from attn_core.pretrained import load_minilm

    return load_minilm()
