"""What the path (attn_ui/path: the pipeline box, the check-yourself form, the menu's
progress marks and the cookie writer) adds to a step page's server time per rerun.

AppTest runs the real page script in-process; one rerun with nothing changed is what a menu
click or a redraw costs the server. Three variants, interleaved round by round so that the
machine's load hits them alike:
- "bare": the path switched off (where.show and checks.show do nothing, no progress, no
  cookie writer), the page as it was before the path;
- "path": the page as shipped, no page checked yet;
- "path, 9 marked": every step page checked in this session, so the menu draws nine ✓
  labels and the reset button, and the hidden component writes the cookie on every rerun
  (the connection's cookie is empty here: the worst case).
Run: `.venv/bin/python bench/bench_path.py [page] [rounds]` (default Scores, 25 rounds).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

from attn_ui.path import checks, progress, where  # noqa: E402
from attn_ui.registry import in_group  # noqa: E402

STEPS = frozenset(p.name for p in in_group("The steps"))


@contextmanager
def path_off():
    saved = checks.show, where.show, progress.save
    checks.show = where.show = progress.save = lambda *a, **k: None
    try:
        yield
    finally:
        checks.show, where.show, progress.save = saved


def session(page: str, marked: frozenset[str]) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.switch_page(page)
    at.session_state[progress.STATE] = marked
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def rerun_ms(at: AppTest, off: bool = False) -> float:
    if off:
        with path_off():
            t0 = time.perf_counter()
            at.run()
    else:
        t0 = time.perf_counter()
        at.run()
    assert not at.exception
    return (time.perf_counter() - t0) * 1000


def cpu_of_parts(at: AppTest, rounds: int, off: bool = False) -> dict[str, float]:
    """CPU time (this thread's, which the machine's load barely moves) spent per rerun in
    the menu (frame.navigation, with the progress marks and the cookie writer), the
    pipeline box (where.show) and the check form (checks.show)."""
    from attn_ui import frame

    spent = {"menu": 0.0, "where": 0.0, "checks": 0.0}
    saved = frame.navigation, where.show, checks.show

    def timed(part, fn):
        def run(*a, **k):
            t0 = time.thread_time()
            try:
                return fn(*a, **k)
            finally:
                spent[part] += time.thread_time() - t0

        return run

    frame.navigation = timed("menu", frame.navigation)
    try:
        if off:
            with path_off():
                for _ in range(rounds):
                    at.run()
        else:
            where.show = timed("where", where.show)
            checks.show = timed("checks", checks.show)
            for _ in range(rounds):
                at.run()
    finally:
        frame.navigation, where.show, checks.show = saved
    return {k: v * 1000 / rounds for k, v in spent.items()}


def main() -> None:
    name = sys.argv[1] if len(sys.argv) > 1 else "Scores"
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 25
    page = next(str(p.path) for p in in_group("The steps") if p.url == f"/{name}")
    with path_off():
        bare = session(page, frozenset())
    shipped, marked = session(page, frozenset()), session(page, STEPS)
    times: dict[str, list[float]] = {"bare": [], "path": [], "path, 9 marked": []}
    for _ in range(3):  # warm caches and imports
        rerun_ms(bare, off=True), rerun_ms(shipped), rerun_ms(marked)
    for _ in range(rounds):
        times["bare"].append(rerun_ms(bare, off=True))
        times["path"].append(rerun_ms(shipped))
        times["path, 9 marked"].append(rerun_ms(marked))
    print(f"page {page}, {rounds} interleaved rounds, load average {os.getloadavg()}")
    base = statistics.median(times["bare"])
    for label, ms in times.items():
        med = statistics.median(ms)
        print(
            f"  {label:15s} median {med:6.1f} ms  (p10 {sorted(ms)[len(ms) // 10]:6.1f}, "
            f"added {med - base:+5.1f} ms, x{med / base:.3f})"
        )
    print("CPU time per rerun in each part (thread time, ms):")
    for label, at, off in (
        ("bare", bare, True),
        ("path", shipped, False),
        ("path, 9 marked", marked, False),
    ):
        parts = cpu_of_parts(at, rounds, off)
        print(f"  {label:15s} " + "  ".join(f"{k} {v:5.2f}" for k, v in parts.items()))


if __name__ == "__main__":
    main()
