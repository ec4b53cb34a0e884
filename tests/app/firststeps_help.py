"""Helpers for the AppTests of step pages 1-4 (the rest is shared in stephelp and apphelp)."""

from __future__ import annotations

from stephelp import figures
from streamlit.testing.v1 import AppTest

from attn_ui.compute import lesson_run
from attn_ui.controls import LessonSettings


def expected(**changes):
    """The engine's run for the default settings with `changes` (pages 1-4 use no mask)."""
    return lesson_run(LessonSettings(**changes))


def chart(at: AppTest, title_part: str) -> dict:
    """The Plotly figure (as a dict) whose title contains `title_part`."""
    for fig in figures(at):
        if title_part in fig["layout"].get("title", {}).get("text", ""):
            return fig
    raise AssertionError(f"no chart titled {title_part!r}")
