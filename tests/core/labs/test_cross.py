"""Cross-attention: queries from one sequence, keys and values from another."""

import numpy as np
import pytest

import attn_core
from attn_core import ShapeError
from attn_core.labs.cross import cross_attention
from naive import attention as naive_attention
from naive import matmul


def case(t_q, t_k, d_model=6, d_k=3, d_v=4, seed=0):
    rng = np.random.default_rng(seed)
    x, memory = rng.normal(size=(t_q, d_model)), rng.normal(size=(t_k, d_model))
    ws = [rng.normal(size=(d_model, d)) for d in (d_k, d_k, d_v)]
    return x, memory, ws


@pytest.mark.parametrize("t_q, t_k", [(1, 1), (3, 5), (5, 3), (4, 1), (1, 7)])
def test_shapes_follow_the_two_lengths(t_q, t_k):
    x, memory, ws = case(t_q, t_k)
    t = cross_attention(x, memory, *ws)
    assert t.q.shape == (t_q, 3) and t.k.shape == (t_k, 3) and t.v.shape == (t_k, 4)
    assert t.weights.shape == (t_q, t_k) and t.output.shape == (t_q, 4)
    np.testing.assert_allclose(t.weights.sum(axis=1), 1.0)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_matches_naive_loops_with_keys_from_memory(seed):
    x, memory, (w_q, w_k, w_v) = case(4, 6, seed=seed)
    t = cross_attention(x, memory, w_q, w_k, w_v)
    q, k, v = matmul(x, w_q), matmul(memory, w_k), matmul(memory, w_v)
    _, weights, output = naive_attention(q, k, v)
    np.testing.assert_allclose(t.weights, weights, atol=1e-12)
    np.testing.assert_allclose(t.output, output, atol=1e-12)
    np.testing.assert_array_equal(t.x, x)


def test_memory_equal_to_x_is_self_attention():
    x, _, ws = case(5, 5)
    own, cross = attn_core.self_attention(x, *ws), cross_attention(x, x, *ws)
    np.testing.assert_allclose(cross.weights, own.weights, atol=1e-15)
    np.testing.assert_allclose(cross.output, own.output, atol=1e-15)


def test_output_rows_mix_only_the_memory_values():
    x, memory, ws = case(3, 4)
    t = cross_attention(x, memory, *ws)
    np.testing.assert_allclose(t.output, t.weights @ (memory @ ws[2]), atol=1e-12)


def test_mask_is_rectangular():
    x, memory, ws = case(2, 3)
    mask = np.array([[True, False, False], [True, True, False]])
    t = cross_attention(x, memory, *ws, mask=mask)
    assert np.all(t.weights[~mask] == 0)


def test_different_d_model_is_explained():
    x, _, ws = case(3, 3)
    with pytest.raises(ShapeError, match="same d_model"):
        cross_attention(x, np.ones((4, 5)), *ws)
    with pytest.raises(ShapeError, match="w_k"):
        cross_attention(x, x, ws[0], np.ones((5, 3)), ws[2])
