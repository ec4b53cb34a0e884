"""The store's tests run on both databases: an SQLite file in the test's folder, and a real
PostgreSQL server started for this folder's tests (tests/support/postgres.py)."""

from __future__ import annotations

import itertools

import pytest
from sqlalchemy import text

from attn_class import open_store
from attn_class.schema import Base
from tests.support.postgres import postgres

_names = itertools.count()
TABLES = ", ".join(t.name for t in Base.metadata.sorted_tables)


@pytest.fixture(scope="session")
def pg_server():
    with postgres() as server:
        yield server


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """A new, empty database of the test's own, on each engine (never migrated)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'classes.sqlite3'}"
    server = request.getfixturevalue("pg_server")
    return server.database(f"t{next(_names)}")


@pytest.fixture(scope="session")
def pg_shared(pg_server):
    """One migrated PostgreSQL database for the API tests, emptied before each (creating a
    database per test cost a third of a second each)."""
    return pg_server.database("shared")


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path):
    """A store on an empty database, on each engine."""
    if request.param == "sqlite":
        s = open_store(f"sqlite:///{tmp_path / 'classes.sqlite3'}")
    else:
        s = open_store(request.getfixturevalue("pg_shared"))
        with s.engine.begin() as conn:
            conn.execute(text(f"TRUNCATE {TABLES} RESTART IDENTITY CASCADE"))
    yield s
    s.close()
