"""The store's schema migrations (Alembic), run by `open_store` and by hand:

    .venv/bin/python -m attn_class.migrate [URL]              # upgrade to the current schema
    .venv/bin/python -m attn_class.migrate [URL] --revision "add a column"   # a new migration,
                                                  # written from the difference with schema.py

The scripts are in attn_class/migrations/versions/, oldest first. Replicas that start
together against one PostgreSQL server take turns: each upgrade holds an advisory lock (on
SQLite, BEGIN IMMEDIATE does the same), so the second finds the schema current.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, text

SCRIPTS = Path(__file__).with_name("migrations")
LOCK = 0x617474_6E  # "attn": the advisory lock's number on PostgreSQL


def config(connection: Connection | None = None, url: str | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(SCRIPTS))
    if url:
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    cfg.attributes["connection"] = connection
    return cfg


def head() -> str:
    """The newest migration's revision."""
    return ScriptDirectory.from_config(config()).get_current_head()


def current(engine: Engine) -> str | None:
    """The revision the database is at (None: never migrated)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Migrate the database to `revision`, in one transaction, one process at a time."""
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": LOCK})
        command.upgrade(config(conn), revision)


def main() -> None:
    from attn_class.engine import default_url, make_engine

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", nargs="?", help="the database (default: $DATABASE_URL or SQLite)")
    parser.add_argument("--revision", metavar="MESSAGE", help="write a new migration")
    args = parser.parse_args()
    url = args.url or default_url()
    engine = make_engine(url)
    if args.revision:
        with engine.begin() as conn:
            command.revision(config(conn), message=args.revision, autogenerate=True)
        return
    upgrade(engine)
    print(f"{engine.url.render_as_string(hide_password=True)}: at {current(engine)}")


if __name__ == "__main__":
    main()
