"""A real app server for tests and benchmarks: started on a free loopback port, waited on until
healthy, stopped after; and the server process's CPU time and memory, read from /proc (psutil
is not needed)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(
    port: int, *extra: str, script: str = "app.py", log_path: Path | None = None
) -> subprocess.Popen:
    """`python serve.py <script>` (``streamlit run`` with TCP_NODELAY) on loopback, as
    `make run` does; the one place the tests and benchmarks start a server. Its log goes to
    `log_path`, or to a private temp file that `stop_server` removes (proc.log_path).

    Never stderr=PIPE without a reader: once the pipe's 64 KiB fill up (the file watcher
    logs "Inotify queue overflowed" while others edit the tree) every thread of the server
    blocks on the logging write and the server stops answering. The file watcher is off:
    a deployed server does not reload code.
    """
    cmd = [
        sys.executable,
        str(ROOT / "serve.py"),
        script,
        "--server.port",
        str(port),
        "--server.address",
        "127.0.0.1",
        "--server.headless",
        "true",
        "--server.fileWatcherType",
        "none",
        *extra,
    ]
    if log_path is None:
        fd, temp = tempfile.mkstemp(prefix="streamlit-", suffix=".log")
        log, keep = os.fdopen(fd, "wb"), False
    else:
        temp, log, keep = str(log_path), open(log_path, "wb"), True  # noqa: SIM115
    with log:
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    proc.log_path = None if keep else temp
    return proc


@contextmanager
def serving(
    *extra: str, script: str = "app.py", log_dir: Path | None = None
) -> Iterator[tuple[str, subprocess.Popen]]:
    """A healthy server on a free loopback port for the `with` block: yields (url, process)
    and stops it after. Its log goes to `log_dir`/streamlit-<port>.log when given."""
    port = free_port()
    log = None if log_dir is None else log_dir / f"streamlit-{port}.log"
    proc = start_server(port, *extra, script=script, log_path=log)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, proc)
        yield url, proc
    finally:
        stop_server(proc)


def wait_healthy(base: str, proc: subprocess.Popen, limit_s: float = 120) -> None:
    """Ask /_stcore/health until it answers 200, the process dies, or the deadline passes.

    Between two asks it waits on the process itself (0.2 s at most), so that a server that
    dies while starting is reported at once."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass  # not listening yet
        try:
            code = proc.wait(timeout=0.2)
        except subprocess.TimeoutExpired:
            continue
        raise RuntimeError(f"streamlit exited with code {code}")
    raise RuntimeError(f"streamlit did not become healthy at {base} in {limit_s} s")


def stop_server(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=20)
    if getattr(proc, "log_path", None):
        Path(proc.log_path).unlink(missing_ok=True)


def rss_mb(pid: int) -> float:
    """Resident memory (VmRSS) of a process, in MiB, from /proc/<pid>/status."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for pid {pid}")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process, in seconds, from /proc/<pid>/stat."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()  # the name may hold spaces
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def load_1min() -> float:
    return float(Path("/proc/loadavg").read_text().split()[0])
