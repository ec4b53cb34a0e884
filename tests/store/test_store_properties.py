"""The store against a model of it in plain Python (Hypothesis): any class, learners and
answers (retries included) give the summary the counting rules of attn_class.results say."""

from __future__ import annotations

import unicodedata
from collections import defaultdict

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attn_class import PRE, open_store

PAGES = ["Softmax", "Scaling", PRE]
MISCONCEPTIONS = [None, "divide-by-d-k", "softmax-down-the-column"]

answers = st.lists(
    st.tuples(
        st.integers(0, 3),  # which learner
        st.sampled_from(PAGES),
        st.sampled_from(["q1", "q2"]),
        st.booleans(),  # right
        st.sampled_from(MISCONCEPTIONS),
        st.integers(0, 5),  # answer id: a repeated id is a retry of the same answer
        st.text(max_size=8),
    ),
    max_size=25,
)


# printable nicknames (test_store.py tests the refused ones), distinct as the store compares them
nicknames = st.lists(
    st.text(st.characters(categories=["L", "N", "P", "S", "Zs"]), min_size=1, max_size=12)
    .map(lambda n: unicodedata.normalize("NFC", n).strip())
    .filter(bool),
    min_size=1,
    max_size=4,
    unique_by=str.casefold,
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(nicknames=nicknames, sent=answers)
def test_the_summary_is_what_the_answers_say(tmp_path, nicknames, sent):
    store = open_store(f"sqlite:///{tmp_path / 'p.sqlite3'}")
    try:
        new = store.create_class("Property")
        tokens = [store.join(new.code, n) for n in nicknames]
        stored: dict[tuple[int, int], tuple] = {}  # the model: (learner, id) -> first sent
        for who, page, item, right, misconception, aid, text in sent:
            who %= len(tokens)
            wrote = store.record(
                tokens[who],
                page,
                item,
                text,
                right,
                None if right else misconception,
                answer_id=str(aid),
            )
            assert wrote == ((who, aid) not in stored)
            stored.setdefault((who, aid), (page, item, right, None if right else misconception))
        s = store.summary(new.code, new.teacher_key)
        assert s.answers == len(stored) and s.learners == len(nicknames)
        first: dict[tuple[int, str, str], bool] = {}
        holders: dict[str, set[int]] = defaultdict(set)
        for (who, _), (page, item, right, misconception) in stored.items():  # in sent order
            first.setdefault((who, page, item), right)
            if misconception:
                holders[misconception].add(who)
        for results, key in (
            (s.items, lambda page, item: (page, item)),
            (s.pages, lambda p, _: (p, "")),
        ):
            expected = defaultdict(lambda: (set(), [0, 0]))  # learners, [first answers, right]
            for (who, page, item), right in first.items():
                learners, counts = expected[key(page, item)]
                learners.add(who)
                counts[0] += 1
                counts[1] += right
            assert {(r.page, r.item): (r.learners, r.answers, r.right) for r in results} == {
                k: (len(w), n, ok) for k, (w, (n, ok)) in expected.items()
            }
        assert dict(s.misconceptions) == {m: len(w) for m, w in holders.items()}
        assert [n for n, _ in s.misconceptions] == sorted(
            holders, key=lambda m: (-len(holders[m]), m)
        )
    finally:
        store.delete_class(new.code, new.teacher_key)
        store.close()
