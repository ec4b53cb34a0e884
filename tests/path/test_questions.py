"""The check-yourself questions (attn_lessons/questions.py): for a few sentences and settings
the right answer is the core's, each misconception's answer is recognised and named, and
the wording exists for every question and misconception."""

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import attn_core
from attn_lessons.questions import STEP_PAGES, NoQuestions, Verdict, for_run, judge, tolerance
from attn_ui.compute import lesson_run
from attn_ui.compute.lessons import lesson_mask
from attn_ui.frame import lesson
from attn_ui.settings import LessonSettings

ROOT = Path(__file__).resolve().parents[2]
SENTENCES = (
    "The cat sat on the mat because the cat was tired.",
    "The animal didn't cross the street because it was too tired.",
    "Bill is going to the theatre to watch a new movie",
)
SETTINGS = [
    LessonSettings(sentence=SENTENCES[0]),  # the real head, the lessons' default
    LessonSettings(sentence=SENTENCES[1], weights="random", seed=3, d_k=8),
    LessonSettings(sentence=SENTENCES[2], weights="similarity", columns=True),
    LessonSettings(sentence=SENTENCES[1], mask="causal"),
    LessonSettings(sentence=SENTENCES[2], weights="random", mask="window", window=2),
    LessonSettings(sentence=SENTENCES[0], weights="random", mask="padding", n_pad=3, columns=True),
]
IDS = ["real", "random", "similarity-by-hand", "real-causal", "random-window", "padding-by-hand"]


def core(s: LessonSettings) -> attn_core.Trace:
    """The head the step pages show, computed here from the run's q, k, v by the core."""
    base = lesson_run(replace(s, mask="none")).trace
    mask = lesson_mask(s, base.q.shape[0])
    return attn_core.attention(base.q, base.k, base.v, mask=mask, temperature=s.temperature)


def asked(page: str, s: LessonSettings):
    multi = page == "multihead"
    if multi and s.weights == "pretrained":
        s = replace(s, weights="random")  # the page asks for toy heads
    run = lesson_run(s, multi=multi)
    trace, unmasked = run.trace, None
    if page == "masking":
        trace, unmasked = core(s), lesson_run(replace(s, mask="none")).trace
    return run, for_run(page, run, s, trace=trace, unmasked=unmasked)


def by_key(qs) -> dict:
    return {q.key: q for q in qs}


def query_of(q) -> int:
    return int(q.fills["query"].split()[0])


def cell_of(q) -> tuple[int, int]:
    """(query i, key j) from the cell's words, in either layout."""
    words = q.fills["cell"].replace("(", " ").split()
    at = {
        words[n]: int(words[n + 1]) for n in range(len(words) - 1) if words[n] in ("row", "column")
    }
    query_axis = "column" if words[0] == "column" else "row"
    key_axis = "row" if query_axis == "column" else "column"
    return at[query_axis], at[key_axis]


@pytest.mark.parametrize("s", SETTINGS, ids=IDS)
def test_right_answers_are_the_cores(s):
    t = core(s)
    qs = by_key(asked("overview", s)[1])
    i = query_of(qs["most_attended"])
    assert qs["most_attended"].answer == int(np.argmax(t.weights[i]))
    n = t.weights.shape[0]
    assert qs["overview_shape"].options[qs["overview_shape"].answer] == f"{n} × {n}"

    qs = by_key(asked("scores", replace(s, mask="none"))[1])
    i, j = cell_of(qs["score_cell"])
    assert qs["score_cell"].answer == pytest.approx(t.q[i] @ t.k[j])
    assert qs["top_score"].answer == int(np.argmax(t.q[query_of(qs["top_score"])] @ t.k.T))

    qs = by_key(asked("scaling", replace(s, mask="none"))[1])
    i, j = cell_of(qs["scaled_cell"])
    assert qs["scaled_cell"].answer == pytest.approx(t.q[i] @ t.k[j] / np.sqrt(t.d_k))
    assert qs["divisor"].answer == pytest.approx(np.sqrt(t.d_k))

    qs = by_key(asked("softmax", s)[1])
    i, j = cell_of(qs["weight_cell"])
    assert qs["weight_cell"].answer == pytest.approx(t.weights[i, j])
    assert qs["row_sum"].answer == pytest.approx(1.0)

    qs = by_key(asked("weighted_sum", s)[1])
    i = query_of(qs["z_cell"])
    assert qs["z_cell"].answer == pytest.approx(t.weights[i] @ t.v[:, 0])

    run, qs = asked("tokens", s)
    assert by_key(qs)["token_count"].answer == len(run.tokens) == run.x.shape[0]
    assert by_key(qs)["token_width"].answer == run.x.shape[1]


@pytest.mark.parametrize("s", SETTINGS, ids=IDS)
@pytest.mark.parametrize("page", STEP_PAGES)
def test_each_misconception_is_recognised_and_named(page, s):
    """The right answer is right; each misconception's answer gets its name; an answer no
    misconception gives is wrong without a name; a blank is 'not answered'."""
    _, qs = asked(page, s)
    if isinstance(qs, NoQuestions):
        assert page == "masking" and s.mask == "none"
        return
    assert 2 <= len(qs) <= 3
    for q in qs:
        assert judge(q, q.answer) == Verdict(True)
        for name, answer in q.wrong:
            assert judge(q, answer).misconception == name, (q.key, name)
            assert not judge(q, answer).correct
        assert judge(q, None) == Verdict(False, answered=False)
        other = _unclaimed(q)
        if other is not None:
            assert judge(q, other) == Verdict(False), (q.key, other)


def _unclaimed(q):
    """An answer that is neither right nor any misconception's, or None if none is left."""
    if q.kind == "number":
        return q.answer + 1000 * q.tolerance + 7.5
    taken = {*q.right, *(a for _, a in q.wrong)}
    if q.kind == "count":
        return next(q.answer + k for k in range(1, 100) if q.answer + k not in taken)
    if q.kind == "cells":
        every = frozenset(range(len(q.options)))
        return every if every not in taken else None
    free = [k for k in range(len(q.options)) if k not in taken]
    return free[0] if free else None


def test_named_misconceptions_hold_their_values():
    """The misconceptions' answers are what the misconception computes, from the core."""
    s = LessonSettings(sentence=SENTENCES[1], weights="random", seed=3, d_k=8)
    t = core(s)
    qs = by_key(asked("overview", s)[1])
    q = qs["most_attended"]
    i = query_of(q)
    assert dict(q.wrong)["rows_vs_columns"] == int(np.argmax(t.weights[:, i]))  # the column

    q = by_key(asked("scaling", s)[1])["scaled_cell"]
    i, j = cell_of(q)
    assert dict(q.wrong)["forgot_sqrt"] == pytest.approx(t.scores[i, j])  # unscaled
    assert dict(q.wrong)["divided_by_d_k"] == pytest.approx(t.scores[i, j] / 8)

    q = by_key(asked("softmax", s)[1])["weight_cell"]
    i, j = cell_of(q)
    by_column = attn_core.softmax(t.scaled, axis=0)
    assert dict(q.wrong)["softmax_wrong_axis"] == pytest.approx(by_column[i, j])
    assert dict(q.wrong)["forgot_sqrt"] == pytest.approx(attn_core.softmax(t.scores[i])[j])


def test_masking_asks_for_the_removed_cells_and_names_masking_after_the_softmax():
    s = LessonSettings(sentence=SENTENCES[0], weights="random", mask="causal")
    t = core(s)
    qs = by_key(asked("masking", s)[1])
    cells, weight = qs["removed_cells"], qs["masked_weight"]
    i = query_of(cells)
    assert cells.answer == frozenset(range(i + 1, t.weights.shape[0]))  # the future keys
    assert dict(cells.wrong)["rows_vs_columns"] == frozenset(range(i))  # column i: the past
    assert cell_of(weight)[0] == i  # the same query's row
    j = cell_of(weight)[1]
    assert j < i  # a key the mask keeps, not the query itself
    assert weight.answer == pytest.approx(t.weights[i, j])
    unmasked = attn_core.softmax(t.scaled[i])[j]  # the weight kept, not renormalised
    assert dict(weight.wrong)["mask_after_softmax"] == pytest.approx(unmasked)
    assert judge(weight, unmasked) == Verdict(False, "mask_after_softmax")
    assert weight.answer > unmasked + 2 * weight.tolerance  # the two are told apart


def test_by_hand_layout_says_column_and_transposes_shapes():
    s = LessonSettings(weights="random", columns=True)
    qs = by_key(asked("softmax", s)[1])
    assert qs["row_sum"].fills["row"] == "column"
    assert qs["weight_cell"].fills["cell"].startswith("column ")
    q = by_key(asked("projection", s)[1])["q_shape"]
    assert q.options[q.answer] == "4 × 12"  # d_k × T: tokens are columns
    assert q.options[dict(q.wrong)["rows_vs_columns"]] == "12 × 4"


@pytest.mark.parametrize("page", STEP_PAGES)
@pytest.mark.parametrize("weights", ["random", "similarity"])
def test_one_token_asks_nothing_and_says_why(page, weights):
    _, qs = asked(page, LessonSettings(sentence="cat", weights=weights))
    assert qs == NoQuestions("one token")


def test_no_mask_asks_nothing_on_the_masking_page():
    assert asked("masking", LessonSettings())[1] == NoQuestions("no mask")


def test_tolerance_allows_reading_a_figure():
    assert tolerance(0.25) == 0.006 and tolerance(50.0) == pytest.approx(0.3)


@pytest.mark.parametrize("s", SETTINGS, ids=IDS)
@pytest.mark.parametrize("page", STEP_PAGES)
def test_every_question_has_wording_and_no_nan(page, s):
    """Every question and misconception has its section in lessons/checks.md, every blank
    is filled, and no number is NaN or infinite."""
    text = lesson("checks")
    _, qs = asked(page, s)
    if isinstance(qs, NoQuestions):
        assert qs.reason in text
        return
    for q in qs:
        wording = text[q.key]
        for blank, value in q.fills.items():
            wording = wording.replace("{" + blank + "}", value)
        assert "{" not in wording, (q.key, wording)
        for name, answer in q.wrong:
            assert name in text, name
            if q.kind == "number":
                assert np.isfinite(answer)
        if q.kind == "number":
            assert np.isfinite(q.answer) and q.tolerance > 0


def test_the_question_module_imports_no_streamlit():
    """Pure: NumPy and attn_core only, so that it can be tested and reused without an app."""
    code = "import sys, attn_lessons.questions; sys.exit('streamlit' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True)
    assert done.returncode == 0, done.stderr.decode()


def test_the_questions_cover_exactly_the_menus_step_pages():
    """Every page of the menu's "The steps" group has its questions (the menu's ✓ marks come
    from checks), and there are none for a page the menu does not list."""
    from attn_ui.registry import in_group

    assert tuple(p.name for p in in_group("The steps")) == STEP_PAGES
