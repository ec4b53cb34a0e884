"""Where a class's server spends its time: a sampling profile of one app process under N
learners (the websocket learners of bench/bench_load.py: half on /Overview, half on
/Multi-head, a sentence or a slider every 2 to 4 s).

py-spy samples the server from outside (it does not slow the process it reads) for the
whole active phase, from once the learners' pages are open (their first runs import and
load models: a start, not an interaction); every busy thread's stack is one sample.
Printed: the samples, the app's own functions with the largest share of them counted once
per stack (inclusive: a function and everything it called), and the lines that were
running (self). The event loop's wait for the network (`EpollSelector.select`) is sampled
as busy: it is not CPU.

Run: `.venv/bin/python bench/profile_server.py` (50 learners for 40 s; `--n 10 --seconds 20`
for a quick look; `--app bench/bare_app.py` profiles the yardstick instead). The raw
stacks are kept in artifacts/profile/ for a flame graph
(`py-spy record` format "raw": one stack per line, its count last).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_load import Stats, learner, open_sessions, pct  # noqa: E402
from tests.support.server import ROOT, cpu_seconds, load_1min, serving  # noqa: E402

OUT = ROOT / "artifacts" / "profile"
SPY = Path(sys.executable).with_name("py-spy")


def read_raw(path: Path) -> list[tuple[list[str], int]]:
    """py-spy's raw format: `frame;frame;...;frame count`, outermost frame first."""
    stacks = []
    for line in path.read_text().splitlines():
        frames, _, count = line.rpartition(" ")
        if frames and count.isdigit():
            stacks.append((frames.split(";"), int(count)))
    return stacks


def place(frame: str) -> str:
    """`function (path/to/file.py:12)` -> `function (dir/file.py)`: a function, not a line."""
    name, _, where = frame.partition(" (")
    file = where.rstrip(")").rsplit(":", 1)[0]
    return f"{name} ({'/'.join(Path(file).parts[-2:])})"


OURS = ("attn_core/", "attn_ui/", "attn_lessons/", "pages/", "app.py")  # the app's own code


def summary(stacks: list[tuple[list[str], int]], top: int = 10) -> str:
    """The `top` places of the app's own code by inclusive share (a function and all it
    called, counted once per stack), and the `top` lines by self share (the line running)."""
    total = sum(c for _, c in stacks)
    inclusive, leaf = collections.Counter(), collections.Counter()
    for frames, count in stacks:
        for p in {place(f) for f in frames if any(o in f for o in OURS)}:
            inclusive[p] += count
        leaf[frames[-1]] += count
    out = [f"{total} samples"]
    out.append(f"  the app's own code, inclusive (a place and what it called), top {top}:")
    for p, c in inclusive.most_common(top):
        out.append(f"    {100 * c / total:5.1f}%  {p}")
    out.append(f"  self (the line running), top {top}:")
    for p, c in leaf.most_common(top):
        out.append(f"    {100 * c / total:5.1f}%  {p}")
    return "\n".join(out)


async def learners(base: str, n: int, seconds: float, start) -> tuple[Stats, float, float]:
    """The learners' sessions opened (their first page runs, not profiled), then `start()`
    (the profiler), then `seconds` of interactions as bench/bench_load.py makes them (one
    learner alone clicks every 0.2 to 0.5 s, as there). Returns the stats and the active
    phase's wall time and server CPU seconds, from `start()`'s (wall, cpu) to the end."""
    stats = Stats()
    sessions = await open_sessions(base, n, stats)
    t0, cpu0 = start()
    until = time.monotonic() + seconds
    think = (0.2, 0.5) if n == 1 else (2.0, 4.0)
    tasks = [learner(s, 1000 * n + i, until, stats, think) for i, s in enumerate(sessions)]
    await asyncio.wait_for(asyncio.gather(*tasks), seconds + 300)
    t1 = time.monotonic()
    await asyncio.gather(*(s.close() for s in sessions))
    return stats, t1 - t0, cpu0


def main(n: int, seconds: float, app: str, rate: int) -> None:
    if not SPY.exists():
        sys.exit(f"py-spy not found at {SPY}: `make install` installs requirements-dev.txt.")
    OUT.mkdir(parents=True, exist_ok=True)
    raw = OUT / f"{Path(app).stem}-{n}.txt"
    with serving(script=app) as (base, proc):
        print(
            f"{app}: server pid {proc.pid}; {n} learners for {seconds:.0f} s; load "
            f"{load_1min():.2f}",
            flush=True,
        )
        spy = None

        def start() -> tuple[float, float]:
            nonlocal spy
            spy = subprocess.Popen(
                [
                    str(SPY),
                    "record",
                    "--pid",
                    str(proc.pid),
                    "--duration",
                    str(int(seconds)),
                    "--rate",
                    str(rate),
                    "--format",
                    "raw",
                    "--nonblocking",
                    "--output",
                    str(raw),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
            )
            return time.monotonic(), cpu_seconds(proc.pid)

        stats, wall, cpu0 = asyncio.run(learners(base, n, seconds, start))
        cpu = cpu_seconds(proc.pid) - cpu0
        _, err = spy.communicate(timeout=120)
        if spy.returncode:
            sys.exit(f"py-spy failed: {err.strip()[-500:]}")
    lat = stats.latencies
    print(
        f"{len(lat)} interactions, p50 {pct(lat, 0.5):.0f} ms, p95 {pct(lat, 0.95):.0f} ms, "
        f"errors {len(stats.errors)}; server CPU {100 * cpu / wall:.0f}% of one core, "
        f"{1000 * cpu / max(len(lat), 1):.1f} ms per interaction"
    )
    print(summary(read_raw(raw)))
    print(f"raw stacks: {raw.relative_to(ROOT)}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=50, help="learners (default 50)")
    ap.add_argument("--seconds", type=float, default=40, help="active phase (default 40)")
    ap.add_argument("--app", default="app.py", help="the app script (default app.py)")
    ap.add_argument("--rate", type=int, default=50, help="samples per second (default 50)")
    a = ap.parse_args()
    main(a.n, a.seconds, a.app, a.rate)
