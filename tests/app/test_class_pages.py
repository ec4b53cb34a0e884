"""The class pages below the browser: a teacher creates a class on /Teach, a learner joins on
/Join, the learner's checks are recorded and reach the dashboard; a wrong key, a wrong code,
a bad nickname and a database that cannot be reached each get their sentence."""

from __future__ import annotations

import pytest

from attn_class import StoreUnavailable
from attn_ui.frame import lesson
from attn_ui.path import membership
from tests.support.apptest import load, rerun
from tests.support.checks import STEPS, questions, widget_key

TEACH, JOIN = "pages/71_Teach.py", "pages/70_Join.py"


def submit(at, label: str):
    [button] = [b for b in at.button if b.label == label]
    button.click()
    return rerun(at)


def text_box(at, label: str):
    [box] = [t for t in at.text_input if t.label == label]
    return box


def create(name: str = "Period 3"):
    at = load(TEACH)
    text_box(at, "Class name").input(name)
    submit(at, "Create the class")
    code = at.query_params["code"]
    return at, code, at.session_state["teach_credentials"][1]


def join(code: str, nickname: str):
    at = load(JOIN, query={"code": code})
    text_box(at, "Nickname").input(nickname)
    return submit(at, "Join the class")


def check_softmax(at, values):
    """Answer the Softmax page's questions with `values` (None: the right answer), press Check."""
    at.switch_page(STEPS["softmax"].path)
    rerun(at)
    for q, value in zip(questions("softmax"), values, strict=True):
        at.number_input(key=widget_key("softmax", q)).set_value(
            q.answer if value is None else value
        )
    return submit(at, "Check")


def metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def test_a_class_from_the_teachers_form_to_a_learners_answers_on_the_dashboard():
    teacher, code, key = create("Period 3")
    assert "Period 3" in [h.value for h in teacher.header]
    assert metrics(teacher) == {
        "Learners joined": "0",
        "Active in the last 10 minutes": "0",
        "Answers": "0",
    }
    assert any(key in c.value for c in teacher.code)  # the teacher link, shown once
    learner = join(code, "Ada")
    said = [s.value for s in learner.success]
    assert any("You are in the class **Period 3**" in s and "**Ada**" in s for s in said), said
    check_softmax(learner, [None, 7.0])  # one right, one wrong
    assert lesson("checks")["Saved"] in [c.value for c in learner.caption]
    rerun(teacher)
    assert metrics(teacher) == {
        "Learners joined": "1",
        "Active in the last 10 minutes": "1",
        "Answers": "2",
    }
    tables = [t.value for t in teacher.table]
    pages = tables[0]
    assert pages.iloc[0].tolist() == ["5\\. Softmax: weights sum to 1", 1, "50%"]  # not a list
    summary = membership.store().summary(code, key)
    assert [(r.nickname, r.answers, r.right) for r in summary.roster] == [("Ada", 2, 1)]


def test_a_wrong_code_and_a_bad_nickname_say_what_to_do():
    _, code, _ = create("Codes")
    at = join("ZZZZ-ZZZZ" if code != "ZZZZZZZZ" else "YYYY-YYYY", "Bo")
    assert any("No class has the code" in e.value for e in at.error)
    at = join(code, "   ")
    assert any("Type a nickname" in e.value for e in at.error)


def test_a_wrong_teacher_key_opens_nothing():
    _, code, _ = create("Keys")
    at = load(TEACH, query={"code": code, "key": "not-the-key"})
    assert any("does not open the class" in e.value for e in at.error)
    assert not at.metric


def test_answers_wait_while_the_database_is_away_and_are_sent_again(monkeypatch):
    teacher, code, key = create("Outage")
    learner = join(code, "Cy")
    real = membership.store

    def away():
        raise StoreUnavailable("down")

    monkeypatch.setattr(membership, "store", away)
    check_softmax(learner, [None, None])
    warning = lesson("checks")["Not saved"].replace("{n}", "2")
    assert warning in [w.value for w in learner.warning]
    monkeypatch.setattr(membership, "store", real)
    submit(learner, "Send again")
    assert lesson("checks")["Saved"] in [c.value for c in learner.caption]
    assert membership.store().summary(code, key).answers == 2


def test_a_learner_who_leaves_is_out_of_the_class():
    _, code, key = create("Leaving")
    at = join(code, "Dee")
    at.checkbox(key="join_leave_sure").check()
    submit(at, "Leave the class")
    assert lesson("join")["Left"] in [s.value for s in at.success]
    assert membership.store().summary(code, key).learners == 0
    assert [t.label for t in at.text_input] == ["Class code", "Nickname"]  # the form again


@pytest.mark.parametrize("page", [TEACH, JOIN])
def test_the_pages_say_so_when_the_database_is_away(monkeypatch, page):
    def away():
        raise StoreUnavailable("down")

    monkeypatch.setattr(membership, "store", away)
    monkeypatch.setattr(membership, "token", lambda: "a" * 32)  # someone in a class
    at = load(page, query={"code": "ABCDEFGH", "key": "k"} if page == TEACH else None)
    shown = [w.value for w in at.warning] + [e.value for e in at.error]
    assert any("cannot be reached" in s for s in shown), shown


INVENTORY = "pages/72_Concept_inventory.py"


def take(at, form: str, wrong: int):
    """Take one form of the inventory: the first `wrong` questions wrong, the rest right."""
    from attn_lessons import inventory

    at.switch_page(INVENTORY)
    at.query_params["form"] = form
    rerun(at)
    for n, q in enumerate(inventory.items(form)):
        value = next(iter(q.wrong)) if n < wrong else q.answer
        at.radio(key=f"inv_{form}_{q.concept}").set_value(value)
    return submit(at, "Submit my answers")


def test_the_inventory_before_and_after_gives_the_class_its_gain():
    teacher, code, key = create("Inventory")
    learner = join(code, "Eve")
    take(learner, "pre", wrong=6)  # 9 of 15
    assert any("You answered 9 of 15 right." in s.value for s in learner.success)
    assert not learner.error  # before: the score, not the answers
    take(learner, "post", wrong=1)  # 14 of 15
    assert any("You answered 14 of 15 right." in s.value for s in learner.success)
    assert any("your gain is g = 0.83" in m.value for m in learner.markdown)  # (14-9)/(15-9)
    assert len(learner.error) == 1  # the one wrong answer, explained
    s = membership.store().summary(code, key)
    assert (s.pre, s.post, s.matched) == (9 / 15, 14 / 15, 1)
    assert s.gain == pytest.approx(5 / 6)
    rerun(teacher)
    assert metrics(teacher)["Gain g"] == "0.83"


def test_the_inventory_asks_for_every_answer():
    at = load(INVENTORY)
    submit(at, "Submit my answers")
    assert any("Answer all 15 questions first" in w.value for w in at.warning)
    assert not at.success


@pytest.mark.parametrize(
    ("peer", "forwarded", "trust", "counted_as"),
    [
        ("203.0.113.7", None, "", "203.0.113.7"),  # a browser, directly
        ("203.0.113.7", "198.51.100.1", "", "203.0.113.7"),  # a browser sending the header
        ("127.0.0.1", "198.51.100.1, 10.0.0.2", "", "198.51.100.1"),  # through HAProxy
        ("10.1.2.3", "198.51.100.1", "1", "198.51.100.1"),  # through a cluster's ingress
        (None, None, "", ""),  # no browser (AppTest)
    ],
)
def test_wrong_codes_are_counted_per_learner_address(
    monkeypatch, peer, forwarded, trust, counted_as
):
    monkeypatch.setenv("ATTN_TRUST_FORWARDED", trust)
    assert membership.client(peer, forwarded) == counted_as


def test_the_teacher_deletes_the_class_and_everything_in_it():
    teacher, code, key = create("Gone soon")
    learner = join(code, "Fay")
    check_softmax(learner, [None, None])
    submit(teacher, "Delete the class and every answer")  # not ticked: nothing happens
    assert lesson("teach")["Delete unsure"] in [w.value for w in teacher.warning]
    assert membership.store().summary(code, key).answers == 2
    teacher.checkbox[-1].check()
    submit(teacher, "Delete the class and every answer")
    assert any("Gone soon" in s.value and "are deleted" in s.value for s in teacher.success)
    with pytest.raises(ValueError, match="No class has this code"):
        membership.store().summary(code, key)
    check_softmax(learner, [None, None])  # the learner's next check: told, not confirmed
    assert lesson("checks")["Class gone"] in [w.value for w in learner.warning]


def test_a_nickname_in_markdown_stays_the_text_typed_on_the_dashboard():
    """st.table renders its cells as Markdown: a nickname that is a link or a list shows
    as the characters typed (escaped), and the CSV keeps them as they are."""
    teacher, code, key = create("Hostile")
    for nickname in ("[me](http://x)", "1. first", "<b>bold</b>"):
        check_softmax(join(code, nickname), [None, 7.0])
    rerun(teacher)
    learners = teacher.table[-1].value  # "Every learner"
    assert sorted(learners["Learner"]) == sorted(
        ["\\[me\\](http://x)", "1\\. first", "\\<b\\>bold\\</b\\>"]
    )
    names = {r.nickname for r in membership.store().answers(code, key)}
    assert names == {"[me](http://x)", "1. first", "<b>bold</b>"}


NAME = "Misconception: "  # lessons/teach.md's sections that name one for the dashboard
# The checks' headings that state the right idea: under "Misconception" they read as what
# the learners believe, so the dashboard names the wrong idea instead (lessons/teach.md).
CORRECTIONS = {
    "shape_of_x": "A is not X",
    "shape_of_q": "A is not Q",
    "shape_of_z": "A is not Z",
    "output_is_weights": "The output is not A",
    "scores_not_weights": "Scores are not weights",
    "projection_keeps_width": "The projection changes the width",
    "weights_not_projection": "The weights are not the projection",
    "weights_grow_with_sentence": "Weights do not depend on the sentence",
    "words_not_tokens": "Words are not tokens",
}


def test_the_dashboard_names_each_misconception_by_the_wrong_idea():
    from attn_ui.teacher import misconception_words

    checks = lesson("checks")
    for key, heading in CORRECTIONS.items():
        assert checks[key].startswith(f"**{heading}.**"), key  # the lessons' own heading
        assert misconception_words(key) not in ("", heading, key), key
    assert misconception_words("shape_of_q") == "Taking A for Q"
    assert misconception_words("forgot_sqrt") == "Forgetting √d_k"  # a heading that is one
    named = {k.removeprefix(NAME) for k in lesson("teach") if k.startswith(NAME)}
    assert named == set(CORRECTIONS)  # and no name for a misconception the checks lack
