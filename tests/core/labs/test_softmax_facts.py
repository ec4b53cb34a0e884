"""attn_core.labs.softmax_facts: one row step by step, sigmoid, temperature, argmax, input."""

import math

import numpy as np
import pytest

import attn_core
from attn_core import AttentionInputError, ShapeError
from attn_core.labs.softmax_facts import (
    MAX_SCORES,
    hardmax,
    parse_scores,
    sigmoid,
    softmax_pair,
    softmax_steps,
    temperature_sweep,
    vary_one,
)
from naive import softmax_row


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
        ("1, two, 3", "Score s1 is not"),
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


def head_with_scores(row, temperature=1.0):
    """A one-query head whose masked scores are `row`: q k^T = row, -inf entries masked."""
    row = np.asarray(row, dtype=float)
    allowed = np.isfinite(row)
    k = np.where(allowed, row, 0.0)[:, None]  # (T, 1): q = [[1]], so q k^T = row
    v = np.eye(len(row))
    return attn_core.attention(
        np.ones((1, 1)), k, v, mask=allowed[None, :], scale=1.0, temperature=temperature
    )


@pytest.mark.parametrize("tau", [0.1, 0.5, 1.0, 2.0, 5.0])
@pytest.mark.parametrize("seed", [0, 1])
def test_softmax_steps_end_in_the_softmax(seed, tau):
    row = np.random.default_rng(seed).normal(0, 3, 7)
    steps = softmax_steps(head_with_scores(row, tau), 0)
    np.testing.assert_allclose(steps.weights, softmax_row(list(row / tau)), rtol=1e-12)
    np.testing.assert_allclose(steps.weights, steps.exps / steps.total, rtol=1e-12)
    np.testing.assert_allclose(steps.divided, row / tau)
    assert steps.shifted.max() == 0.0 and steps.exps.max() == 1.0  # the max became exp(0)
    assert math.isclose(steps.weights.sum(), 1.0, rel_tol=1e-12)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_softmax_steps_show_the_weights_of_the_trace_itself(dtype):
    rng = np.random.default_rng(6)
    q, k, v = (rng.normal(size=(5, 4)).astype(dtype) for _ in range(3))
    t = attn_core.attention(q, k, v, mask=attn_core.causal_mask(5), temperature=0.7)
    for i in range(5):
        steps = softmax_steps(t, i)
        np.testing.assert_array_equal(steps.weights, t.weights[i])  # the same numbers
        if dtype == np.float64:
            assert np.shares_memory(steps.weights, t.weights)  # not even copied
        np.testing.assert_array_equal(steps.scores, t.masked[i])
        np.testing.assert_allclose(steps.exps / steps.total, t.weights[i], rtol=1e-6, atol=1e-7)
        assert np.all(steps.exps[i + 1 :] == 0.0)  # masked keys: exp(-inf) = 0


def test_softmax_steps_survive_scores_that_would_overflow_exp():
    row = np.array([1000.0, 999.0, -np.inf])
    with np.errstate(over="ignore"):
        assert np.isinf(np.exp(row[0]))  # the naive way overflows
    steps = softmax_steps(head_with_scores(row), 0)
    np.testing.assert_allclose(steps.weights, [1 / (1 + math.exp(-1)), 1 / (1 + math.e), 0.0])
    assert steps.weights[2] == 0.0 and steps.exps[2] == 0.0


def test_a_row_with_nothing_allowed_never_reaches_the_steps():
    with pytest.raises(AttentionInputError):
        head_with_scores([-np.inf, -np.inf])  # attention refuses a fully masked row


def test_softmax_steps_need_one_head_and_a_row_of_it():
    t = head_with_scores([1.0, 2.0])
    with pytest.raises(AttentionInputError, match="query row from 0 to 0"):
        softmax_steps(t, 1)
    heads = attn_core.attention(*np.ones((3, 2, 3, 4)))  # two heads at once
    with pytest.raises(ShapeError, match="one head"):
        softmax_steps(heads, 0)


def test_temperature_sweep_sharpens_as_temperature_falls():
    row = np.array([2.0, 1.0, 0.5, -1.0])
    sweep = temperature_sweep(row, [4.0, 2.0, 1.0, 0.5, 0.1])
    np.testing.assert_allclose(sweep.sum(axis=1), 1.0)
    top = sweep[:, 0]
    assert np.all(np.diff(top) > 0)  # the largest score takes more and more
    np.testing.assert_allclose(sweep[2], attn_core.softmax(row))
    with pytest.raises(AttentionInputError):
        temperature_sweep(row, [1.0, 0.0])
