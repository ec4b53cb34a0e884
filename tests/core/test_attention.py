"""attention and self_attention: loop agreement, the trace, properties, bad input."""

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import attn_core
from attn_core import AttentionInputError, NonFiniteError, ShapeError
from attn_core.errors import whole_number
from naive import attention as naive_attention

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True)


def rand(seed, *shape, std=1.0):
    return np.random.default_rng(seed).normal(0.0, std, shape)


# (T_q, T_k, d_k, d_v): square self-attention shapes and cross-attention ones.
SHAPES = [(1, 1, 1, 1), (4, 4, 3, 3), (5, 5, 8, 2), (3, 7, 4, 6), (6, 2, 5, 3)]


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("t_q, t_k, d_k, d_v", SHAPES)
def test_matches_loops(seed, t_q, t_k, d_k, d_v):
    q, k, v = rand(seed, t_q, d_k), rand(seed + 10, t_k, d_k), rand(seed + 20, t_k, d_v)
    scores, weights, output = naive_attention(q, k, v)
    t = attn_core.attention(q, k, v)
    np.testing.assert_allclose(t.scores, scores, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(t.weights, weights, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(t.output, output, rtol=1e-12, atol=1e-12)
    assert t.output.shape == (t_q, d_v) and t.weights.shape == (t_q, t_k)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("scale, temperature", [(None, 1.0), (1.0, 1.0), (0.3, 2.5), (2.0, 0.4)])
def test_matches_loops_with_mask_scale_temperature(seed, scale, temperature):
    t_q, t_k = 5, 6
    q, k, v = rand(seed, t_q, 4), rand(seed + 1, t_k, 4), rand(seed + 2, t_k, 3)
    mask = np.random.default_rng(seed).random((t_q, t_k)) < 0.6
    mask[:, 0] = True  # every row keeps one key
    _, weights, output = naive_attention(q, k, v, mask=mask, scale=scale, temperature=temperature)
    t = attn_core.attention(q, k, v, mask=mask, scale=scale, temperature=temperature)
    np.testing.assert_allclose(t.weights, weights, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(t.output, output, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("d_k", [1, 4, 64])
def test_trace_holds_every_step(d_k):
    q, k, v = rand(0, 3, d_k), rand(1, 4, d_k), rand(2, 4, 2)
    mask = attn_core.window_mask(4, 1)[:3]
    t = attn_core.attention(q, k, v, mask=mask)
    np.testing.assert_array_equal(t.q, q)
    np.testing.assert_array_equal(t.k, k)
    np.testing.assert_array_equal(t.v, v)
    np.testing.assert_allclose(t.scores, q @ k.T, rtol=1e-14)
    assert t.scale == pytest.approx(1 / np.sqrt(d_k), rel=1e-15)
    np.testing.assert_allclose(t.scaled, t.scores * t.scale, rtol=1e-15)
    np.testing.assert_array_equal(t.mask, mask)
    np.testing.assert_array_equal(t.masked[~mask], -np.inf)
    np.testing.assert_array_equal(t.masked[mask], t.scaled[mask])
    np.testing.assert_allclose(t.weights, attn_core.softmax(t.masked), rtol=1e-15)
    np.testing.assert_allclose(t.output, t.weights @ v, rtol=1e-14)
    assert (t.d_k, t.d_v, t.temperature) == (d_k, 2, 1.0)
    assert t.x is None and t.w_q is None


def test_trace_is_frozen():
    t = attn_core.attention(np.eye(2), np.eye(2), np.eye(2))
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.weights = None


def test_without_mask_masked_equals_scaled():
    t = attn_core.attention(rand(0, 3, 2), rand(1, 3, 2), rand(2, 3, 2))
    assert t.mask is None
    np.testing.assert_array_equal(t.masked, t.scaled)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_scale_one_is_unscaled(seed):
    q, k, v = rand(seed, 4, 16, std=3), rand(seed + 1, 4, 16, std=3), rand(seed + 2, 4, 5)
    t = attn_core.attention(q, k, v, scale=1.0)
    assert t.scale == 1.0
    np.testing.assert_array_equal(t.scaled, t.scores)
    np.testing.assert_allclose(t.weights, attn_core.softmax(q @ k.T), rtol=1e-12)
    default = attn_core.attention(q, k, v)
    assert not np.allclose(default.weights, t.weights)  # the default really scales


def test_scale_brings_score_variance_back_to_one():
    d_k = 256
    q, k = rand(0, 400, d_k), rand(1, 400, d_k)
    t = attn_core.attention(q, k, rand(2, 400, 1))
    assert t.scores.var() == pytest.approx(d_k, rel=0.1)
    assert t.scaled.var() == pytest.approx(1.0, rel=0.1)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_float_dtype_flows_through(dtype):
    q, k, v = (rand(s, 4, 8).astype(dtype) for s in range(3))
    t = attn_core.attention(q, k, v, mask=attn_core.causal_mask(4))
    for a in (t.scores, t.scaled, t.masked, t.weights, t.output):
        assert a.dtype == dtype
    np.testing.assert_allclose(t.weights.sum(-1), 1.0, rtol=1e-6)


def test_integer_and_list_input_become_float64():
    t = attn_core.attention([[1, 0], [0, 1]], [[1, 0], [0, 1]], [[1, 2], [3, 4]])
    assert t.output.dtype == np.float64
    np.testing.assert_allclose(t.weights.sum(-1), 1.0)


def test_leading_batch_dimension_is_per_head_attention():
    q, k, v = rand(0, 3, 4, 2), rand(1, 3, 5, 2), rand(2, 3, 5, 6)
    mask = attn_core.window_mask(5, 1)[:4]
    both = attn_core.attention(q, k, v, mask=mask)
    for h in range(3):
        one = attn_core.attention(q[h], k[h], v[h], mask=mask)
        np.testing.assert_allclose(both.weights[h], one.weights, rtol=1e-13)
        np.testing.assert_allclose(both.output[h], one.output, rtol=1e-13)


# --- properties ---------------------------------------------------------------

dims = st.integers(1, 6)


@SETTINGS
@given(
    t_q=dims, t_k=dims, d_k=dims, d_v=dims, seed=st.integers(0, 2**32 - 1), std=st.floats(0.1, 5)
)
def test_weights_are_distributions_and_masked_weights_are_zero(t_q, t_k, d_k, d_v, seed, std):
    rng = np.random.default_rng(seed)
    q, k, v = (rng.normal(0, std, s) for s in ((t_q, d_k), (t_k, d_k), (t_k, d_v)))
    mask = rng.random((t_q, t_k)) < 0.5
    mask[np.arange(t_q), rng.integers(0, t_k, t_q)] = True  # at least one key per row
    t = attn_core.attention(q, k, v, mask=mask)
    assert np.all(t.weights >= 0)
    np.testing.assert_allclose(t.weights.sum(axis=-1), 1.0, rtol=1e-12)
    assert np.all(t.weights[~mask] == 0.0)
    assert np.all(np.isfinite(t.output)) and t.output.shape == (t_q, d_v)


@SETTINGS
@given(t=st.integers(1, 7), d_model=dims, d_k=dims, seed=st.integers(0, 2**32 - 1))
def test_self_attention_is_permutation_equivariant(t, d_model, d_k, seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(t, d_model))
    w_q, w_k, w_v = (rng.normal(size=(d_model, d_k)) for _ in range(3))
    perm = rng.permutation(t)
    base = attn_core.self_attention(x, w_q, w_k, w_v)
    moved = attn_core.self_attention(x[perm], w_q, w_k, w_v)
    np.testing.assert_allclose(moved.output, base.output[perm], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(moved.weights, base.weights[np.ix_(perm, perm)], atol=1e-12)


def test_causal_mask_breaks_permutation_equivariance():
    x, w = rand(0, 4, 3), rand(1, 3, 3)
    perm = np.array([3, 2, 1, 0])
    mask = attn_core.causal_mask(4)
    base = attn_core.self_attention(x, w, w, w, mask=mask)
    moved = attn_core.self_attention(x[perm], w, w, w, mask=mask)
    assert not np.allclose(moved.output, base.output[perm])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_self_attention_records_x_and_projections(seed):
    x = rand(seed, 5, 6)
    w = attn_core.lesson_weights(6, 4, 3, seed=seed)
    mask = attn_core.causal_mask(5)
    t = attn_core.self_attention(x, w.w_q, w.w_k, w.w_v, mask=mask, scale=0.7)
    np.testing.assert_array_equal(t.x, x)
    for got, want in ((t.w_q, w.w_q), (t.w_k, w.w_k), (t.w_v, w.w_v)):
        np.testing.assert_array_equal(got, want)
    np.testing.assert_allclose(t.q, x @ w.w_q, rtol=1e-14)
    np.testing.assert_allclose(t.k, x @ w.w_k, rtol=1e-14)
    np.testing.assert_allclose(t.v, x @ w.w_v, rtol=1e-14)
    _, weights, output = naive_attention(x @ w.w_q, x @ w.w_k, x @ w.w_v, mask=mask, scale=0.7)
    np.testing.assert_allclose(t.weights, weights, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(t.output, output, rtol=1e-12, atol=1e-14)


# --- bad input ----------------------------------------------------------------

GOOD = (np.ones((2, 3)), np.ones((4, 3)), np.ones((4, 5)))


def replace_arg(i, value):
    args = list(GOOD)
    args[i] = value
    return args


@pytest.mark.parametrize("i, name", [(0, "q"), (1, "k"), (2, "v")])
@pytest.mark.parametrize(
    "value, error",
    [
        (np.full((2, 3), np.nan), NonFiniteError),
        (np.full((2, 3), np.inf), NonFiniteError),
        (np.full((2, 3), -np.inf), NonFiniteError),
        (np.array([["a", "b", "c"]] * 2), AttentionInputError),
        (np.array([[1j, 0, 0]] * 2), AttentionInputError),
        (np.array([[None, 1, 2]] * 2, dtype=object), AttentionInputError),
        (np.zeros((0, 3)), ShapeError),
        (np.zeros((2, 0)), ShapeError),
        ([[1.0, 2.0], [1.0]], ShapeError),
        (np.ones(3), ShapeError),
        (5.0, ShapeError),
    ],
    ids=[
        "nan",
        "inf",
        "minus-inf",
        "strings",
        "complex",
        "object",
        "no-rows",
        "no-cols",
        "ragged",
        "1-D",
        "scalar",
    ],
)
def test_bad_arrays_raise_named_errors(i, name, value, error):
    with pytest.raises(error, match=rf"\b{name}\b"):
        attn_core.attention(*replace_arg(i, value))


def test_one_nan_among_many_is_caught():
    q = rand(0, 8, 4)
    q[5, 2] = np.nan
    with pytest.raises(NonFiniteError, match="NaN"):
        attn_core.attention(q, q, q)


@pytest.mark.parametrize(
    "q, k, v, message",
    [
        (np.ones((2, 3)), np.ones((4, 2)), np.ones((4, 5)), "d_k"),
        (np.ones((2, 3)), np.ones((4, 3)), np.ones((3, 5)), "row per key"),
        (np.ones((2, 2, 3)), np.ones((4, 3)), np.ones((4, 5)), "same number of dimensions"),
    ],
)
def test_shapes_that_do_not_fit(q, k, v, message):
    with pytest.raises(ShapeError, match=message):
        attn_core.attention(q, k, v)


@pytest.mark.parametrize("scale", [0.0, -1.0, np.nan, np.inf, "big", [1.0, 2.0]])
def test_bad_scale(scale):
    with pytest.raises(AttentionInputError, match="scale"):
        attn_core.attention(*GOOD, scale=scale)


@pytest.mark.parametrize("temperature", [0.0, -2.0, np.nan, np.inf, "cold"])
def test_bad_temperature(temperature):
    with pytest.raises(AttentionInputError, match="temperature"):
        attn_core.attention(*GOOD, temperature=temperature)


@pytest.mark.filterwarnings("ignore:overflow:RuntimeWarning")
def test_scores_that_overflow_raise_instead_of_nan():
    big = np.full((2, 3), 1e200)
    with pytest.raises(AttentionInputError):
        attn_core.attention(big, big, np.ones((2, 4)))


@pytest.mark.parametrize(
    "args",
    [
        (np.ones((3, 2)), np.ones((3, 3)), np.ones((3, 3))),
        (np.ones((3, 2)), np.ones((2, 3)), np.ones((2, 3))),
        (np.ones((3, 2)), np.ones((3, 2)), "v"),
    ],
)
def test_self_attention_bad_projections(args):
    with pytest.raises(AttentionInputError):
        attn_core.self_attention(np.ones((4, 3)), *args)


@pytest.mark.parametrize(
    ("value", "low", "high", "words"),
    [
        (2.0, None, None, "n must be a whole number, got 2.0."),
        (True, None, None, "n must be a whole number, got True."),
        ("2", 1, None, "n must be a whole number of at least 1, got '2'."),
        (0, 1, None, "n must be a whole number of at least 1, got 0."),
        (9, 1, 8, "n must be a whole number from 1 to 8, got 9."),
        (None, None, 8, "n must be a whole number of at most 8, got None."),
    ],
)
def test_whole_number_refuses_all_but_integers_in_range(value, low, high, words):
    with pytest.raises(AttentionInputError) as err:
        whole_number(value, "n", low, high)
    assert str(err.value) == words


def test_whole_number_returns_a_python_int():
    got = whole_number(np.int64(3), "n", 1, 3)
    assert got == 3 and type(got) is int
    with pytest.raises(ShapeError, match="at least 4"):  # the error class a caller asks for
        whole_number(3, "n", 4, error=ShapeError)


def test_errors_are_value_errors():
    for cls in (AttentionInputError, ShapeError, NonFiniteError, attn_core.FullyMaskedRowError):
        assert issubclass(cls, ValueError)


def test_batch_dimensions_must_match():
    with pytest.raises(ShapeError, match="leading"):
        attn_core.attention(np.ones((2, 3, 4)), np.ones((3, 3, 4)), np.ones((3, 3, 4)))


@pytest.mark.filterwarnings("ignore:overflow:RuntimeWarning")
def test_self_attention_projection_overflow_is_reported():
    x = np.full((3, 2), 1e200)
    with pytest.raises(NonFiniteError, match="infinity"):
        attn_core.self_attention(x, np.zeros((2, 2)), np.zeros((2, 2)), np.full((2, 2), 1e200))
