"""Attention Lab: entry point and home page. The lesson pages live in pages/."""

from attn_ui import frame

frame.home()
