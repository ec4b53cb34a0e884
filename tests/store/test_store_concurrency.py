"""20 learners answering at once from two processes (as two replicas do), one answer in five
sent twice (a retry after a lost confirmation): every answer is stored exactly once, on SQLite
and on PostgreSQL. (A whole class through the app, 100 learners x 20 answers:
bench/bench_class_answers.py.)"""

from __future__ import annotations

import multiprocessing
import threading

from attn_class import open_store

LEARNERS, ANSWERS = 20, 10


def replica(url: str, tokens: list[tuple[int, str]], failures) -> None:
    """One process: its learners, a thread each, send their answers (one in five twice)."""
    store = open_store(url)

    def learner(i: int, token: str) -> None:
        try:
            for j in range(ANSWERS):
                for _ in range(2 if j % 5 == 0 else 1):
                    store.record(
                        token, "Softmax", f"q{j}", str(j), j % 3 == 0, answer_id=f"{i}-{j}"
                    )
        except Exception as exc:  # noqa: BLE001 -- counted by the parent
            failures.put(f"{i}: {type(exc).__name__}: {exc}")

    threads = [threading.Thread(target=learner, args=t) for t in tokens]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    store.close()


def test_two_replicas_store_every_answer_exactly_once(db_url):
    store = open_store(db_url)
    new = store.create_class("Crowd")
    tokens = [(i, store.join(new.code, f"learner {i}")) for i in range(LEARNERS)]
    spawn = multiprocessing.get_context("spawn")
    failures = spawn.Queue()
    halves = [tokens[: LEARNERS // 2], tokens[LEARNERS // 2 :]]
    procs = [spawn.Process(target=replica, args=(db_url, h, failures)) for h in halves]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=240)
    assert [p.exitcode for p in procs] == [0, 0]
    errors = []
    while not failures.empty():
        errors.append(failures.get())
    assert errors == []
    s = store.summary(new.code, new.teacher_key)
    assert s.answers == LEARNERS * ANSWERS
    assert {(r.answers, r.right) for r in s.roster} == {(ANSWERS, 4)}  # j = 0, 3, 6, 9
    store.close()
