"""A PostgreSQL server of the test's own: Debian's binaries, a data folder in a new temporary
folder (never a shared one), a free loopback port, fsync off; stopped and deleted after.

PostgreSQL refuses to run as root: as root the server runs as the `postgres` user the Debian
package creates, and its folder is handed to that user.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.support.server import free_port

USER = "attn"  # the database's superuser, trusted on the loopback only


def bindir() -> Path:
    """Debian's PostgreSQL binaries (the newest version installed)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if not found:
        raise RuntimeError("PostgreSQL is not installed: run 'sudo apt-get install -y postgresql'")
    return Path(found[-1]).parent


def _as_owner(cmd: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


class Postgres:
    """One server: `url` (psycopg, database `postgres`), `new_database()`, `restart()`."""

    def __init__(self, folder: Path, port: int) -> None:
        self.folder, self.port = folder, port
        self.data = folder / "data"

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://{USER}@127.0.0.1:{self.port}/{database}"

    def _run(self, *args: str) -> None:
        subprocess.run(
            _as_owner([str(bindir() / args[0]), *args[1:]]),
            check=True,
            capture_output=True,
            timeout=60,
        )

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-l",
            str(self.folder / "log"),
            "-o",
            options,
            "-w",
            "-t",
            "30",
            "start",
        )

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def restart(self) -> None:
        self.stop()
        self.start()

    def new_database(self, name: str) -> str:
        """An empty database called `name`; its URL."""
        import psycopg

        with psycopg.connect(
            host="127.0.0.1", port=self.port, user=USER, dbname="postgres", autocommit=True
        ) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')  # name: the test's own identifier
        return self.url(name)


@contextmanager
def postgres() -> Iterator[Postgres]:
    folder = Path(tempfile.mkdtemp(prefix="attn-pg-"))
    try:
        if os.geteuid() == 0:
            shutil.chown(folder, "postgres", "postgres")
        server = Postgres(folder, free_port())
        server._run(
            "initdb",
            "-D",
            str(server.data),
            "-U",
            USER,
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
            "--locale=C",
        )
        server.start()
        try:
            yield server
        finally:
            server.stop("immediate")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
