"""What the app teaches, apart from how it is drawn: the lesson text and the check-yourself
questions computed from a learner's run. Pure Python and NumPy (no Streamlit), so it can be
tested and reused without a page; the UI (``attn_ui``) imports it, never the other way."""
