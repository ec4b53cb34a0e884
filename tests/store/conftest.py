"""The store's tests run on both databases: an SQLite file in the test's folder, and a real
PostgreSQL server started for this folder's tests (tests/support/postgres.py)."""

from __future__ import annotations

import itertools

import pytest

from attn_class import open_store
from tests.support.postgres import postgres

_names = itertools.count()


@pytest.fixture(scope="session")
def pg_server():
    with postgres() as server:
        yield server


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """An empty database of the test's own, on each engine."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'classes.sqlite3'}"
    server = request.getfixturevalue("pg_server")
    return server.database(f"t{next(_names)}")


@pytest.fixture
def store(db_url):
    s = open_store(db_url)
    yield s
    s.close()
