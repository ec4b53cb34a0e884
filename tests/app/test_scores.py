"""Page 3, scores: S = Q Kᵀ on screen is the engine's; hover and the worked example add up."""

import re

import numpy as np

from attn_ui.step_tables import dot_sum, factor
from tests.support.apptest import (
    RANDOM,
    frame,
    heatmap,
    load,
    rerun,
    shown,
    table,
    type_sentence,
)
from tests.support.apptest import (
    lesson as lesson_at,
)

PAGE = "pages/03_Scores.py"

# These tests read the seeded random weights (d_model, d_k, seed): the lessons open on a real
# head, and a link with weights=random gives the random ones (tests/app/test_default_weights.py).


def lesson(**changes):
    return lesson_at(**(RANDOM | changes))


def ends(score: float) -> str:
    """How a worked sum ends: with the score, after the sum of its rounded products when
    that rounds differently (test_worked_sum_adds_up_as_printed)."""
    total = factor(score).strip("()")
    return re.compile(rf"(= {re.escape(total)}|\({re.escape(total)} from the unrounded numbers\))$")


def test_default_scores_equal_the_engine(loaded):
    at = loaded(PAGE, RANDOM)
    t = lesson().trace
    np.testing.assert_allclose(table(at, "Numbers of Q "), t.q, atol=1e-12)
    np.testing.assert_allclose(table(at, "Numbers of Kᵀ"), t.k.T, atol=1e-12)
    s = table(at, "S = Q Kᵀ")
    np.testing.assert_allclose(s, t.scores, atol=1e-12)
    np.testing.assert_allclose(s, t.q @ t.k.T, atol=1e-12)


def test_hover_writes_out_each_sum_of_products(loaded):
    at = loaded(PAGE, RANDOM)
    t = lesson().trace
    fig = heatmap(at, "S = Q Kᵀ")
    np.testing.assert_array_equal(fig["m"], t.scores)
    i, j = 2, 5
    text = fig["hover"][i][j]  # under the cell's query, key and value
    assert text.startswith(f"q{i}·k{j} = {factor(t.q[i, 0])}×{factor(t.k[j, 0])} + ")
    assert text.count("×") == t.d_k
    assert ends(t.scores[i, j]).search(text)


def test_hover_shortens_long_sums():
    at = load(PAGE, query=RANDOM)
    at.select_slider(key="lesson_w_d_k").set_value(32)
    rerun(at)
    text = heatmap(at, "S = Q Kᵀ")["hover"][0][1]
    assert text.count("×") == 8 and "(24 more products)" in text


def test_picked_query_and_key_are_worked_out():
    at = load(PAGE, query=RANDOM)
    t = lesson().trace
    at.selectbox(key="sc_query").set_value(2)
    at.selectbox(key="sc_key").set_value(5)
    rerun(at)
    worked = frame(at, "q2 × k5")
    np.testing.assert_allclose(worked["q2"], t.q[2])
    np.testing.assert_allclose(worked["k5"], t.k[5])
    np.testing.assert_allclose(worked["q2 × k5"].sum(), t.scores[2, 5], atol=1e-12)
    assert at.text[0].value.startswith("q2 · k5 = ")
    assert ends(t.scores[2, 5]).search(at.text[0].value)


def test_a_shorter_sentence_keeps_a_valid_pick():
    at = load(PAGE, query=RANDOM)
    at.selectbox(key="sc_query").set_value(10)
    rerun(at)
    type_sentence(at, "the cat")
    assert at.selectbox(key="sc_query").value in (0, 1)
    assert frame(at, "k1").shape == (4, 3)


def test_a_new_sentence_shows_the_tokens_the_pickers_use():
    """A picker's label is the token it works with after a new sentence: a position the
    sentence lost falls back to the default, a kept one shows its new token (issue 27)."""
    at = load(PAGE, query=RANDOM)
    at.selectbox(key="sc_query").set_value(4)
    rerun(at)
    keys = ("sc_query", "sc_key")
    before = {k: at.selectbox(key=k).options[at.selectbox(key=k).index] for k in keys}
    type_sentence(at, "dogs bark loudly")
    tokens = lesson(sentence="dogs bark loudly").tokens
    for key, pick in zip(keys, (0, 1), strict=True):  # 4 is gone: the default; 1 is kept
        box = at.selectbox(key=key)
        assert box.value == pick
        assert shown(box, before[key]) == box.options[pick] == f"{pick} {tokens[pick]}"
    assert at.text[0].value.startswith("q0 · k1 = ")


def test_similarity_scores_are_symmetric_dot_products_of_x():
    at = load(PAGE, query=RANDOM)
    at.radio(key="lesson_w_weights").set_value("similarity")
    rerun(at)
    s, x = table(at, "S = Q Kᵀ"), lesson(weights="similarity").x
    np.testing.assert_allclose(s, s.T)
    np.testing.assert_allclose(s, x @ x.T, atol=1e-12)


def test_worked_sum_adds_up_as_printed():
    """The printed products add up to the printed total; the unrounded score follows when it
    rounds differently (three 0.304 × 1 print as 0.30×1.00, which add to 0.90, not 0.91)."""
    q, k = np.array([0.304, 0.304, 0.304]), np.array([1.0, 1.0, 1.0])
    line = dot_sum(q, k, float(q @ k), newline="")
    terms, total = line.split(" = ")
    shown = sum(float(a) * float(b) for a, b in (t.split("×") for t in terms.split(" + ")))
    assert total.startswith(f"{shown:.2f} ") and "(0.91 from the unrounded numbers)" in total
    exact = dot_sum(np.array([0.5, -0.25]), np.array([1.0, 2.0]), 0.0, newline="")
    assert exact.endswith("= 0.00")  # nothing rounded away: the score alone
