"""Page 3, scores: S = Q Kᵀ on screen is the engine's; hover and the worked example add up."""

import numpy as np

from attn_ui.step_tables import factor
from tests.support.apptest import (
    frame,
    heatmap,
    lesson,
    load,
    rerun,
    table,
    type_sentence,
)

PAGE = "pages/03_Scores.py"


def test_default_scores_equal_the_engine(loaded):
    at = loaded(PAGE)
    t = lesson().trace
    np.testing.assert_allclose(table(at, "Numbers of Q "), t.q, atol=1e-12)
    np.testing.assert_allclose(table(at, "Numbers of Kᵀ"), t.k.T, atol=1e-12)
    s = table(at, "S = Q Kᵀ")
    np.testing.assert_allclose(s, t.scores, atol=1e-12)
    np.testing.assert_allclose(s, t.q @ t.k.T, atol=1e-12)


def test_hover_writes_out_each_sum_of_products(loaded):
    at = loaded(PAGE)
    t = lesson().trace
    fig = heatmap(at, "S = Q Kᵀ")
    np.testing.assert_array_equal(fig["m"], t.scores)
    i, j = 2, 5
    text = fig["hover"][i][j]  # under the cell's query, key and value
    assert text.startswith(f"q{i}·k{j} = {factor(t.q[i, 0])}×{factor(t.k[j, 0])} + ")
    assert text.count("×") == t.d_k
    assert text.endswith(f"= {factor(t.scores[i, j]).strip('()')}")


def test_hover_shortens_long_sums():
    at = load(PAGE)
    at.select_slider(key="lesson_w_d_k").set_value(32)
    rerun(at)
    text = heatmap(at, "S = Q Kᵀ")["hover"][0][1]
    assert text.count("×") == 8 and "(24 more products)" in text


def test_picked_query_and_key_are_worked_out():
    at = load(PAGE)
    t = lesson().trace
    at.selectbox(key="sc_query").set_value(2)
    at.selectbox(key="sc_key").set_value(5)
    rerun(at)
    worked = frame(at, "q2 × k5")
    np.testing.assert_allclose(worked["q2"], t.q[2])
    np.testing.assert_allclose(worked["k5"], t.k[5])
    np.testing.assert_allclose(worked["q2 × k5"].sum(), t.scores[2, 5], atol=1e-12)
    assert at.code[0].value.startswith("q2 · k5 = ")
    assert at.code[0].value.endswith(f"= {factor(t.scores[2, 5]).strip('()')}")


def test_a_shorter_sentence_keeps_a_valid_pick():
    at = load(PAGE)
    at.selectbox(key="sc_query").set_value(10)
    rerun(at)
    type_sentence(at, "the cat")
    assert at.selectbox(key="sc_query").value in (0, 1)
    assert frame(at, "k1").shape == (4, 3)


def test_similarity_scores_are_symmetric_dot_products_of_x():
    at = load(PAGE)
    at.radio(key="lesson_w_weights").set_value("similarity")
    rerun(at)
    s, x = table(at, "S = Q Kᵀ"), lesson(weights="similarity").x
    np.testing.assert_allclose(s, s.T)
    np.testing.assert_allclose(s, x @ x.T, atol=1e-12)
