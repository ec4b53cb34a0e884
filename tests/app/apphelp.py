"""AppTest helpers: run a page script headless and read its numbers."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]


def load(page: str, timeout: float = 60) -> AppTest:
    """A page run once with default settings; fails the test on any exception."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=timeout)
    at.switch_page(page)  # run through the entry point, as a browser does
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def rerun(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def table(at: AppTest, title_part: str) -> np.ndarray:
    """The numbers of the table inside the expander whose label contains `title_part`, or
    of the matrix whose name contains it in an expander's "Matrix" choice (views.numbers_of).

    The step pages build a table only while its expander is open (views.numbers), so a
    closed one is opened, as a learner's click does, and the page rerun.
    """
    for exp in at.expander:
        if title_part in exp.label:
            if not exp.dataframe:
                open_tables(at)
                return table(at, title_part)
            return exp.dataframe[0].value.to_numpy(dtype=float)
    for exp in at.expander:
        if not exp.proto.id.endswith("_numbers"):
            continue
        if not exp.selectbox:
            open_tables(at)
            return table(at, title_part)
        names = [o for o in exp.selectbox[0].options if title_part in o]
        if names:
            if exp.selectbox[0].value != names[0]:
                exp.selectbox[0].select(names[0])
                rerun(at)
                return table(at, title_part)
            return exp.dataframe[0].value.to_numpy(dtype=float)
    raise AssertionError(f"no table titled {title_part!r}; have {matrices(at)}")


def matrices(at: AppTest) -> list[str]:
    """Every table's title: expander labels, and the names in "Matrix" choices."""
    choices = [o for e in at.expander for box in e.selectbox for o in box.options]
    return [e.label for e in at.expander] + choices


def open_tables(at: AppTest) -> AppTest:
    """Open every closed lazy table expander (views.numbers), as a learner's clicks would."""
    closed = [e for e in at.expander if e.proto.id.endswith("_numbers") and not e.dataframe]
    for exp in closed:
        at.session_state[exp.proto.id.split("-", 2)[2]] = True  # id: "$$ID-<hash>-<key>"
    return rerun(at) if closed else at
