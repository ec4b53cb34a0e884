"""attn_core.fast against the plain forms it stands in for."""

import math

import numpy as np
import pytest

import attn_core
from attn_core import fast
from attn_core.pretrained.bert_layer import gelu


def plain_softmax(x, axis=-1):
    """The lesson's three lines, in x's own dtype."""
    m = x.max(axis, keepdims=True)
    e = np.exp(x - m)
    return e / e.sum(axis, keepdims=True)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("shape", [(1,), (7,), (5, 12), (3, 58, 58), (2, 4, 130)])
def test_fast_softmax_is_the_plain_one_within_float32_rounding(seed, shape):
    x = np.random.default_rng(seed).normal(0, 3, shape).astype(np.float32)
    got = fast.softmax(x)
    assert got.dtype == np.float32 and got.shape == x.shape
    # the row sums differ in their last bits, so each weight by a few units of 6e-8
    np.testing.assert_allclose(got, plain_softmax(x), rtol=1e-6, atol=0)
    exact = plain_softmax(x.astype(np.float64))
    np.testing.assert_allclose(got, exact, rtol=2e-6, atol=1e-9)


@pytest.mark.parametrize("axis", [0, 1, -2])
def test_fast_softmax_along_another_axis(axis):
    x = np.random.default_rng(3).normal(0, 2, (4, 6, 5)).astype(np.float32)
    np.testing.assert_allclose(fast.softmax(x, axis), plain_softmax(x, axis), rtol=1e-6, atol=0)
    np.testing.assert_allclose(fast.softmax(x, axis).sum(axis=axis), 1.0, rtol=1e-6)


def test_fast_softmax_gives_masked_keys_exactly_zero():
    x = np.array([[1.0, -np.inf, 2.0], [-np.inf, 0.0, -np.inf]], dtype=np.float32)
    w = fast.softmax(x)
    assert w[0, 1] == 0.0 and w[1, 0] == w[1, 2] == 0.0 and w[1, 1] == 1.0


def test_softmax_takes_the_fast_path_for_float32_only():
    x = np.random.default_rng(4).normal(0, 3, (6, 9))
    x32 = x.astype(np.float32)
    np.testing.assert_array_equal(attn_core.softmax(x32, temperature=0.5), fast.softmax(x32 / 0.5))
    np.testing.assert_array_equal(attn_core.softmax(x), plain_softmax(x))


GRID = np.concatenate([np.linspace(-12.0, 12.0, 24_001), [-1e6, -40.0, -9.5, 0.0, 9.5, 40.0]])


@pytest.mark.parametrize(
    ("dtype", "abs_tol", "rel_tol"), [(np.float64, 1e-7, 2e-7), (np.float32, 1e-6, 4e-6)]
)
def test_fast_gelu_is_the_plain_one(dtype, abs_tol, rel_tol):
    x = GRID.astype(dtype)
    fast_y, plain_y = fast.gelu(x), gelu(x)
    assert fast_y.dtype == plain_y.dtype == dtype
    assert np.abs(fast_y - plain_y).max() < abs_tol
    # relative agreement where the plain form has digits to compare: below x = -5 its
    # 1 + erf(x / sqrt 2) cancels (the fast form, relu(x) - |x| Phi(-|x|), does not)
    near = np.abs(x) <= 5
    np.testing.assert_allclose(fast_y[near], plain_y[near], rtol=rel_tol, atol=0)


def test_fast_gelu_leaves_its_input_alone():
    x = np.linspace(-3.0, 3.0, 13, dtype=np.float32)
    before = x.copy()
    fast.gelu(x)
    np.testing.assert_array_equal(x, before)


def test_plain_gelu_is_x_times_the_normal_cdf():
    phi = [0.5 * (1 + math.erf(v / math.sqrt(2))) for v in (-2.0, -1.0, 0.0, 1.0, 3.0)]
    expected = [v * p for v, p in zip((-2.0, -1.0, 0.0, 1.0, 3.0), phi, strict=True)]
    np.testing.assert_allclose(gelu([-2.0, -1.0, 0.0, 1.0, 3.0]), expected, rtol=1e-15)
    assert gelu(np.array([1.0]))[0] == pytest.approx(0.8413447460685429, rel=1e-15)
