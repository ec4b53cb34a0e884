"""Lab 41, softmax: typed scores, temperature, argmax, the nudge and the sigmoid, as the core."""

import math

import numpy as np
import pytest

import attn_core
from attn_core.labs import softmax_facts
from tests.support.apptest import canvas_chart, chart_values, chart_x, frame, load, rerun
from tests.support.bad_input import no_html

PAGE = "pages/41_Softmax_lab.py"
DEFAULT = np.array([2.0, 1.0, 0.5, -1.0])


def selection(at):
    return frame(at, "score s")  # the selection table (the chart's table has an argmax too)


def type_scores(at, text: str):
    at.text_input(key="softmax_lab_scores").input(text)
    return rerun(at)


def test_default_scores_soft_and_hard_selection_equal_the_core(loaded):
    at = loaded(PAGE)
    df = selection(at)
    np.testing.assert_array_equal(df["score s"], DEFAULT)
    np.testing.assert_allclose(df["softmax"], attn_core.softmax(DEFAULT), rtol=1e-12)
    np.testing.assert_array_equal(df["argmax"], [1, 0, 0, 0])
    fig = canvas_chart(at, "Soft and hard selection at τ = 1")
    np.testing.assert_allclose(chart_values(fig, "softmax(s / 1)"), attn_core.softmax(DEFAULT))
    np.testing.assert_array_equal(chart_values(fig, "argmax"), [1, 0, 0, 0])


def test_temperature_sharpens_and_flattens():
    at = load(PAGE)
    at.select_slider(key="softmax_lab_tau").set_value(0.2)
    rerun(at)
    sharp = selection(at)["softmax"].to_numpy()
    np.testing.assert_allclose(sharp, attn_core.softmax(DEFAULT / 0.2), rtol=1e-12)
    np.testing.assert_allclose(selection(at)["s / 0.2"], DEFAULT / 0.2)
    at.select_slider(key="softmax_lab_tau").set_value(10.0)
    rerun(at)
    flat = selection(at)["softmax"].to_numpy()
    assert sharp.max() > attn_core.softmax(DEFAULT).max() > flat.max() > 0.25
    path = canvas_chart(at, "Each weight as τ changes")
    taus = chart_x(path, "s0 = 2")
    np.testing.assert_allclose(
        chart_values(path, "s0 = 2"), [attn_core.softmax(DEFAULT / t)[0] for t in taus]
    )


def test_typed_scores_with_a_tie():
    at = type_scores(load(PAGE), "3; 3 −1")
    df = selection(at)
    np.testing.assert_array_equal(df["score s"], [3, 3, -1])
    np.testing.assert_array_equal(df["argmax"], [1, 0, 0])  # a tie goes to the first
    assert df["softmax"].iloc[0] == pytest.approx(df["softmax"].iloc[1])


def test_nudging_a_score_moves_softmax_smoothly_and_argmax_in_one_jump():
    at = load(PAGE)
    at.selectbox(key="softmax_lab_j").select(2)
    rerun(at)
    fig = canvas_chart(at, "Weight of s2 as its score moves")
    moved = chart_x(fig, "softmax weight of s2")
    sweep = softmax_facts.vary_one(DEFAULT, 2, moved)
    np.testing.assert_allclose(chart_values(fig, "softmax weight of s2"), sweep.soft[:, 2])
    hard = chart_values(fig, "argmax weight of s2")
    np.testing.assert_array_equal(hard, sweep.hard[:, 2])
    assert np.count_nonzero(np.diff(hard)) == 1 and hard[0] == 0 and hard[-1] == 1
    assert moved[np.argmax(hard)] >= 2.0  # it takes over once it reaches the leader, 2
    p = attn_core.softmax(DEFAULT)[2]
    assert f"{p * (1 - p):.4f}" in at.caption[-1].value


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "between 2 and 12"),
        ("4", "you typed 1"),
        (", ".join(["1"] * 13), "you typed 13"),
        ("1, two", "Score s1 is not a finite number"),
        ("nan, 1", "Score s0 is not a finite number"),
        ("1, 1e999", "Score s1 is not a finite number"),
        ("1, 500", "between -100 and 100"),
        ("<b>1</b>, **2**", "Score s0 is not a finite number"),
    ],
)
def test_bad_scores_get_a_message_and_the_rest_of_the_page_works(text, words):
    at = type_scores(load(PAGE), text)
    assert at.error and words in at.error[0].value, [e.value for e in at.error]
    assert "**" not in at.error[0].value
    with pytest.raises(AssertionError):
        selection(at)  # no table of weights from a bad row
    assert frame(at, "rounded").shape == (4, 2)  # the sigmoid part still works
    no_html(at)


def test_softmax_of_zero_and_six_is_the_lesson_example(loaded):
    at = loaded(PAGE)
    pair = frame(at, "rounded")
    assert list(pair["rounded"]) == [0.0025, 0.0025, 0.9975, 0.9975]
    assert pair["value"].iloc[2] == pytest.approx(1 / (1 + math.exp(-6)), rel=1e-12)
    fig = canvas_chart(at, "lies on the sigmoid curve")
    s = chart_x(fig, "softmax({0, s}), second weight")
    np.testing.assert_allclose(
        chart_values(fig, "softmax({0, s}), second weight"), 1 / (1 + np.exp(-s))
    )


@pytest.mark.parametrize("s", [0.0, -3.5, 10.0])
def test_s_slider_moves_the_pair(s):
    at = load(PAGE)
    at.slider(key="softmax_lab_s").set_value(s)
    rerun(at)
    pair = frame(at, "rounded")["value"].to_numpy()
    sig = 1 / (1 + math.exp(-s))
    np.testing.assert_allclose(pair, [1 - sig, 1 - sig, sig, sig], rtol=1e-12)
    assert chart_values(canvas_chart(at, "sigmoid curve"), f"s = {s:g}")[0] == pytest.approx(sig)
