"""Each step page's "check yourself": right answers mark the page in the menu (✓), a wrong
answer that a misconception gives is explained by its name; the pipeline box sits on top."""

import pytest
from streamlit.proto.LabelVisibility_pb2 import LabelVisibility

from attn_ui.compute import lesson_run
from attn_ui.frame import lesson, pipeline
from attn_ui.settings import LessonSettings
from tests.support.apptest import load, rerun
from tests.support.checks import OPENS_ON, STEPS, questions, widget_key


def answer(at, name: str, q, value) -> None:
    key = widget_key(name, q)
    if q.kind == "choice":
        at.selectbox(key=key).set_value(value)
    elif q.kind == "cells":
        at.multiselect(key=key).set_value(sorted(value))
    else:
        at.number_input(key=key).set_value(value)


def check(at):
    [button] = [b for b in at.button if b.label == "Check"]
    button.click()
    return rerun(at)


def menu(at) -> dict[str, str]:
    """The steps' menu labels by page path."""
    return {p.proto.page: p.proto.label for p in at.get("page_link")}


def marked(at, name: str) -> bool:
    labels = [p.proto.label for p in at.get("page_link")]
    title = STEPS[name].title
    assert title in labels or f"✓ {title}" in labels, labels
    return f"✓ {title}" in labels


@pytest.mark.parametrize("name", list(STEPS))
def test_right_answers_mark_the_page_in_the_menu(name):
    at = load(STEPS[name].path, query=OPENS_ON.get(name))
    qs = questions(name)
    assert not marked(at, name)
    assert at.subheader[-1].value == "Check yourself"
    for q in qs:
        answer(at, name, q, q.answer)
    check(at)
    assert [s.value for s in at.success][-1].startswith("All right")
    assert marked(at, name)  # the menu of the very run that shows the verdict


@pytest.mark.parametrize("name", list(STEPS))
def test_a_misconception_is_named(name):
    """The first question's first misconception: its answer is wrong, and the message
    names that misconception (the bold name its lesson text starts with)."""
    at = load(STEPS[name].path, query=OPENS_ON.get(name))
    qs = questions(name)
    q = next(q for q in qs if q.wrong)
    misconception, value = q.wrong[0]
    answer(at, name, q, value)
    check(at)
    errors = [e.value for e in at.error]
    title = lesson("checks")[misconception].split("**")[1]  # '**Rows vs columns.** ...'
    assert any(e.startswith("Not quite.") and title in e for e in errors), errors
    assert not marked(at, name)


def test_a_wrong_answer_no_misconception_gives_is_explained_for_its_question():
    """The divisor's own words, quoting the answer: not the cells' "which matrix?"."""
    at = load(STEPS["scaling"].path)
    q = questions("scaling")[1]  # the divisor
    answer(at, "scaling", q, 123.0)
    check(at)
    errors = [e.value for e in at.error]
    assert any(e.startswith("Not quite. Not that: 123 is not the divisor.") for e in errors)
    assert not any("{" in e for e in errors), errors


def test_the_by_hand_layout_asks_about_columns():
    at = load(STEPS["softmax"].path, query={"columns": "True"})
    labels = [n.label for n in at.number_input if n.key.startswith("chk_")]
    assert "column of A" in labels[0], labels


def test_one_token_says_why_there_are_no_questions():
    at = load(STEPS["softmax"].path, query={"weights": "random", "sentence": "cat"})
    assert lesson("checks")["one token"].split("\n")[0] in [i.value.split("\n")[0] for i in at.info]
    assert not [b for b in at.button if b.label == "Check"]


def test_progress_survives_pages_and_can_be_reset():
    at = load(STEPS["scores"].path)
    for q in questions("scores"):
        answer(at, "scores", q, q.answer)
    check(at)
    at.switch_page(STEPS["softmax"].path)
    rerun(at)
    assert marked(at, "scores") and not marked(at, "softmax")
    at.button(key="nav_reset_progress").click()
    rerun(at)
    assert not marked(at, "scores")
    assert not [b for b in at.button if b.key == "nav_reset_progress"]


@pytest.mark.parametrize("name", list(STEPS))
def test_the_pipeline_box_says_where_the_page_sits(name):
    """The pipeline line (the page's stage in bold) and the page's hand-over sentence with
    this sentence's shapes, before the page's first section."""
    at = load(STEPS[name].path, query=OPENS_ON.get(name))
    drawn = [m.value for m in at.markdown]
    line = pipeline(name)
    assert drawn.index(line) < 3  # right under the title (and the menu's text)
    if name != "overview":
        assert line.count("**") == 4  # the lead, and the page's own stage, in bold
    box = next(c for c in at.get("flex_container") if c.proto.id.endswith(f"where_{name}"))
    handover = box.markdown[0].value
    s = LessonSettings(**OPENS_ON.get(name, {}))
    t = len(lesson_run(s).tokens)
    assert f"{t} × " in handover, handover
    assert "{" not in handover


def test_the_pipeline_box_follows_the_by_hand_layout():
    at = load(STEPS["projection"].path, query={"columns": "True", "weights": "random"})
    handover = [m.value for m in at.markdown if m.value.startswith("From step 1")][0]
    assert "X, 8 × 12" in handover and "each 4 × 12" in handover  # features × tokens


def test_the_masking_page_without_a_mask_says_why_it_asks_nothing():
    at = load(STEPS["masking"].path, query={"mask": "none"})
    assert lesson("checks")["no mask"].split("\n")[0] in [i.value.split("\n")[0] for i in at.info]
    assert not [b for b in at.button if b.label == "Check"]


def test_a_token_with_markdowns_characters_reaches_screen_readers_as_typed():
    """A query token `_` (Markdown's emphasis) in a question: the input's own label, which is
    its aria-label, holds the words as they are (no backslash for a screen reader to read
    out), hidden; the words shown above it are made safe for Markdown. A question with
    plain words keeps its ordinary label."""
    sentence = "the *cat* sat [on] _mat_"
    at = load("pages/03_Scores.py", query={"sentence": sentence, "weights": "random"})
    qs = questions("scores", sentence=sentence, weights="random")
    inputs = [at.number_input(key=widget_key("scores", q)) for q in qs if q.kind == "number"]
    inputs += [at.selectbox(key=widget_key("scores", q)) for q in qs if q.kind == "choice"]
    odd = [w for w in inputs if "“8 _”" in w.label]
    assert odd, [w.label for w in inputs]  # the question does quote the `_` token
    for w in odd:
        assert "\\" not in w.label
        assert w.proto.label_visibility.value == LabelVisibility.COLLAPSED
    shown = [m.value for m in at.markdown if "“8 \\_”" in m.value]
    assert len(shown) == len(odd) and all(s[0].isdigit() and s[1:3] == "\\." for s in shown)

    plain = load("pages/03_Scores.py", query={"weights": "random"})
    qs = questions("scores", weights="random")
    ws = [plain.number_input(key=widget_key("scores", q)) for q in qs if q.kind == "number"]
    assert ws and all(w.proto.label_visibility.value == LabelVisibility.VISIBLE for w in ws)
