"""AppTest fixtures shared by the page tests."""

from __future__ import annotations

import pytest

from tests.support.apptest import (
    load,
)


@pytest.fixture(scope="session")
def loaded():
    """`loaded(page)`: the page run once at its default settings, the same AppTest for the
    whole session. Only for tests that read it: opening a table or choosing one in a
    "Matrix" box (what `table` does) is fine; moving any other control is not."""
    pages = {}

    def get(page: str):
        if page not in pages:
            pages[page] = load(page, timeout=120)  # a loaded CI machine: the model page is slow
        return pages[page]

    return get
