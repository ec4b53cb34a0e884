"""20 learners answering at once from two processes (as two replicas do), one answer in five
sent twice (a retry after a lost confirmation): every answer is stored exactly once, on SQLite
and on PostgreSQL. (A whole class through the app, 100 learners x 20 answers:
bench/bench_class_answers.py.)

Each replica is a fresh Python (`python -m tests.store.test_store_concurrency`, its learners
as JSON on stdin): a multiprocessing child would re-run whatever the test worker's __main__
happens to be."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

from attn_class import open_store

LEARNERS, ANSWERS = 20, 10
ROOT = Path(__file__).resolve().parents[2]


def replica(url: str, tokens: list[tuple[int, str]]) -> list[str]:
    """One process: its learners, a thread each, send their answers (one in five twice);
    the failures."""
    store = open_store(url)
    failures: list[str] = []

    def learner(i: int, token: str) -> None:
        try:
            for j in range(ANSWERS):
                for _ in range(2 if j % 5 == 0 else 1):
                    store.record(
                        token, "Softmax", f"q{j}", str(j), j % 3 == 0, answer_id=f"{i}-{j}"
                    )
        except Exception as exc:  # noqa: BLE001 -- reported to the test
            failures.append(f"{i}: {type(exc).__name__}: {exc}")

    threads = [threading.Thread(target=learner, args=t) for t in tokens]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    store.close()
    return failures


def test_two_replicas_store_every_answer_exactly_once(db_url):
    store = open_store(db_url)
    new = store.create_class("Crowd")
    tokens = [(i, store.join(new.code, f"learner {i}")) for i in range(LEARNERS)]
    cmd = [sys.executable, "-m", "tests.store.test_store_concurrency"]
    procs = [
        subprocess.Popen(cmd, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    halves = [tokens[: LEARNERS // 2], tokens[LEARNERS // 2 :]]
    for p, half in zip(procs, halves, strict=True):  # both started before either is fed
        p.stdin.write(json.dumps({"url": db_url, "tokens": half}))
        p.stdin.close()
    outs = [p.stdout.read() for p in procs]
    for p in procs:
        p.stdout.close()  # read to the end: closed, not left to the garbage collector
    assert [p.wait(timeout=240) for p in procs] == [0, 0]
    assert [json.loads(o) for o in outs] == [[], []]  # no learner failed
    s = store.summary(new.code, new.teacher_key)
    assert s.answers == LEARNERS * ANSWERS
    assert {(r.answers, r.right) for r in s.roster} == {(ANSWERS, 4)}  # j = 0, 3, 6, 9
    store.close()


if __name__ == "__main__":
    job = json.loads(sys.stdin.read())
    print(json.dumps(replica(job["url"], [tuple(t) for t in job["tokens"]])))
