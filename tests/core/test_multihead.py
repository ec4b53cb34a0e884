"""multi_head_attention: per-head loops, head slicing, the trace, bad input."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import attn_core
from attn_core import AttentionInputError, ShapeError
from naive import multi_head_attention as naive_mha

SETTINGS = settings(max_examples=30, deadline=None, derandomize=True)


def setup(seed, t, d_model, n_heads):
    x = np.random.default_rng(seed).normal(size=(t, d_model))
    w = attn_core.lesson_weights(d_model, d_model // n_heads, n_heads=n_heads, seed=seed)
    return x, w


# (T, d_model, n_heads)
CASES = [(1, 2, 1), (4, 4, 1), (5, 6, 2), (3, 8, 4), (7, 12, 3), (6, 8, 8)]


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("t, d_model, n_heads", CASES)
@pytest.mark.parametrize("masked", [False, True])
def test_matches_per_head_loops(seed, t, d_model, n_heads, masked):
    x, w = setup(seed, t, d_model, n_heads)
    mask = attn_core.causal_mask(t) if masked else None
    weights, concat, output = naive_mha(x, w.w_q, w.w_k, w.w_v, w.w_o, n_heads, mask=mask)
    mh = attn_core.multi_head_attention(x, w.w_q, w.w_k, w.w_v, w.w_o, n_heads, mask=mask)
    assert mh.n_heads == n_heads and len(mh.heads) == n_heads
    np.testing.assert_allclose(mh.weights, weights, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(mh.concat, concat, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(mh.output, output, rtol=1e-12, atol=1e-14)
    assert mh.concat.shape == (t, d_model) and mh.output.shape == (t, d_model)
    assert mh.weights.shape == (n_heads, t, t)


def test_unequal_d_v_and_output_width():
    t, d_model, n_heads, d_k, d_v = 5, 6, 3, 4, 2
    x = np.random.default_rng(3).normal(size=(t, d_model))
    w = attn_core.lesson_weights(d_model, d_k, d_v, n_heads=n_heads, seed=3)
    w_o = np.random.default_rng(4).normal(size=(n_heads * d_v, 7))
    weights, concat, output = naive_mha(x, w.w_q, w.w_k, w.w_v, w_o, n_heads)
    mh = attn_core.multi_head_attention(x, w.w_q, w.w_k, w.w_v, w_o, n_heads)
    assert mh.concat.shape == (t, n_heads * d_v) and mh.output.shape == (t, 7)
    np.testing.assert_allclose(mh.weights, weights, rtol=1e-12)
    np.testing.assert_allclose(mh.output, output, rtol=1e-12)
    assert all(h.d_k == d_k and h.d_v == d_v for h in mh.heads)
    assert all(h.scale == pytest.approx(1 / np.sqrt(d_k)) for h in mh.heads)


@SETTINGS
@given(
    t=st.integers(1, 6),
    n_heads=st.integers(1, 4),
    d_k=st.integers(1, 4),
    seed=st.integers(0, 2**32 - 1),
    masked=st.booleans(),
)
def test_each_head_is_plain_self_attention_with_sliced_weights(t, n_heads, d_k, seed, masked):
    d_model = n_heads * d_k
    x, w = setup(seed, t, d_model, n_heads)
    mask = attn_core.causal_mask(t) if masked else None
    mh = attn_core.multi_head_attention(x, w.w_q, w.w_k, w.w_v, w.w_o, n_heads, mask=mask)
    for h, head in enumerate(mh.heads):
        cols = slice(h * d_k, (h + 1) * d_k)
        one = attn_core.self_attention(x, w.w_q[:, cols], w.w_k[:, cols], w.w_v[:, cols], mask=mask)
        for name in ("q", "k", "v", "scores", "scaled", "masked", "weights", "output"):
            got, want = getattr(head, name), getattr(one, name)
            np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)
        np.testing.assert_array_equal(head.w_q, w.w_q[:, cols])
        np.testing.assert_array_equal(head.w_v, w.w_v[:, cols])
        np.testing.assert_array_equal(head.x, x)
        assert head.scale == one.scale
        np.testing.assert_array_equal(mh.concat[:, cols], head.output)


def test_concat_and_output_follow_from_the_heads():
    x, w = setup(5, 4, 8, 2)
    mh = attn_core.multi_head_attention(x, w.w_q, w.w_k, w.w_v, w.w_o, 2)
    np.testing.assert_array_equal(mh.concat, np.hstack([h.output for h in mh.heads]))
    np.testing.assert_allclose(mh.output, mh.concat @ w.w_o, rtol=1e-14)
    np.testing.assert_array_equal(mh.x, x)
    np.testing.assert_array_equal(mh.w_o, w.w_o)


def test_heads_see_different_things():
    x, w = setup(6, 5, 8, 4)
    mh = attn_core.multi_head_attention(x, w.w_q, w.w_k, w.w_v, w.w_o, 4)
    assert not np.allclose(mh.heads[0].weights, mh.heads[1].weights)


def test_one_head_equals_self_attention_then_w_o():
    x, w = setup(7, 5, 6, 1)
    mh = attn_core.multi_head_attention(x, w.w_q, w.w_k, w.w_v, w.w_o, 1)
    one = attn_core.self_attention(x, w.w_q, w.w_k, w.w_v)
    np.testing.assert_allclose(mh.output, one.output @ w.w_o, rtol=1e-12)


@pytest.mark.parametrize("masked", [False, True])
def test_permutation_equivariant_without_mask_only(masked):
    x, w = setup(8, 6, 8, 2)
    perm = np.array([5, 0, 3, 1, 4, 2])
    mask = attn_core.causal_mask(6) if masked else None
    args = (w.w_q, w.w_k, w.w_v, w.w_o, 2)
    base = attn_core.multi_head_attention(x, *args, mask=mask).output
    moved = attn_core.multi_head_attention(x[perm], *args, mask=mask).output
    assert np.allclose(moved, base[perm], rtol=1e-10) is (not masked)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_dtype_flows_through(dtype):
    x, w = setup(9, 4, 8, 2)
    ws = [a.astype(dtype) for a in (w.w_q, w.w_k, w.w_v, w.w_o)]
    mh = attn_core.multi_head_attention(x.astype(dtype), *ws, 2, mask=attn_core.causal_mask(4))
    assert mh.output.dtype == dtype and mh.weights.dtype == dtype
    assert mh.heads[0].scores.dtype == dtype


@pytest.mark.parametrize("n_heads", [0, -1, 3, 2.0, True, "2", None])
def test_bad_n_heads(n_heads):
    x, w = setup(0, 3, 4, 2)
    with pytest.raises(AttentionInputError, match="head"):
        attn_core.multi_head_attention(x, w.w_q, w.w_k, w.w_v, w.w_o, n_heads)


@pytest.mark.parametrize(
    "which, shape, message",
    [
        ("w_q", (5, 4), "w_q"),
        ("w_k", (4, 2), "same width"),
        ("w_v", (3, 4), "w_v"),
        ("w_o", (2, 4), "w_o"),
        ("x", (3, 5), "rows"),
        ("x", (3,), "2-D"),
    ],
)
def test_bad_shapes(which, shape, message):
    x, w = setup(0, 3, 4, 2)
    args = {"x": x, "w_q": w.w_q, "w_k": w.w_k, "w_v": w.w_v, "w_o": w.w_o}
    args[which] = np.ones(shape)
    with pytest.raises(ShapeError, match=message):
        attn_core.multi_head_attention(**args, n_heads=2)


@pytest.mark.parametrize("which", ["x", "w_q", "w_k", "w_v", "w_o"])
def test_non_finite_weights(which):
    x, w = setup(0, 3, 4, 2)
    args = {"x": x, "w_q": w.w_q, "w_k": w.w_k, "w_v": w.w_v, "w_o": w.w_o}
    args[which] = args[which].copy()
    args[which][0, 0] = np.nan
    with pytest.raises(attn_core.NonFiniteError, match=which):
        attn_core.multi_head_attention(**args, n_heads=2)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_heads_read_the_weights_in_place_not_copies(dtype):
    x, w = setup(3, 5, 8, 4)
    x, w_q, w_k, w_v, w_o = (a.astype(dtype) for a in (x, w.w_q, w.w_k, w.w_v, w.w_o))
    mh = attn_core.multi_head_attention(x, w_q, w_k, w_v, w_o, 4)
    for h, head in enumerate(mh.heads):
        for mine, theirs in ((head.w_q, w_q), (head.w_k, w_k), (head.w_v, w_v)):
            assert np.shares_memory(mine, theirs)  # a view of the caller's array
            np.testing.assert_array_equal(mine, theirs[:, 2 * h : 2 * h + 2])
        assert np.shares_memory(head.x, x)
    assert np.shares_memory(mh.w_o, w_o) and np.shares_memory(mh.x, x)


def test_split_heads_takes_column_blocks():
    a = np.arange(12).reshape(2, 6)
    heads = attn_core.split_heads(a, 3)
    assert heads.shape == (3, 2, 2) and np.shares_memory(heads, a)
    for h in range(3):
        np.testing.assert_array_equal(heads[h], a[:, 2 * h : 2 * h + 2])
    np.testing.assert_array_equal(attn_core.merge_heads(heads), a)


def test_heads_are_read_only_views_of_the_batched_trace():
    x, w = setup(4, 5, 8, 4)
    mh = attn_core.multi_head_attention(x, w.w_q, w.w_k, w.w_v, w.w_o, 4)
    assert mh.weights is mh.batched.weights and mh.weights.shape == (4, 5, 5)
    assert mh.heads is mh.heads  # built once
    for h, head in enumerate(mh.heads):
        for name in ("q", "k", "v", "scores", "scaled", "masked", "weights", "output"):
            mine, batched = getattr(head, name), getattr(mh.batched, name)
            assert np.shares_memory(mine, batched), name  # a view, not a copy
            np.testing.assert_array_equal(mine, batched[h])
            with pytest.raises(ValueError, match="read-only"):
                mine[0, 0] = 0.0  # would change the batched trace and every page that reads it
        with pytest.raises(ValueError, match="read-only"):
            head.w_q[0, 0] = 0.0
    for a in (mh.concat, mh.output):
        assert not a.flags.writeable
    assert w.w_q.flags.writeable and x.flags.writeable  # the caller's arrays are left as they were


# --- lesson_weights -----------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 7, 123])
def test_lesson_weights_are_deterministic(seed):
    a = attn_core.lesson_weights(8, 4, 3, n_heads=2, seed=seed)
    b = attn_core.lesson_weights(8, 4, 3, n_heads=2, seed=seed)
    c = attn_core.lesson_weights(8, 4, 3, n_heads=2, seed=seed + 1)
    for name in ("w_q", "w_k", "w_v", "w_o"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
        assert not np.allclose(getattr(a, name), getattr(c, name))
    assert a.w_q.shape == (8, 8) and a.w_k.shape == (8, 8)
    assert a.w_v.shape == (8, 6) and a.w_o.shape == (6, 8)


def test_lesson_weights_do_not_touch_global_random_state():
    np.random.seed(0)
    before = np.random.random()
    np.random.seed(0)
    attn_core.lesson_weights(4, 2, seed=5)
    assert np.random.random() == before


@pytest.mark.parametrize("d_model, n_heads", [(64, 1), (256, 4), (384, 8)])
def test_lesson_weight_variance_is_one_over_d_model(d_model, n_heads):
    w = attn_core.lesson_weights(d_model, d_model // n_heads, n_heads=n_heads, seed=1)
    for a in (w.w_q, w.w_k, w.w_v, w.w_o):  # w_o: fan-in n_heads * d_v = d_model
        # five standard errors of the sample mean and of the sample variance
        assert abs(a.mean()) < 5 / np.sqrt(d_model) / np.sqrt(a.size)
        assert a.var() * d_model == pytest.approx(1.0, rel=5 * np.sqrt(2 / a.size))


def test_lesson_weights_keep_projected_variance_near_one():
    x = np.random.default_rng(2).normal(size=(2000, 128))
    w = attn_core.lesson_weights(128, 32, seed=2)
    assert (x @ w.w_q).var() == pytest.approx(1.0, rel=0.1)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"d_model": 0, "d_k": 2},
        {"d_model": 4, "d_k": -1},
        {"d_model": 4, "d_k": 2, "d_v": 1.5},
        {"d_model": 4, "d_k": 2, "n_heads": 0},
        {"d_model": True, "d_k": 2},
        {"d_model": 4, "d_k": 2, "seed": None},
        {"d_model": 4, "d_k": 2, "seed": 1.5},
        {"d_model": 4, "d_k": 2, "seed": -3},
    ],
)
def test_lesson_weights_bad_arguments(kwargs):
    with pytest.raises(AttentionInputError):
        attn_core.lesson_weights(**kwargs)


@pytest.mark.filterwarnings("ignore:overflow:RuntimeWarning")
@pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning")
def test_overflow_inside_raises_instead_of_returning_inf():
    x = np.full((3, 4), 1e150)
    small, huge = np.zeros((4, 4)), np.full((4, 4), 1e200)
    with pytest.raises(attn_core.NonFiniteError, match="overflow"):
        attn_core.multi_head_attention(x, small, small, huge, np.eye(4), 2)
