"""The per-process generation queue: first come first served, places reported, always left."""

from __future__ import annotations

import threading

import pytest

from attn_ui.compute.decoder import TurnQueue


def test_a_lone_learner_runs_at_once():
    q = TurnQueue(slots=1)
    seen = []
    with q.turn() as wait:
        wait(seen.append)
        assert len(q) == 1
    assert seen == [] and len(q) == 0


def test_learners_wait_in_order_and_see_their_place():
    q = TurnQueue(slots=1)
    order, places = [], {1: [], 2: []}
    first_in = threading.Event()
    release = threading.Event()
    joined = [threading.Event(), threading.Event()]

    def learner(n: int):
        with q.turn(poll=0.01) as wait:
            if n == 0:
                wait(lambda a: None)
                first_in.set()
                release.wait(5)
            else:
                joined[n - 1].set()
                wait(places[n].append)
            order.append(n)

    threads = [threading.Thread(target=learner, args=(0,))]
    threads[0].start()
    first_in.wait(5)
    for n in (1, 2):  # join one after the other, so the order is known
        threads.append(threading.Thread(target=learner, args=(n,)))
        threads[-1].start()
        joined[n - 1].wait(5)
        while len(q) < n + 1:
            pass
    release.set()
    for t in threads:
        t.join(5)
    assert order == [0, 1, 2]
    assert set(places[1]) == {1}  # one ahead (learner 0), then its turn
    # two ahead, then fewer (learner 1 may finish before learner 2 looks again)
    assert places[2][0] == 2 and places[2] == sorted(places[2], reverse=True)


def test_a_waiting_learner_who_left_leaves_the_line():
    """Streamlit stops a departed learner's script when it next draws: `show` raising must
    take the ticket out of the line at once, so those behind move up."""
    q = TurnQueue(slots=1)

    class Left(Exception):
        pass

    def gone(ahead):
        raise Left

    with q.turn() as wait:
        wait(lambda a: None)  # learner 0 runs
        with pytest.raises(Left), q.turn(poll=0.01) as wait_b:
            wait_b(gone)  # learner 1 waits, and has closed the tab
        assert len(q) == 1


def test_show_is_called_again_while_the_place_is_unchanged():
    q = TurnQueue(slots=1)
    calls = []
    release = threading.Event()

    def holder():
        with q.turn() as wait:
            wait(lambda a: None)
            release.wait(5)

    t = threading.Thread(target=holder)
    t.start()
    while len(q) < 1:
        pass

    def show(ahead):
        calls.append(ahead)
        if len(calls) == 3:
            release.set()

    with q.turn(poll=0.01) as wait:
        wait(show)
    t.join(5)
    assert calls[:3] == [1, 1, 1]
    assert len(q) == 0


def test_the_line_is_left_when_the_body_fails():
    q = TurnQueue(slots=1)
    with pytest.raises(RuntimeError), q.turn() as wait:
        wait(lambda a: None)
        raise RuntimeError("stopped mid-generation")
    assert len(q) == 0
    with q.turn() as wait:  # the next learner is not stuck behind it
        wait(lambda a: pytest.fail("nobody is ahead"))


def test_two_slots_run_two_at_once():
    q = TurnQueue(slots=2)
    with q.turn() as w1, q.turn() as w2:
        w1(lambda a: pytest.fail("first may run"))
        w2(lambda a: pytest.fail("second may run too"))
        with q.turn() as _:
            assert q.ahead(2) == 1
