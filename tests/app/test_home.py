"""The home page starts with the learner's sentence and attention on it: the lessons' head's A,
live, a sentence on what to notice read from its numbers, the weight source, then every page."""

import numpy as np
from streamlit.testing.v1 import AppTest

from attn_ui import first_screen
from attn_ui.registry import GROUPS
from tests.support.apptest import ROOT, heatmap, lesson, rerun, type_sentence

A = "A: how much each query attends"


def home(query: dict | None = None) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    if query:
        at.query_params.update(query)
    return rerun(at)


def test_home_draws_the_lessons_head_on_the_default_sentence_then_the_pages():
    at = home()
    run = lesson()
    np.testing.assert_array_equal(heatmap(at, A)["m"], run.trace.weights)
    i, j = first_screen.strongest_row(run.trace.weights, run.tokens)
    words = f"gives **{run.trace.weights[i, j]:.2f}** of its attention to “{run.tokens[j]}”"
    assert any(words in m.value for m in at.markdown)
    assert [h.value for h in at.header] == list(GROUPS)  # every group, after the figure


def test_a_new_sentence_redraws_a_and_its_notice():
    at = type_sentence(home(), "the dog chased the ball")
    run = lesson(sentence="the dog chased the ball")
    np.testing.assert_array_equal(heatmap(at, A)["m"], run.trace.weights)
    assert at.query_params["sentence"] == "the dog chased the ball"
    i, j = first_screen.strongest_row(run.trace.weights, run.tokens)
    said = f"“{run.tokens[i]}” (row {i}) gives **{run.trace.weights[i, j]:.2f}**"
    assert any(said in m.value for m in at.markdown)


def test_random_weights_are_one_click_away_on_home():
    at = home()
    at.radio(key="lesson_w_weights").set_value("random")
    rerun(at)
    np.testing.assert_array_equal(heatmap(at, A)["m"], lesson(weights="random").trace.weights)
    assert at.query_params["weights"] == "random"


def test_the_by_hand_layout_says_columns():
    """With tokens as columns the figure is transposed and the notice reads columns first."""
    at = home({"columns": "True"})
    run = lesson(columns=True)
    np.testing.assert_array_equal(heatmap(at, "A, by-hand")["m"], run.trace.weights.T)
    assert any("Each column of A" in m.value for m in at.markdown)


def test_strongest_row_skips_the_markers():
    """The notice points at a word's row and a word's column, not [CLS] or [SEP], even when a
    marker holds the largest weight."""
    weights = np.array([[0.9, 0.1, 0.0], [0.7, 0.2, 0.1], [0.1, 0.3, 0.6]])
    assert first_screen.strongest_row(weights, ["[CLS]", "a", "b"]) == (2, 2)
    assert first_screen.strongest_row(weights, ["x", "a", "b"]) == (0, 0)


def test_an_overlong_sentence_keeps_the_page_list():
    """A sentence over 64 tokens gets its message; the list of pages still follows."""
    at = type_sentence(home(), " ".join(["word"] * 80))
    assert at.error and "64" in at.error[0].value
    assert [h.value for h in at.header] == list(GROUPS)
