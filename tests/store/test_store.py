"""attn_class's API on SQLite and on PostgreSQL: a class from creation to deletion, who may
read what, bad input, guessing codes, answers stored exactly once, a database that goes away."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select, text

from attn_class import POST, PRE, NotInClass, StoreUnavailable, open_store, read_code
from attn_class.schema import Answer, Base, Class, JoinMiss, Learner
from attn_class.store import MISS_WINDOW, MISSES_ALLOWED


def rows(store, table) -> int:
    with store.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(table)).scalar_one()


def everything(store) -> str:
    """Every value of every table, as one text."""
    with store.engine.connect() as conn:
        return " ".join(
            str(value)
            for table in Base.metadata.sorted_tables
            for row in conn.execute(select(table))
            for value in row
        )


def test_a_class_from_its_creation_to_its_summary(store):
    new = store.create_class("Period 3")
    assert len(new.code) == 8 and read_code(new.code) == new.code
    ada, bo = (
        store.join(new.code, "Ada"),
        store.join(new.code.lower()[:4] + "-" + new.code[4:], "Bo"),
    )
    assert store.whoami(ada) == ("Ada", "Period 3", new.code)
    assert store.record(ada, "Softmax", "row-sum", "1", True)
    assert store.record(bo, "Softmax", "row-sum", "the column", False, "softmax-down-the-column")
    assert store.record(bo, "Softmax", "row-sum", "1", True)  # right at the second try
    summary = store.summary(new.code, new.teacher_key)
    assert (summary.name, summary.code, summary.learners, summary.answers) == (
        "Period 3",
        new.code,
        2,
        3,
    )
    (item,) = summary.items
    assert (item.page, item.item, item.learners, item.answers, item.right, item.share) == (
        "Softmax",
        "row-sum",
        2,
        2,
        1,
        0.5,
    )  # first answers: Ada right, Bo wrong
    assert summary.misconceptions == (("softmax-down-the-column", 1),)
    assert summary.examples == {"softmax-down-the-column": "the column"}
    assert [(r.nickname, r.answers, r.right) for r in summary.roster] == [
        ("Ada", 1, 1),
        ("Bo", 2, 1),
    ]
    assert summary.active == 2


def test_the_inventory_gives_each_learner_and_the_class_hakes_gain(store):
    new = store.create_class("Gain")
    ada, bo = store.join(new.code, "Ada"), store.join(new.code, "Bo")
    for i, ok in enumerate([True, False, False, False]):  # Ada: pre 1/4, post 3/4
        store.record(ada, PRE, f"q{i}", "a", ok)
        store.record(ada, POST, f"q{i}", "a", ok or i < 3)
    for i, ok in enumerate([True, True, False, False]):  # Bo: pre 2/4, post 2/4
        store.record(bo, PRE, f"q{i}", "a", ok)
        store.record(bo, POST, f"q{i}", "a", ok)
    s = store.summary(new.code, new.teacher_key)
    by = {r.nickname: r for r in s.roster}
    assert (by["Ada"].pre, by["Ada"].post, by["Ada"].gain) == (0.25, 0.75, pytest.approx(2 / 3))
    assert (by["Bo"].pre, by["Bo"].post, by["Bo"].gain) == (0.5, 0.5, 0.0)
    # the class: mean pre 0.375, mean post 0.625, g = 0.25 / 0.625
    assert (s.pre, s.post, s.gain, s.matched) == (0.375, 0.625, pytest.approx(0.4), 2)


def test_a_teacher_key_opens_its_own_class_only(store):
    a, b = store.create_class("A"), store.create_class("B")
    store.summary(a.code, a.teacher_key)
    with pytest.raises(PermissionError):
        store.summary(a.code, b.teacher_key)
    with pytest.raises(PermissionError):
        store.answers(b.code, a.teacher_key)
    with pytest.raises(PermissionError):
        store.delete_class(b.code, "")
    assert rows(store, Class) == 2


def test_learners_are_recorded_in_their_own_class_only(store):
    a, b = store.create_class("A"), store.create_class("B")
    ta, tb = store.join(a.code, "Sam"), store.join(b.code, "Sam")  # one nickname, two classes
    store.record(ta, "Masking", "where", "after the softmax", False, "mask-after-softmax")
    store.record(tb, "Masking", "where", "before the softmax", True)
    sa, sb = store.summary(a.code, a.teacher_key), store.summary(b.code, b.teacher_key)
    assert [r.answer for r in store.answers(a.code, a.teacher_key)] == ["after the softmax"]
    assert [r.answer for r in store.answers(b.code, b.teacher_key)] == ["before the softmax"]
    assert (sa.misconceptions, sb.misconceptions) == ((("mask-after-softmax", 1),), ())


def test_only_hashes_of_the_secrets_are_stored(store):
    new = store.create_class("Secret")
    token = store.join(new.code, "Ada")
    stored = everything(store)
    assert new.code in stored  # the code is not a secret
    assert new.teacher_key not in stored and token not in stored
    assert len(new.teacher_key) >= 32 and len(token) >= 32  # 192 random bits, base64


def test_deleting_a_class_leaves_no_row_of_it(store):
    gone, kept = store.create_class("Gone"), store.create_class("Kept")
    for cls in (gone, kept):
        for name in ("Ada", "Bo"):
            token = store.join(cls.code, name)
            store.record(token, "Scaling", "divide-by", "d_k", False, "divide-by-d-k")
    store.delete_class(gone.code, gone.teacher_key)
    assert (rows(store, Class), rows(store, Learner), rows(store, Answer)) == (1, 2, 2)
    assert "Gone" not in everything(store)
    with pytest.raises(ValueError, match="No class has this code"):
        store.summary(gone.code, gone.teacher_key)
    assert store.summary(kept.code, kept.teacher_key).answers == 2


def test_a_learner_who_leaves_takes_their_answers_along(store):
    new = store.create_class("Leave")
    ada, bo = store.join(new.code, "Ada"), store.join(new.code, "Bo")
    store.record(ada, "Q K^T", "shape", "3 x 3", True)
    store.record(bo, "Q K^T", "shape", "3 x 4", False)
    store.leave(bo)
    assert store.whoami(bo) is None
    with pytest.raises(NotInClass, match="no longer in a class"):
        store.record(bo, "Q K^T", "shape", "3 x 3", True)
    s = store.summary(new.code, new.teacher_key)
    assert (s.learners, s.answers, rows(store, Answer)) == (1, 1, 1)


@pytest.mark.parametrize(
    "nickname",
    ['<script>alert("x")</script>', "Robert'); DROP TABLE learners;--", "<b>bold</b> & co", "李雷"],
)
def test_a_hostile_nickname_is_kept_as_literal_text(store, nickname):
    new = store.create_class("Hostile")
    token = store.join(new.code, nickname)
    store.record(token, "Softmax", "x", "<img src=x onerror=alert(1)>", False)
    s = store.summary(new.code, new.teacher_key)
    assert [r.nickname for r in s.roster] == [nickname]
    assert store.answers(new.code, new.teacher_key)[0].answer == "<img src=x onerror=alert(1)>"
    assert rows(store, Learner) == 1  # the tables are all there


@pytest.mark.parametrize(
    ("nickname", "says"),
    [
        ("", "Type a nickname"),
        ("   ", "Type a nickname"),
        ("x" * 41, "at most 40"),
        ("a\x00b", "control or invisible"),
        ("zero\u200bwidth", "control or invisible"),
    ],
)
def test_a_bad_nickname_gets_a_sentence_to_act_on(store, nickname, says):
    new = store.create_class("Names")
    with pytest.raises(ValueError, match=says):
        store.join(new.code, nickname)
    assert rows(store, Learner) == 0


def test_a_nickname_is_taken_once_per_class_whatever_its_case(store):
    new = store.create_class("Twice")
    store.join(new.code, "Ada")
    with pytest.raises(ValueError, match="already called ADA"):
        store.join(new.code, " ADA ")
    assert store.join(new.code, "Ada L.")  # a different name is fine
    assert store.join(store.create_class("Other").code, "Ada")  # another class is fine


@pytest.mark.parametrize("code", ["", "ABC", "ABCDEFGHJ", "ABCD-EFG0", "ÅBCDEFGH"])
def test_a_malformed_code_says_what_a_code_looks_like(store, code):
    with pytest.raises(ValueError, match="8 letters and digits"):
        store.join(code, "Ada")


def test_wrong_codes_from_one_client_are_limited(store):
    now = [datetime(2026, 11, 25, 9, 0, tzinfo=UTC)]
    store.clock = lambda: now[0]
    new = store.create_class("Guarded")
    wrong = "".join("A" if ch != "A" else "B" for ch in new.code)  # surely not the code
    for _ in range(MISSES_ALLOWED):
        with pytest.raises(ValueError, match="No class has the code"):
            store.join(wrong, "Eve", client="10.0.0.9")
    with pytest.raises(ValueError, match="Too many wrong class codes"):
        store.join(new.code, "Eve", client="10.0.0.9")  # even the right one, from there
    assert store.join(new.code, "Ada", client="10.0.0.10")  # another client is not held up
    now[0] += MISS_WINDOW + timedelta(seconds=1)
    assert store.join(new.code, "Eve", client="10.0.0.9")
    with pytest.raises(ValueError, match="No class has the code"):
        store.join(wrong, "Eve", client="10.0.0.9")
    assert rows(store, JoinMiss) == 1  # the old misses were cleared with the new one


def test_an_answer_sent_again_is_stored_once(store):
    new = store.create_class("Once")
    token = store.join(new.code, "Ada")
    assert store.record(token, "Softmax", "q", "1", True, answer_id="a-1") is True
    assert store.record(token, "Softmax", "q", "1", True, answer_id="a-1") is False
    assert store.record(token, "Softmax", "q", "1", True) is True  # no id: a new answer
    assert rows(store, Answer) == 2


def test_a_long_answer_is_clipped_and_a_bad_page_refused(store):
    new = store.create_class("Sizes")
    token = store.join(new.code, "Ada")
    store.record(token, "Softmax", "q", "9" * 1000, False)
    assert len(store.answers(new.code, new.teacher_key)[0].answer) == 400
    with pytest.raises(ValueError, match="page"):
        store.record(token, "", "q", "1", True)
    with pytest.raises(ValueError, match="misconception"):
        store.record(token, "Softmax", "q", "1", False, "m" * 121)


def test_an_empty_database_is_migrated_to_the_schema_of_the_code(db_url):
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from attn_class import migrate

    store = open_store(db_url)
    try:
        assert migrate.current(store.engine) == migrate.head()
        with store.engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
        assert diff == []
        open_store(db_url).close()  # opening again finds it current
        assert migrate.current(store.engine) == migrate.head()
    finally:
        store.close()


def test_a_database_that_goes_away_says_nothing_was_saved(pg_server):
    store = open_store(pg_server.database("outage"))
    try:
        new = store.create_class("Outage")
        token = store.join(new.code, "Ada")
        pg_server.stop()
        try:
            with pytest.raises(StoreUnavailable, match="nothing was saved"):
                store.record(token, "Softmax", "q", "1", True, answer_id="during")
        finally:
            pg_server.start()
        assert store.record(token, "Softmax", "q", "1", True, answer_id="during") is True
        assert store.record(token, "Softmax", "q", "1", True, answer_id="during") is False
        assert store.summary(new.code, new.teacher_key).answers == 1
    finally:
        store.close()


def test_sqlite_keeps_its_file_in_wal_mode(tmp_path):
    store = open_store(f"sqlite:///{tmp_path / 'deep' / 'er' / 'c.sqlite3'}")
    try:
        with store.engine.connect() as conn:
            assert conn.execute(text("PRAGMA journal_mode")).scalar_one() == "wal"
            assert conn.execute(text("PRAGMA foreign_keys")).scalar_one() == 1
        assert (tmp_path / "deep" / "er" / "c.sqlite3").exists()
    finally:
        store.close()
