"""attention_backward against central finite differences (float64), and its behaviour.

The loss is L = sum(d_output * Z): its gradient with respect to Z is d_output, so the
backward pass must give dL/d(anything) = (L(a + h e) - L(a - h e)) / 2h, entry by entry.
"""

import dataclasses

import numpy as np
import pytest

import attn_core
from attn_core import AttentionInputError, NonFiniteError, ShapeError
from attn_core.backward import softmax_backward

H = 1e-6
TOL = {"rtol": 1e-6, "atol": 1e-8}


def rand(seed, *shape):
    return np.random.default_rng(seed).normal(size=shape)


def numeric_grad(loss, a: np.ndarray) -> np.ndarray:
    """dloss/da by central differences, one entry at a time."""
    grad = np.zeros_like(a)
    for idx in np.ndindex(a.shape):
        old = a[idx]
        a[idx] = old + H
        up = loss()
        a[idx] = old - H
        down = loss()
        a[idx] = old
        grad[idx] = (up - down) / (2 * H)
    return grad


# (T_q, T_k, d_k, d_v, mask, scale, temperature)
CASES = [
    (4, 4, 3, 3, None, None, 1.0),
    (3, 6, 4, 2, None, None, 1.0),
    (5, 5, 2, 4, "causal", None, 1.0),
    (4, 5, 3, 3, "random", 0.8, 1.0),
    (4, 4, 3, 2, "causal", 1.0, 0.5),
    (3, 3, 4, 4, None, None, 3.0),
]


def make_mask(kind, t_q, t_k, seed):
    if kind == "causal":
        return np.tril(np.ones((t_q, t_k), dtype=bool))
    if kind == "random":
        m = np.random.default_rng(seed).random((t_q, t_k)) < 0.5
        m[:, 0] = True
        return m
    return None


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("t_q, t_k, d_k, d_v, kind, scale, tau", CASES)
def test_q_k_v_gradients_equal_finite_differences(seed, t_q, t_k, d_k, d_v, kind, scale, tau):
    q, k, v = rand(seed, t_q, d_k), rand(seed + 1, t_k, d_k), rand(seed + 2, t_k, d_v)
    d_z = rand(seed + 3, t_q, d_v)
    mask = make_mask(kind, t_q, t_k, seed)

    def loss():
        out = attn_core.attention(q, k, v, mask=mask, scale=scale, temperature=tau).output
        return float((d_z * out).sum())

    t = attn_core.attention(q, k, v, mask=mask, scale=scale, temperature=tau)
    g = attn_core.attention_backward(t, d_z)
    for name, arr, grad in (("q", q, g.dq), ("k", k, g.dk), ("v", v, g.dv)):
        np.testing.assert_allclose(grad, numeric_grad(loss, arr), **TOL, err_msg=name)


@pytest.mark.parametrize("kind", [None, "causal"])
def test_intermediate_gradients_equal_finite_differences(kind):
    """d_weights, d_scaled and d_scores are the gradients of the trace's own matrices."""
    q, k, v, d_z = rand(5, 4, 3), rand(6, 4, 3), rand(7, 4, 2), rand(8, 4, 2)
    mask = make_mask(kind, 4, 4, 0)
    t = attn_core.attention(q, k, v, mask=mask, scale=0.7, temperature=1.5)
    g = attn_core.attention_backward(t, d_z)
    a = t.weights.copy()
    np.testing.assert_allclose(g.d_weights, numeric_grad(lambda: float((d_z * (a @ v)).sum()), a))
    scaled = t.scaled.copy()

    def from_scaled():
        m = scaled if mask is None else np.where(mask, scaled, -np.inf)
        return float((d_z * (attn_core.softmax(m, temperature=1.5) @ v)).sum())

    np.testing.assert_allclose(g.d_scaled, numeric_grad(from_scaled, scaled), **TOL)
    scores = t.scores.copy()

    def from_scores():
        m = scores * 0.7 if mask is None else np.where(mask, scores * 0.7, -np.inf)
        return float((d_z * (attn_core.softmax(m, temperature=1.5) @ v)).sum())

    np.testing.assert_allclose(g.d_scores, numeric_grad(from_scores, scores), **TOL)


@pytest.mark.parametrize("mask", [None, "causal"])
def test_projection_gradients_equal_finite_differences(mask):
    x, d_z = rand(10, 5, 6), rand(11, 5, 3)
    w_q, w_k, w_v = rand(12, 6, 4) / 2, rand(13, 6, 4) / 2, rand(14, 6, 3) / 2
    m = make_mask(mask, 5, 5, 0)

    def loss():
        return float((d_z * attn_core.self_attention(x, w_q, w_k, w_v, mask=m).output).sum())

    g = attn_core.attention_backward(attn_core.self_attention(x, w_q, w_k, w_v, mask=m), d_z)
    for name, arr, grad in (
        ("x", x, g.dx),
        ("w_q", w_q, g.dw_q),
        ("w_k", w_k, g.dw_k),
        ("w_v", w_v, g.dw_v),
    ):
        np.testing.assert_allclose(grad, numeric_grad(loss, arr), **TOL, err_msg=name)


def test_batched_heads_equal_one_head_at_a_time():
    q, k, v, d_z = rand(20, 3, 5, 4), rand(21, 3, 5, 4), rand(22, 3, 5, 2), rand(23, 3, 5, 2)
    mask = np.tril(np.ones((5, 5), dtype=bool))
    g = attn_core.attention_backward(attn_core.attention(q, k, v, mask=mask), d_z)
    for h in range(3):
        one = attn_core.attention_backward(attn_core.attention(q[h], k[h], v[h], mask=mask), d_z[h])
        for name in ("dq", "dk", "dv", "d_scaled"):
            np.testing.assert_allclose(getattr(g, name)[h], getattr(one, name), rtol=1e-13)


def test_masked_cells_get_exactly_zero_and_no_nan():
    q, k, v = rand(30, 6, 3), rand(31, 6, 3), rand(32, 6, 3)
    mask = attn_core.causal_mask(6)
    mask[4:, :] = False
    mask[4:, 0] = True  # rows 4 and 5 see only the first key: their weights are one-hot
    g = attn_core.attention_backward(attn_core.attention(q, k, v, mask=mask), rand(33, 6, 3))
    for f in dataclasses.fields(g):
        value = getattr(g, f.name)
        assert value is None or np.isfinite(value).all(), f.name
    assert np.all(g.d_scaled[~mask] == 0.0) and np.all(g.d_scores[~mask] == 0.0)
    assert np.all(g.d_scaled[4:] == 0.0)  # a one-hot row passes no gradient back
    assert np.all(g.dq[4:] == 0.0)


def test_softmax_backward_rows_sum_to_zero():
    """Adding a constant to a row of scores changes nothing, so dS sums to 0 along each row."""
    p = attn_core.softmax(rand(40, 5, 7))
    ds = softmax_backward(p, rand(41, 5, 7))
    np.testing.assert_allclose(ds.sum(axis=-1), 0.0, atol=1e-14)
    jac = np.diag(p[0]) - np.outer(p[0], p[0])  # the Jacobian, built once to compare
    np.testing.assert_allclose(ds[0], jac @ rand(41, 5, 7)[0], rtol=1e-12)


def test_zero_upstream_gradient_gives_zero_gradients():
    t = attn_core.self_attention(rand(50, 4, 5), rand(51, 5, 3), rand(52, 5, 3), rand(53, 5, 2))
    g = attn_core.attention_backward(t, np.zeros((4, 2)))
    assert all(not getattr(g, f.name).any() for f in dataclasses.fields(g))


@pytest.mark.parametrize(
    "d_output, error, words",
    [
        (np.ones((4, 3)), ShapeError, "shape of the output Z"),
        (np.ones((3, 2)), ShapeError, "(4, 2)"),
        (np.full((4, 2), np.nan), NonFiniteError, "NaN"),
        ([["a", "b"]] * 4, AttentionInputError, "numbers"),
    ],
)
def test_bad_upstream_gradient_says_what_to_fix(d_output, error, words):
    t = attn_core.attention(rand(60, 4, 3), rand(61, 4, 3), rand(62, 4, 2))
    with pytest.raises(error, match=words.replace("(", r"\(").replace(")", r"\)")):
        attn_core.attention_backward(t, d_output)
