"""Streamlit and Plotly helpers shared by the pages. attn_core never imports this."""
