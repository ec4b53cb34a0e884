"""The overview page shows the engine's numbers for the learner's sentence and settings."""

import numpy as np

from tests.support.apptest import (
    RANDOM,
    canvas_grids,
    load,
    matrices,
    numeric_tables,
    rerun,
    table,
)
from tests.support.apptest import lesson as lesson_at

PAGE = "pages/00_Overview.py"

# These tests read the seeded random weights (d_model, d_k, seed): the lessons open on a real
# head, and a link with weights=random gives the random ones (tests/app/test_default_weights.py).


def lesson(**changes):
    return lesson_at(**(RANDOM | changes))


def test_default_numbers_equal_the_engine(loaded):
    at = loaded(PAGE, RANDOM)
    run = lesson()
    np.testing.assert_allclose(table(at, "A = softmax"), run.trace.weights, atol=1e-12)
    np.testing.assert_allclose(table(at, "Z = A V"), run.trace.output, atol=1e-12)
    assert table(at, "X").shape == (len(run.tokens), 8)


def test_sentence_with_repeated_word_keeps_every_row():
    at = load(PAGE, query=RANDOM)
    at.text_input(key="lesson_w_sentence").input("the cat saw the cat").run()
    weights = table(at, "A = softmax")
    assert weights.shape == (5, 5)
    # identical tokens have identical embeddings, so identical rows of weights
    np.testing.assert_allclose(weights[1], weights[4])


def test_causal_mask_zeroes_the_future():
    at = load(PAGE, query=RANDOM)
    at.selectbox(key="lesson_w_mask").select("causal")
    rerun(at)
    w = table(at, "A = softmax")
    assert np.all(w[np.triu_indices_from(w, 1)] == 0)
    np.testing.assert_allclose(w.sum(axis=1), 1.0)


def test_d_k_slider_changes_q_width():
    at = load(PAGE, query=RANDOM)
    at.select_slider(key="lesson_w_d_k").set_value(2)
    rerun(at)
    assert table(at, "Q = X W_Q").shape[1] == 2
    run = lesson(d_k=2)
    np.testing.assert_allclose(table(at, "A = softmax"), run.trace.weights, atol=1e-12)


def test_empty_sentence_says_what_to_do():
    at = load(PAGE, query=RANDOM)
    at.text_input(key="lesson_w_sentence").input("   ").run()
    assert not at.exception
    assert at.error and "sentence" in at.error[0].value.lower()


def test_fully_masked_row_is_explained_not_nan():
    at = load(PAGE, query=RANDOM)
    at.text_input(key="lesson_w_sentence").input("one two three").run()
    at.selectbox(key="lesson_w_mask").select("padding")
    rerun(at)
    at.slider(key="lesson_w_n_pad").set_value(3)
    rerun(at)
    assert at.error and "may not look at any key" in at.error[0].value
    # the run stops before any matrix: no table or figure is left to show a NaN
    assert not numeric_tables(at) and not canvas_grids(at) and not at.get("plotly_chart")


def test_link_carries_settings_and_ignores_bad_values():
    at = load(
        PAGE, query=RANDOM | {"sentence": "a b c", "n_heads": "4", "d_model": "16", "d_k": "7"}
    )
    assert at.warning and "d_k" in at.warning[0].value  # 7 is not offered
    table(at, "X")  # opens the numbers
    assert len([m for m in matrices(at) if m.startswith("head ")]) == 4
    assert table(at, "A = softmax").shape == (3, 3)
    assert table(at, "concat(heads) W_O").shape == (3, 16)


def test_link_carries_the_toggles_and_mask_sizes():
    at = load(
        PAGE,
        query=RANDOM
        | {"show_numbers": "False", "columns": "True", "mask": "window", "window": "3"},
    )
    assert not at.toggle(key="lesson_w_show_numbers").value
    assert at.toggle(key="lesson_w_columns").value
    assert at.slider(key="lesson_w_window").value == 3
    assert not at.warning
    at = load(PAGE, query=RANDOM | {"columns": "yes"})
    assert at.warning and "columns" in at.warning[0].value
    assert not at.toggle(key="lesson_w_columns").value
