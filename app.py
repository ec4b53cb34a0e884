"""Attention Lab: entry point and home page. The lesson pages live in pages/."""

from attn_ui import first_screen

first_screen.home()
