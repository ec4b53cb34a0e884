"""Softmax: agreement with a loop, the facts the lessons state, and bad input."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import attn_core
from attn_core import AttentionInputError
from naive import softmax_row

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True)
finite = st.floats(-50, 50, allow_nan=False, allow_infinity=False)
score_rows = arrays(np.float64, st.tuples(st.integers(1, 5), st.integers(1, 8)), elements=finite)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("shape", [(1,), (7,), (3, 5), (2, 3, 4)])
def test_matches_loop_on_last_axis(seed, shape):
    x = np.random.default_rng(seed).normal(0, 3, shape)
    expected = np.array([softmax_row(r) for r in x.reshape(-1, shape[-1])]).reshape(shape)
    np.testing.assert_allclose(attn_core.softmax(x), expected, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("axis", [0, 1, -2])
def test_other_axis_is_the_transpose_case(axis):
    x = np.random.default_rng(3).normal(0, 2, (4, 6))
    expected = attn_core.softmax(np.swapaxes(x, axis, -1))
    np.testing.assert_allclose(attn_core.softmax(x, axis=axis), np.swapaxes(expected, axis, -1))
    np.testing.assert_allclose(attn_core.softmax(x, axis=axis).sum(axis=axis), 1.0)


def test_softmax_of_zero_and_six_is_the_sigmoid():
    w = attn_core.softmax(np.array([0.0, 6.0]))
    np.testing.assert_allclose(w, [0.0025, 0.9975], atol=5e-5)
    np.testing.assert_allclose(w[1], 1.0 / (1.0 + math.exp(-6.0)), rtol=1e-14)


@SETTINGS
@given(s=finite)
def test_two_way_softmax_is_sigmoid(s):
    np.testing.assert_allclose(attn_core.softmax(np.array([0.0, s]))[1], 1 / (1 + math.exp(-s)))


@SETTINGS
@given(x=score_rows)
def test_rows_are_distributions(x):
    w = attn_core.softmax(x)
    assert w.shape == x.shape
    assert np.all(w >= 0)
    np.testing.assert_allclose(w.sum(axis=-1), 1.0, rtol=1e-12)


@SETTINGS
@given(x=score_rows, c=st.floats(-1e3, 1e3))
def test_invariant_to_adding_a_constant(x, c):
    np.testing.assert_allclose(attn_core.softmax(x + c), attn_core.softmax(x), atol=1e-10)


@SETTINGS
@given(x=score_rows, t_hi=st.floats(0.05, 20), factor=st.floats(0.05, 1.0))
def test_lower_temperature_sharpens(x, t_hi, factor):
    hot = attn_core.softmax(x, temperature=t_hi).max(axis=-1)
    cold = attn_core.softmax(x, temperature=t_hi * factor).max(axis=-1)
    assert np.all(cold >= hot - 1e-12)


@pytest.mark.parametrize("temperature", [0.1, 0.5, 2.0, 7.0])
def test_temperature_divides_the_scores(temperature):
    x = np.random.default_rng(4).normal(0, 2, (3, 5))
    got = attn_core.softmax(x, temperature=temperature)
    np.testing.assert_allclose(got, attn_core.softmax(x / temperature), rtol=1e-12)


def test_huge_scores_do_not_overflow():
    w = attn_core.softmax(np.array([1000.0, 1001.0, 999.0]))
    assert np.all(np.isfinite(w))
    np.testing.assert_allclose(w, softmax_row([1000.0, 1001.0, 999.0]), rtol=1e-12)


def test_minus_inf_gets_exactly_zero():
    w = attn_core.softmax(np.array([[1.0, -np.inf, 2.0], [-np.inf, 0.0, -np.inf]]))
    assert w[0, 1] == 0.0 and w[1, 0] == 0.0 and w[1, 2] == 0.0
    assert w[1, 1] == 1.0


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_float_dtype_is_kept(dtype):
    assert attn_core.softmax(np.ones((2, 3), dtype=dtype)).dtype == dtype


def test_integers_become_float64():
    w = attn_core.softmax([1, 2, 3])
    assert w.dtype == np.float64
    np.testing.assert_allclose(w, softmax_row([1, 2, 3]))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])  # float32: the in-place fast path
@pytest.mark.parametrize("temperature", [0.5, 1.0])  # 1.0: the scores are not copied first
def test_input_is_not_modified(dtype, temperature):
    x = np.array([[1.0, 2.0, 3.0]], dtype=dtype)
    before = x.copy()
    x.flags.writeable = False  # a write into x would raise
    w = attn_core.softmax(x, temperature=temperature)
    np.testing.assert_array_equal(x, before)
    assert not np.shares_memory(w, x)


@pytest.mark.parametrize(
    "x",
    [
        [-np.inf, -np.inf],
        [1.0, np.nan],
        [np.nan, np.nan],
        [1.0, np.inf],
        [[0.0, 1.0], [-np.inf, -np.inf]],
    ],
    ids=["all-minus-inf", "nan", "all-nan", "plus-inf", "one-row-masked"],
)
def test_no_distribution_raises_instead_of_nan(x):
    with pytest.raises(AttentionInputError, match="finite"):
        attn_core.softmax(np.array(x))


@pytest.mark.parametrize("temperature", [0.0, -1.0, np.nan, np.inf, "hot", None])
def test_bad_temperature(temperature):
    with pytest.raises(AttentionInputError, match="temperature"):
        attn_core.softmax(np.ones(3), temperature=temperature)


@pytest.mark.parametrize(
    "x", [[], np.zeros((2, 0)), ["a", "b"], ["1.5", "2"], [1 + 2j, 0j], 3.0], ids=repr
)
def test_unusable_input_raises_a_core_error(x):
    with pytest.raises(AttentionInputError):
        attn_core.softmax(x)
