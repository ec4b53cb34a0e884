"""A class answering at once, through the app: N learners join one class on /Join and press
Check on the Softmax page K times each (2 answers a check), all at the same time, as
websocket learners (tests/support/wsclient.py, the browser's own protocol). Then the answers
in the database are counted: every one confirmed must be there exactly once.

Two set-ups, each started from nothing: one process with its SQLite file (`make run`), and
`make class` with 2 replicas behind HAProxy and its PostgreSQL (deploy/class_run.py).

Run: `.venv/bin/python bench/bench_class_answers.py` (100 learners x 10 checks = 2,000
answers each way; `--n 20 --checks 3` for a quick look).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402

from attn_class import open_store  # noqa: E402
from deploy.class_run import Classroom  # noqa: E402
from tests.support.checks import questions, widget_key  # noqa: E402
from tests.support.server import free_port, serving  # noqa: E402
from tests.support.wsclient import Session  # noqa: E402

SAVED = "Your answers are saved for your class."
EARLY = ForwardMsg.ScriptFinishedStatus.FINISHED_EARLY_FOR_RERUN


def token_of(run) -> str:
    """The learner's token, from the hidden component that writes the browser's cookie."""
    for el in run.elements.values():
        if el.WhichOneof("type") == "bidi_component":
            data = el.bidi_component.json
            if '"attn_class"' in data:
                return json.loads(data)["value"]
    raise RuntimeError("no class cookie was written")


async def learner(base: str, code: str, i: int, checks: int, qs, gate) -> tuple[int, list[str]]:
    """Join, then press Check `checks` times; (confirmed checks, problems)."""
    problems: list[str] = []
    async with gate:  # at most a few connect at once, as a class arrives
        s = Session(base, "Join")
        await s.connect()
    s.stage("join_code", code)
    s.stage("join_nickname", f"learner {i}")
    run = await s.set("join_submit", True)
    while run.status == EARLY:  # the page joined and called st.rerun(): the next run
        run = await s.finish(time.perf_counter())  # draws the cookie writer
    if not run.ok:
        return 0, [f"{i}: join: status {run.status} {run.exceptions[:1]}"]
    cookies = {**s.cookies, "attn_class": token_of(run)}
    await s.close()
    page = Session(base, "Softmax", cookies=cookies)
    async with gate:
        await page.connect()
    confirmed = 0
    for _ in range(checks):
        for q in qs:
            page.stage(widget_key("softmax", q), q.answer)
        run = await page.set("chk_softmax_submit", True)
        while run.status == EARLY:  # all right: the page marks the menu and runs again
            run = await page.finish(time.perf_counter())
        said = [
            e.markdown.body for e in run.elements.values() if e.WhichOneof("type") == "markdown"
        ]
        if any(SAVED in m for m in said):
            confirmed += 1
        else:
            problems.append(f"{i}: a check not confirmed")
    await page.close()
    return confirmed, problems


async def class_of(base: str, code: str, n: int, checks: int) -> tuple[int, list[str], float]:
    qs = questions("softmax")
    gate = asyncio.Semaphore(10)
    t0 = time.perf_counter()
    got = await asyncio.gather(*(learner(base, code, i, checks, qs, gate) for i in range(n)))
    return sum(c for c, _ in got), [p for _, ps in got for p in ps], time.perf_counter() - t0


def report(name: str, url: str, code: str, key: str, n: int, checks: int, result) -> None:
    confirmed, problems, seconds = result
    per_check = len(questions("softmax"))
    store = open_store(url)
    s = store.summary(code, key)
    rows = store.answers(code, key)
    store.close()
    print(
        f"{name}: {n} learners x {checks} checks in {seconds:.1f} s; confirmed "
        f"{confirmed} checks = {confirmed * per_check} answers; stored {len(rows)} answers "
        f"of {s.learners} learners; problems {len(problems)} {problems[:3]}"
    )
    exact = len(rows) == confirmed * per_check == n * checks * per_check
    print(f"  every confirmed answer stored exactly once: {'yes' if exact else 'NO'}")


def main(n: int, checks: int) -> None:
    data = Path(tempfile.mkdtemp(prefix="attn-bench-data-"))
    os.chmod(data, 0o755)
    os.environ["ATTN_DATA_DIR"] = str(data)  # the one process's SQLite file, fresh
    url = f"sqlite:///{data / 'classes.sqlite3'}"
    new = open_store(url).create_class("Bench")
    with serving() as (base, _):
        result = asyncio.run(class_of(base, new.code, n, checks))
    report("one process, SQLite", url, new.code, new.teacher_key, n, checks, result)

    with Classroom(replicas=2, port=free_port(), bind="127.0.0.1") as room:
        store = open_store(room.database_url)
        new = store.create_class("Bench")
        store.close()
        result = asyncio.run(class_of(room.url, new.code, n, checks))
        report(
            "make class, 2 replicas, PostgreSQL",
            room.database_url,
            new.code,
            new.teacher_key,
            n,
            checks,
            result,
        )


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--checks", type=int, default=10)
    a = ap.parse_args()
    main(a.n, a.checks)
