"""Are the caches bounded? Server memory after 200 and after 2,000 distinct sentences.

Two websocket sessions (tests/support/wsclient.py) type 1,000 distinct sentences each on one page,
one after another, against one `python serve.py app.py` on a free loopback port. Every
sentence is new, so every `lesson_run` is a cache miss and adds an entry until
`max_entries` evicts. Prints the server's resident memory (VmRSS, /proc) at checkpoints and
the ratio of 2,000 to 200; the goal is a ratio within 1.10.

Run: `.venv/bin/python bench/bench_memory.py [--page Tokens] [--total 2000]` (about 10 min).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_load import WORDS, settled_rss  # noqa: E402
from tests.support.server import load_1min, rss_mb, serving  # noqa: E402
from tests.support.wsclient import Session  # noqa: E402

SESSIONS = 2


def distinct(i: int) -> str:
    """Sentence i: 8 to 13 words picked by the digits of i, so no two are the same."""
    words, n = [], i
    for _ in range(4):
        n, r = divmod(n, len(WORDS))
        words.append(WORDS[r])
    return " ".join(["the", *words, "sat", "on", "the", "mat"][: 8 + i % 6])


async def typist(s: Session, first: int, step: int, count: int, errors: list) -> None:
    for j in range(count):
        run = await s.set("lesson_w_sentence", distinct(first + j * step))
        if not run.ok:
            errors.append((run.status, run.exceptions[:1]))


async def main(page: str, total: int) -> None:
    with serving() as (base, proc):
        sessions = [Session(base, page) for _ in range(SESSIONS)]
        for s in sessions:
            assert (await s.connect()).ok
        print(
            f"page /{page}, {SESSIONS} sessions, server pid {proc.pid}; "
            f"RSS after the first run {rss_mb(proc.pid):.1f} MiB",
            flush=True,
        )
        done, errors, marks, t0 = 0, [], {}, time.monotonic()
        for checkpoint in (200, 500, 1000, 1500, 2000, total):
            if checkpoint > total or checkpoint <= done:
                continue
            each = (checkpoint - done) // SESSIONS
            await asyncio.gather(
                *(typist(s, done + k, SESSIONS, each, errors) for k, s in enumerate(sessions))
            )
            done += each * SESSIONS
            marks[done] = await settled_rss(proc.pid)
            print(
                f"after {done:5d} interactions: RSS {marks[done]:7.1f} MiB  "
                f"({time.monotonic() - t0:5.0f} s, errors {len(errors)}, "
                f"load {load_1min():.2f})",
                flush=True,
            )
        await asyncio.gather(*(s.close() for s in sessions))
        if 200 in marks and done in marks:
            ratio = marks[done] / marks[200]
            print(f"RSS after {done} / after 200: {ratio:.3f} (goal <= 1.10); errors {len(errors)}")
        for e in errors[:3]:
            print("error:", e)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--page", default="Tokens", help="a page that calls compute.lesson_run")
    ap.add_argument("--total", type=int, default=2000)
    args = ap.parse_args()
    asyncio.run(main(args.page, args.total))
