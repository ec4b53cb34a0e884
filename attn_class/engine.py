"""The database behind the store: where it is, and an engine for it.

SQLite (the default, an embedded file: `make run` needs nothing more) runs in WAL mode with
foreign keys on, and every transaction takes the write lock at its start (BEGIN IMMEDIATE),
so that a transaction that reads and then writes never fails halfway because another one
wrote in between; writers wait for each other up to 30 s. PostgreSQL (`DATABASE_URL`, for
replicas) checks a pooled connection before using it, so a restarted server costs no error.
"""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy import Engine, create_engine, event

REPO = Path(__file__).resolve().parent.parent


def data_dir() -> Path:
    """Where the app keeps its data: $ATTN_DATA_DIR, else data/ beside the app."""
    return Path(os.environ.get("ATTN_DATA_DIR") or REPO / "data")


def default_url() -> str:
    """$DATABASE_URL, else an SQLite file in the data folder."""
    return os.environ.get("DATABASE_URL") or f"sqlite:///{data_dir() / 'classes.sqlite3'}"


def make_engine(url: str) -> Engine:
    """An engine for `url`, set up as the module's docstring says (an SQLite file's folder
    is created)."""
    if url.startswith("sqlite"):
        path = url.split(":///", 1)[1] if ":///" in url else ""
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": 30})

        @event.listens_for(engine, "connect")
        def _sqlite_connect(dbapi_connection, _record) -> None:
            # transactions are ours (BEGIN IMMEDIATE below), not the driver's
            dbapi_connection.isolation_level = None
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.close()

        @event.listens_for(engine, "begin")
        def _sqlite_begin(connection) -> None:
            # take the write lock at the start: a transaction that reads and then writes
            # never fails halfway because another one wrote in between
            connection.exec_driver_sql("BEGIN IMMEDIATE")

        return engine
    # a server that does not answer is reported after 5 s, not after the system's TCP timeout
    return create_engine(url, pool_pre_ping=True, connect_args={"connect_timeout": 5})
