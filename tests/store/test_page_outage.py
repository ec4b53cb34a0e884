"""PostgreSQL restarted in the middle of a class, as a learner's page sees it: the answers sent
while it is down are not confirmed (the page says how many wait), and once it is back they
are stored, each exactly once."""

from __future__ import annotations

from attn_class import open_store
from attn_ui.frame import lesson
from attn_ui.path import membership
from tests.app.test_class_pages import check_softmax, join, submit


def test_answers_sent_during_an_outage_are_stored_once_after_it(monkeypatch, pg_server):
    store = open_store(pg_server.database("outage_page"))
    monkeypatch.setattr(membership, "store", lambda: store)
    try:
        new = store.create_class("Outage")
        learner = join(new.code, "Ada")
        check_softmax(learner, [None, 7.0])
        assert store.summary(new.code, new.teacher_key).answers == 2
        pg_server.stop("immediate")  # as a crash
        try:
            check_softmax(learner, [None, None])  # sent while it is down
            waiting = lesson("checks")["Not saved"].replace("{n}", "2")
            assert waiting in [w.value for w in learner.warning]
            assert lesson("checks")["Saved"] not in [c.value for c in learner.caption]
        finally:
            pg_server.start()
        submit(learner, "Send again")
        assert lesson("checks")["Saved"] in [c.value for c in learner.caption]
        submit(learner, "Check")  # the same answers again: new answers, nothing resent twice
        rows = store.answers(new.code, new.teacher_key)
        assert len(rows) == 6
        assert [r.correct for r in rows] == [True, False, True, True, True, True]
    finally:
        store.close()
