"""`make class`: N app processes behind HAProxy on one machine, as deploy/k8s runs a cluster.

    python deploy/class_run.py --replicas 2 --port 8501

starts N replicas (``python serve.py app.py``, as ``make run`` does, each on a free loopback
port, all with one cookie secret, the models loaded before they listen) and HAProxy in front
on the given port, with a sticky cookie, health checks and websocket timeouts from
deploy/haproxy.cfg, and a PostgreSQL server for the classes' data that every replica uses
(data/postgres/, on a loopback port; `DATABASE_URL` names another database instead), so a
learner moved to another replica keeps their class and answers. A replica that exits is
started again (as Kubernetes restarts a pod); its learners are sent to the live replicas
meanwhile. Ctrl+C (or SIGTERM) stops all of it, PostgreSQL last.

The tests and bench/bench_load.py drive the same `Classroom` from Python: kill a replica,
restart one in place (a rolling update), read which replica a cookie names.
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import signal
import socket
import string
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script: the app's packages (attn_class) and deploy/

from deploy.postgres import Postgres  # noqa: E402

TEMPLATE = ROOT / "deploy" / "haproxy.cfg"
COOKIE = "attn_replica"  # HAProxy's cookie: the name of the replica that holds the session


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
            return r.status == 200
    except OSError:
        return False


@dataclass
class Replica:
    name: str  # r1, r2, ...: the server's name in HAProxy and the value of its cookie
    port: int
    log: Path
    proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        return self.proc.pid


@dataclass
class Classroom:
    """N replicas and HAProxy. Use as a context manager, or start() / stop()."""

    replicas: int = 2
    port: int = 8501
    bind: str = "*"  # HAProxy's address: every interface, so a class can reach it
    log_dir: Path | None = None
    cookie_secret: str = ""
    haproxy: str = "haproxy"
    # the classes' database: "postgres" starts a PostgreSQL of its own (in `postgres_dir`,
    # default a temporary folder, then fsync off: for tests), "sqlite" leaves each
    # replica its SQLite file (ATTN_DATA_DIR: shared on one machine), else a URL
    database: str = "postgres"
    postgres_dir: Path | None = None
    servers: list[Replica] = field(default_factory=list)
    proxy: subprocess.Popen | None = None
    postgres: Postgres | None = None
    database_url: str = ""  # what the replicas get as DATABASE_URL ("" for "sqlite")

    def __post_init__(self) -> None:
        if self.log_dir is None:
            self.log_dir = Path(tempfile.mkdtemp(prefix="attn-class-"))
        self.log_dir.mkdir(parents=True, exist_ok=True)
        # one secret for every replica, as the Kubernetes Secret gives every pod one
        self.cookie_secret = (
            self.cookie_secret
            or os.environ.get("STREAMLIT_SERVER_COOKIE_SECRET", "")
            or secrets.token_hex(32)
        )
        self.servers = [
            Replica(f"r{i + 1}", free_port(), self.log_dir / f"r{i + 1}.log")
            for i in range(self.replicas)
        ]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    # --- replicas ------------------------------------------------------------------------

    def _spawn(self, r: Replica) -> None:
        cmd = [
            sys.executable,
            str(ROOT / "serve.py"),
            "app.py",
            "--server.port",
            str(r.port),
            "--server.address",
            "127.0.0.1",
            "--server.headless",
            "true",
            "--server.fileWatcherType",
            "none",  # a deployed server does not reload code
        ]
        env = {
            **os.environ,
            "STREAMLIT_SERVER_COOKIE_SECRET": self.cookie_secret,
            # health answers once the models are loaded (serve.py); "0" starts them cold
            "ATTN_WARM_MODELS": os.environ.get("ATTN_WARM_MODELS", "1"),
        }
        if self.database_url:
            env["DATABASE_URL"] = self.database_url
        with open(r.log, "ab") as log:
            r.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)

    def _wait_healthy(self, r: Replica, limit_s: float = 180) -> None:
        deadline = time.monotonic() + limit_s
        while time.monotonic() < deadline:
            if healthy(r.url):
                return
            if r.proc.poll() is not None:
                raise RuntimeError(
                    f"replica {r.name} exited with code {r.proc.returncode}: {r.log}"
                )
            time.sleep(0.2)
        raise RuntimeError(f"replica {r.name} not healthy after {limit_s} s: {r.log}")

    def kill(self, i: int) -> None:
        """SIGKILL replica `i` (an OOM kill, a lost node): no goodbye to its learners."""
        r = self.servers[i]
        r.proc.kill()
        r.proc.wait(timeout=20)

    def restart(self, i: int) -> None:
        """Stop replica `i` gracefully and start a new one on its port (a rolling update's
        step); returns once the new one is healthy."""
        r = self.servers[i]
        _stop(r.proc)
        self._spawn(r)
        self._wait_healthy(r)

    def revive(self, i: int) -> None:
        """Start replica `i` again after it died, and wait until it is healthy."""
        self._spawn(self.servers[i])
        self._wait_healthy(self.servers[i])

    def replica_of(self, cookie_value: str) -> int:
        """The index of the replica HAProxy's cookie value names."""
        return [r.name for r in self.servers].index(cookie_value)

    # --- HAProxy -------------------------------------------------------------------------

    def config(self) -> str:
        lines = [f"    server {r.name} 127.0.0.1:{r.port} cookie {r.name}" for r in self.servers]
        return string.Template(TEMPLATE.read_text()).substitute(
            bind=self.bind, port=self.port, cookie=COOKIE, servers="\n".join(lines)
        )

    def _start_proxy(self) -> None:
        exe = shutil.which(self.haproxy) or shutil.which(self.haproxy, path="/usr/sbin:/sbin")
        if exe is None:
            raise RuntimeError("HAProxy is not installed: run 'sudo apt-get install -y haproxy'")
        cfg = self.log_dir / "haproxy.cfg"
        cfg.write_text(self.config())
        subprocess.run([exe, "-c", "-q", "-f", str(cfg)], check=True)  # a config error, loudly
        with open(self.log_dir / "haproxy.log", "ab") as log:
            self.proxy = subprocess.Popen(
                [exe, "-db", "-f", str(cfg)], stdout=log, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + 20
        while not healthy(self.url):
            if self.proxy.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"HAProxy did not start: {self.log_dir / 'haproxy.log'}")
            time.sleep(0.1)

    # --- all of it -----------------------------------------------------------------------

    def _start_database(self) -> None:
        """The database every replica uses, migrated to the current schema before any starts."""
        from attn_class import open_store

        if self.database == "sqlite":
            return
        if self.database == "postgres":
            durable = self.postgres_dir is not None
            # a folder of its own in /tmp: as root, the server's user must reach it (not a
            # test's tmp_path, which only root may enter)
            folder = self.postgres_dir or Path(tempfile.mkdtemp(prefix="attn-class-pg-"))
            self.postgres = Postgres(folder, free_port(), durable=durable)
            if self.postgres.running():  # left running by a class that did not stop
                self.postgres.stop()
            self.postgres.start()
            self.database_url = self.postgres.database("attention_lab")
        else:
            self.database_url = self.database
        open_store(self.database_url).close()

    def start(self) -> Classroom:
        try:
            self._start_database()
        except BaseException:
            self.stop()
            raise
        for r in self.servers:
            self._spawn(r)
        try:
            for r in self.servers:
                self._wait_healthy(r)
            self._start_proxy()
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        if self.proxy is not None:
            _stop(self.proxy)
        for r in self.servers:
            if r.proc is not None:
                _stop(r.proc)
        if self.postgres is not None:
            if self.postgres.running():
                self.postgres.stop()  # after the replicas: their last answers are in
            if not self.postgres.durable:
                shutil.rmtree(self.postgres.folder, ignore_errors=True)

    def __enter__(self) -> Classroom:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def supervise(self, poll_s: float = 1.0) -> None:
        """Until stopped: start again any replica that exits, and give up if HAProxy does."""
        while True:
            time.sleep(poll_s)
            if self.proxy.poll() is not None:
                raise RuntimeError(f"HAProxy exited with code {self.proxy.returncode}")
            for i, r in enumerate(self.servers):
                if r.proc.poll() is not None:
                    print(f"replica {r.name} exited ({r.proc.returncode}); starting it again")
                    self.revive(i)
                    print(f"replica {r.name} is back on {r.url}", flush=True)


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=20)


def _raise_interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--replicas", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--port", type=int, default=8501, help="HAProxy's port (default 8501)")
    ap.add_argument("--bind", default="*", help="HAProxy's address (default: all interfaces)")
    ap.add_argument("--log-dir", type=Path, help="replica and HAProxy logs (default: a temp dir)")
    a = ap.parse_args(argv)
    # Ctrl+C and `kill` stop it, even where SIGINT came in ignored (a shell's background job)
    signal.signal(signal.SIGINT, _raise_interrupt)
    signal.signal(signal.SIGTERM, _raise_interrupt)
    from attn_class.engine import data_dir

    # the classes' data outlive the class: data/postgres, unless DATABASE_URL names another
    database = os.environ.get("DATABASE_URL") or "postgres"
    room = Classroom(
        a.replicas,
        a.port,
        a.bind,
        a.log_dir,
        database=database,
        postgres_dir=data_dir() / "postgres",
    )
    try:
        print(f"starting {a.replicas} replicas (logs in {room.log_dir})...", flush=True)
        room.start()
        for r in room.servers:
            print(f"  replica {r.name}: pid {r.pid} on {r.url}")
        print(f"Attention Lab for a class: http://localhost:{a.port}  (Ctrl+C stops it)")
        if room.postgres is not None:
            pg = room.postgres
            print(f"  PostgreSQL pid {pg.pid()} on port {pg.port}, data in {pg.folder}", flush=True)
        print(f"  HAProxy pid {room.proxy.pid}, sticky cookie {COOKIE!r}", flush=True)
        room.supervise()
    except KeyboardInterrupt:
        print("stopping the class...", flush=True)
    finally:
        room.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
