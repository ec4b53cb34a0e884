"""AppTest fixtures shared by the page tests."""

from __future__ import annotations

import pytest

from tests.support.apptest import load


@pytest.fixture(scope="session")
def loaded():
    """`loaded(page, query)`: the page run once at its default settings (or a link's
    `query`, e.g. RANDOM), the same AppTest for the whole session. Only for tests that read
    it: opening a table or choosing one in a "Matrix" box (what `table` does) is fine;
    moving any other control is not."""
    pages = {}

    def get(page: str, query: dict | None = None):
        key = (page, tuple(sorted((query or {}).items())))
        if key not in pages:
            # a loaded CI machine: the model page is slow
            pages[key] = load(page, timeout=120, query=query)
        return pages[key]

    return get
