"""A PostgreSQL server of the test's own (deploy/postgres.py): a data folder in a new temporary
folder (never a shared one), a free loopback port, fsync off; stopped and deleted after."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from deploy.postgres import Postgres
from tests.support.server import free_port


@contextmanager
def postgres() -> Iterator[Postgres]:
    folder = Path(tempfile.mkdtemp(prefix="attn-pg-"))
    server = Postgres(folder, free_port(), durable=False)
    try:
        server.start()
        try:
            yield server
        finally:
            server.stop("immediate")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
