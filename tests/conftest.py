"""One app server for the whole session, shared by the browser tests and the fault tests."""

from __future__ import annotations

import pytest

from tests.support.browser import ROOT
from tests.support.server import serving

LOGS = ROOT / "artifacts" / "logs"


@pytest.fixture(scope="session")
def app_url():
    """`python serve.py app.py` on a free loopback port; its log is kept for a look."""
    LOGS.mkdir(parents=True, exist_ok=True)
    with serving(log_dir=LOGS) as (url, _):
        yield url
