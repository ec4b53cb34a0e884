"""attn_core.softmax_facts: sigmoid, temperature, argmax and the learner's typed scores."""

import math

import numpy as np
import pytest

import attn_core
from attn_core import AttentionInputError
from attn_core.softmax_facts import (
    MAX_SCORES,
    hardmax,
    parse_scores,
    sigmoid,
    softmax_pair,
    vary_one,
)


@pytest.mark.parametrize("s", [-30.0, -6.0, -1.5, 0.0, 0.25, 6.0, 40.0])
def test_softmax_of_zero_and_s_is_the_sigmoid(s):
    pair = softmax_pair(s)
    assert pair[1] == pytest.approx(1 / (1 + math.exp(-s)), rel=1e-12)
    assert pair[0] == pytest.approx(1 / (1 + math.exp(s)), rel=1e-12)
    assert sigmoid(s) == pytest.approx(pair[1], rel=1e-12)


def test_the_lesson_example_at_s_6():
    np.testing.assert_allclose(softmax_pair(6.0), [0.0025, 0.9975], atol=5e-5)
    assert round(float(sigmoid(6.0)), 4) == 0.9975


def test_sigmoid_does_not_overflow_and_keeps_shape():
    s = np.array([[-1000.0, 0.0], [1000.0, 2.0]])
    out = sigmoid(s)
    assert out.shape == (2, 2) and np.all(np.isfinite(out))
    np.testing.assert_allclose(out, [[0.0, 0.5], [1.0, 1 / (1 + math.exp(-2))]])
    np.testing.assert_allclose(softmax_pair(s)[..., 1], out)


def test_multiplying_scores_by_c_is_temperature_one_over_c():
    s = np.array([2.0, 1.0, 0.5, -1.0])
    for c in (2.0, 5.0):
        sharp = attn_core.softmax(c * s)
        np.testing.assert_allclose(sharp, attn_core.softmax(s, temperature=1 / c))
        assert sharp.max() > attn_core.softmax(s).max()


def test_hardmax_is_the_limit_of_a_cold_softmax():
    s = np.array([[0.3, 2.0, -1.0], [5.0, 5.0, 1.0]])
    np.testing.assert_array_equal(hardmax(s), [[0, 1, 0], [1, 0, 0]])  # a tie: the first
    np.testing.assert_allclose(
        attn_core.softmax(s[:1], temperature=0.01), hardmax(s[:1]), atol=1e-12
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2, 1, 0.5, -1", [2, 1, 0.5, -1]),
        ("2 1\t3", [2, 1, 3]),
        ("−1; 1e-3 ;+4", [-1, 0.001, 4]),
        (",1,,2,", [1, 2]),
    ],
)
def test_parse_scores_reads_numbers(text, expected):
    np.testing.assert_array_equal(parse_scores(text), expected)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "between 2 and"),
        ("3", "you typed 1"),
        (", ".join(["1"] * (MAX_SCORES + 1)), "you typed 13"),
        ("1, two, 3", "Score 2 is not"),
        ("1, nan", "not a finite number"),
        ("inf, 1", "not a finite number"),
        ("1, 1e999", "not a finite number"),
        ("1, 101", "between -100 and 100"),
        ("<b>1</b>, 2", "not a finite number"),
    ],
)
def test_parse_scores_explains_bad_input(text, words):
    with pytest.raises(AttentionInputError) as exc:
        parse_scores(text)
    assert words in str(exc.value)
    assert "<b>" not in str(exc.value) and "two" not in str(exc.value)  # no echo: no Markdown


def test_vary_one_soft_is_smooth_hard_jumps():
    row = np.array([1.0, 0.0, 2.0])
    values = np.linspace(-3, 5, 81)
    sweep = vary_one(row, 0, values, temperature=0.5)
    for n, v in enumerate(values):
        r = row.copy()
        r[0] = v
        np.testing.assert_allclose(sweep.soft[n], attn_core.softmax(r, temperature=0.5))
        np.testing.assert_array_equal(sweep.hard[n], hardmax(r))
    assert set(np.unique(sweep.hard[:, 0])) == {0.0, 1.0}  # a step at 2
    assert np.all(np.diff(sweep.soft[:, 0]) > 0) and np.all(sweep.slope > 0)
    numeric = np.gradient(sweep.soft[:, 0], values)
    np.testing.assert_allclose(sweep.slope[1:-1], numeric[1:-1], rtol=0.02)


@pytest.mark.parametrize("bad", [{"j": 3}, {"j": -1}, {"j": True}, {"temperature": 0}])
def test_vary_one_rejects_bad_arguments(bad):
    args = {"j": 0, "temperature": 1.0} | bad
    with pytest.raises(AttentionInputError):
        vary_one([1.0, 2.0, 3.0], args["j"], [0.0, 1.0], args["temperature"])
