"""Helpers for the AppTests of labs 40-43: charts by title, their traces, tables by column."""

from __future__ import annotations

import numpy as np
from stephelp import figures, values
from streamlit.testing.v1 import AppTest


def chart(at: AppTest, title_part: str) -> dict:
    """The Plotly figure (as a dict) whose title contains `title_part`."""
    found = [f for f in figures(at) if title_part in f["layout"].get("title", {}).get("text", "")]
    assert found, f"no chart titled {title_part!r}"
    return found[0]


def series(fig: dict, name: str, axis: str = "y") -> np.ndarray:
    """The `axis` numbers of the trace called `name`."""
    for trace in fig["data"]:
        if trace.get("name") == name:
            return values(trace[axis])
    raise AssertionError(f"no trace {name!r}; have {[t.get('name') for t in fig['data']]}")


def no_html(at: AppTest) -> None:
    """Nothing on the page is Markdown that allows HTML, and no tag typed by the learner shows."""
    for m in [*at.markdown, *at.caption, *at.error, *at.warning]:
        assert not getattr(m.proto, "allow_html", False), m.value
        assert "<b>" not in m.value and "<script>" not in m.value, m.value
