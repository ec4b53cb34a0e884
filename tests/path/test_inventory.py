"""The concept inventory's two forms: parallel, each question with one right option, and every
wrong option a misconception the app explains."""

import pytest

from attn_lessons import inventory
from attn_lessons.text import lesson

PRE, POST = (inventory.items(f) for f in inventory.FORMS)


def test_two_parallel_forms_of_twelve_to_sixteen_questions():
    assert 12 <= len(PRE) <= 16
    assert [q.concept for q in PRE] == [q.concept for q in POST]
    for a, b in zip(PRE, POST, strict=True):
        assert a.prompt != b.prompt  # other numbers, the same concept
        assert sorted(a.wrong.values()) == sorted(b.wrong.values()), a.concept


@pytest.mark.parametrize("q", PRE + POST, ids=lambda q: f"{q.form}-{q.concept}")
def test_each_wrong_option_is_a_misconception_the_app_explains(q):
    checks = lesson("checks")
    assert len(set(q.options)) == len(q.options) >= 3
    assert q.answer not in q.wrong
    assert set(q.wrong) == set(range(len(q.options))) - {q.answer}  # every wrong option
    for name in q.wrong.values():
        assert checks.get(name, "").startswith("**"), name  # a bold name to show the teacher


def test_the_right_option_is_not_always_in_the_same_place():
    assert len({q.answer for q in PRE}) >= 3 and len({q.answer for q in POST}) >= 3


def test_judging_and_scoring():
    q = PRE[0]
    wrong = next(iter(q.wrong))
    assert q.judge(q.answer) == (True, None)
    assert q.judge(wrong) == (False, q.wrong[wrong])
    given = {p.concept: p.answer for p in PRE} | {q.concept: wrong}
    assert inventory.score(given, "pre") == (len(PRE) - 1, len(PRE))


@pytest.mark.parametrize(
    "text",
    [
        "A question?\n- [ ] a\n- [ ] b\n- [ ] c",  # no right option
        "A question?\n- [x] a\n- [x] b\n- [ ] c",  # two
        "A question?\n- [x] a\n- [ ] b",  # too few
        "A question?\n- [x] a\n- [ ] b\n- [ ] c\nmore words",  # text after the options
    ],
)
def test_a_question_written_wrong_is_refused(text):
    with pytest.raises(ValueError):
        inventory.parse("pre", "x", text)
