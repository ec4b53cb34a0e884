"""The quantities the step pages show beside the main computation, against loops and the core."""

import math

import numpy as np
import pytest

import attn_core
from attn_core import AttentionInputError, ShapeError, explain
from naive import softmax_row


@pytest.mark.parametrize("tau", [0.1, 0.5, 1.0, 2.0, 5.0])
@pytest.mark.parametrize("seed", [0, 1])
def test_softmax_steps_end_in_the_softmax(seed, tau):
    row = np.random.default_rng(seed).normal(0, 3, 7)
    steps = explain.softmax_steps(row, tau)
    np.testing.assert_allclose(steps.weights, softmax_row(list(row / tau)), rtol=1e-12)
    np.testing.assert_allclose(steps.weights, steps.exps / steps.total, rtol=1e-12)
    np.testing.assert_allclose(steps.divided, row / tau)
    assert steps.shifted.max() == 0.0 and steps.exps.max() == 1.0  # the max became exp(0)
    assert math.isclose(steps.weights.sum(), 1.0, rel_tol=1e-12)


def test_softmax_steps_survive_scores_that_would_overflow_exp():
    row = np.array([1000.0, 999.0, -np.inf])
    with np.errstate(over="ignore"):
        assert np.isinf(np.exp(row[0]))  # the naive way overflows
    steps = explain.softmax_steps(row)
    np.testing.assert_allclose(steps.weights, [1 / (1 + math.exp(-1)), 1 / (1 + math.e), 0.0])
    assert steps.weights[2] == 0.0 and steps.exps[2] == 0.0


def test_softmax_steps_refuse_a_row_with_nothing_allowed():
    with pytest.raises(AttentionInputError):
        explain.softmax_steps([-np.inf, -np.inf])


def test_temperature_sweep_sharpens_as_temperature_falls():
    row = np.array([2.0, 1.0, 0.5, -1.0])
    sweep = explain.temperature_sweep(row, [4.0, 2.0, 1.0, 0.5, 0.1])
    np.testing.assert_allclose(sweep.sum(axis=1), 1.0)
    top = sweep[:, 0]
    assert np.all(np.diff(top) > 0)  # the largest score takes more and more
    np.testing.assert_allclose(sweep[2], attn_core.softmax(row))
    with pytest.raises(AttentionInputError):
        explain.temperature_sweep(row, [1.0, 0.0])


def test_row_sums():
    np.testing.assert_allclose(explain.row_sums([[0.25, 0.75], [0.5, 0.0]]), [1.0, 0.5])


@pytest.mark.parametrize("seed", [0, 3])
def test_weighted_sum_parts_add_up_to_the_output_row(seed):
    rng = np.random.default_rng(seed)
    t = attn_core.attention(
        rng.normal(size=(5, 4)), rng.normal(size=(5, 4)), rng.normal(size=(5, 3))
    )
    for i in range(5):
        parts = explain.weighted_sum_parts(t.weights[i], t.v)
        assert parts.shape == (5, 3)
        np.testing.assert_allclose(parts[2], t.weights[i, 2] * t.v[2])
        np.testing.assert_allclose(parts.sum(axis=0), t.output[i], rtol=1e-12, atol=1e-14)


def test_weighted_sum_parts_check_shapes():
    with pytest.raises(ShapeError):
        explain.weighted_sum_parts([0.5, 0.5], np.ones((3, 2)))


def test_additive_mask_is_zero_or_minus_infinity():
    m = explain.additive_mask(attn_core.causal_mask(3))
    assert np.all(m[np.tril_indices(3)] == 0.0)
    assert np.all(m[np.triu_indices(3, 1)] == -np.inf)


def test_mask_after_softmax_is_the_wrong_computation():
    rng = np.random.default_rng(5)
    q, k, v = rng.normal(size=(3, 6, 4))
    mask = attn_core.causal_mask(6)
    right = attn_core.attention(q, k, v, mask=mask, temperature=0.7)
    wrong = explain.mask_after_softmax(right.scaled, mask, temperature=0.7)
    assert np.all(wrong[~mask] == 0.0) and np.all(right.weights[~mask] == 0.0)
    sums = wrong.sum(axis=1)
    assert sums[-1] == pytest.approx(1.0)  # the last row forbids nothing
    assert np.all(sums[:-1] < 1.0)
    # the allowed entries are the unmasked softmax's, not a renormalised distribution
    full = attn_core.softmax(right.scaled / 0.7)
    np.testing.assert_allclose(wrong[mask], full[mask])
    np.testing.assert_allclose(wrong / sums[:, None], right.weights, rtol=1e-12)


def test_mask_after_softmax_leaves_a_fully_masked_row_at_zero_not_nan():
    mask = np.array([[True, False], [False, False]])
    wrong = explain.mask_after_softmax(np.zeros((2, 2)), mask)
    np.testing.assert_array_equal(wrong, [[0.5, 0.0], [0.0, 0.0]])


def test_mean_over_heads_keeps_distributions():
    rng = np.random.default_rng(2)
    w = attn_core.softmax(rng.normal(size=(4, 5, 5)))
    mean = explain.mean_over_heads(w)
    np.testing.assert_allclose(mean, (w[0] + w[1] + w[2] + w[3]) / 4)
    np.testing.assert_allclose(mean.sum(axis=1), 1.0)
    with pytest.raises(ShapeError):
        explain.mean_over_heads(w[0])


def test_bool_mask_accepts_ticks_and_says_what_is_wrong():
    ticks = [[True, np.bool_(False)], [False, True]]
    np.testing.assert_array_equal(explain.bool_mask(ticks, (2, 2)), [[1, 0], [0, 1]])
    with pytest.raises(AttentionInputError, match=r"row 1, column 0.*ticked"):
        explain.bool_mask([[True, False], [None, True]])
    with pytest.raises(AttentionInputError, match="ticked"):
        explain.bool_mask([[1, 0], [0, 1]])
    with pytest.raises(ShapeError, match="one row and one column per token"):
        explain.bool_mask([[True, True]], (2, 2))
    with pytest.raises(ShapeError):
        explain.bool_mask([True, False])
