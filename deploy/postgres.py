"""A PostgreSQL server of the project's own, from Debian's binaries: `make class` keeps the
classes' data in one (data/postgres/, on a loopback port), and the tests start theirs in a
temporary folder.

    server = Postgres(folder, port)
    server.start()                      # initdb the first time, then pg_ctl start
    url = server.database("attention_lab")   # created if missing; its SQLAlchemy URL
    server.stop()

PostgreSQL refuses to run as root: as root, the server runs as the `postgres` user that the
Debian package creates, and the folder is handed to that user. Only the loopback is
listened on and trusted (no password), so nothing outside the machine reaches it.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
from pathlib import Path

USER = "attn"  # the server's superuser


def bindir() -> Path:
    """Debian's PostgreSQL binaries (the newest version installed)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if not found:
        raise RuntimeError("PostgreSQL is not installed: run 'sudo apt-get install -y postgresql'")
    return Path(found[-1]).parent


def _as_owner(cmd: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


class Postgres:
    def __init__(self, folder: Path, port: int, *, durable: bool = True) -> None:
        """`folder` holds the data (data/) and the log; `durable=False` (tests) turns fsync
        off: faster, and only a crash of the machine (not of the server) may lose the last
        transactions. Commits stay synchronous, so a server killed (`stop("immediate")`)
        keeps every transaction it confirmed."""
        self.folder, self.port, self.durable = Path(folder), port, durable
        self.data = self.folder / "data"

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://{USER}@127.0.0.1:{self.port}/{database}"

    def _run(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            _as_owner([str(bindir() / args[0]), *args[1:]]),
            check=True,
            capture_output=True,
            timeout=120,
        )

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
        if not (self.data / "PG_VERSION").exists():
            self._run(
                "initdb",
                "-D",
                str(self.data),
                "-U",
                USER,
                "--auth=trust",
                "-E",
                "UTF8",
                "--locale=C",
                *([] if self.durable else ["--no-sync"]),
            )
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1"
        options += " -c max_connections=200"
        if not self.durable:
            options += " -c fsync=off -c full_page_writes=off"
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
            "60",
            "start",
        )

    def stop(self, mode: str = "fast") -> None:
        """`fast`: sessions ended, data written; `immediate`: as a crash (tests)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def running(self) -> bool:
        return (
            subprocess.run(
                _as_owner([str(bindir() / "pg_ctl"), "-D", str(self.data), "status"]),
                capture_output=True,
            ).returncode
            == 0
        )

    def pid(self) -> int | None:
        """The server's process (its postmaster.pid), None when it is not running."""
        try:
            return int((self.data / "postmaster.pid").read_text().split()[0])
        except (FileNotFoundError, IndexError, ValueError):
            return None

    def database(self, name: str) -> str:
        """The database `name` (created if missing); its URL."""
        import psycopg
        from psycopg import sql

        with psycopg.connect(
            host="127.0.0.1", port=self.port, user=USER, dbname="postgres", autocommit=True
        ) as conn:
            if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        return self.url(name)
