"""The Streamlit side of Attention Lab, by role: registry and frame (pages, menu, lesson text,
errors), controls and widgets, compute (cached calls into attn_core), figures, tables, and the
by-hand views. attn_core never imports this."""
