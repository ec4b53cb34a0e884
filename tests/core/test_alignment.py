"""attn_core.alignment: additive attention over a whole target sentence, and its cost."""

import numpy as np
import pytest

import attn_core
from attn_core import AttentionInputError, ShapeError
from attn_core.alignment import additive_alignment, additive_params, score_costs
from naive import additive_attention as naive_additive


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize(("t_t", "t_s", "d_s", "d_h", "d_a"), [(3, 5, 4, 4, 6), (1, 1, 2, 3, 1)])
def test_each_row_matches_a_loop(seed, t_t, t_s, d_s, d_h, d_a):
    rng = np.random.default_rng(seed)
    s, h = rng.normal(size=(t_t, d_s)), rng.normal(size=(t_s, d_h))
    w_1, w_2, v_a = additive_params(d_s, d_h, d_a, seed=seed)
    a = additive_alignment(s, h, w_1, w_2, v_a)
    assert a.hidden.shape == (t_t, t_s, d_a) and a.weights.shape == (t_t, t_s)
    for t in range(t_t):
        scores, weights, context = naive_additive(s[t], h, h, w_1, w_2, v_a)
        np.testing.assert_allclose(a.scores[t], scores, rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(a.weights[t], weights, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(a.context[t], context, rtol=1e-12, atol=1e-14)
        one = attn_core.additive_attention(s[t], h, h, w_1, w_2, v_a)
        np.testing.assert_allclose(a.hidden[t], one.hidden, atol=1e-14)
    np.testing.assert_allclose(a.weights.sum(axis=1), 1.0)


def test_params_are_seeded_and_shaped():
    w_1, w_2, v_a = additive_params(3, 5, 7, seed=4)
    assert (w_1.shape, w_2.shape, v_a.shape) == ((7, 3), (7, 5), (7,))
    np.testing.assert_array_equal(additive_params(3, 5, 7, seed=4)[1], w_2)
    assert not np.array_equal(additive_params(3, 5, 7, seed=5)[1], w_2)


@pytest.mark.parametrize("bad", [{"d_a": 0}, {"d_s": 2.0}, {"seed": -1}, {"d_h": True}])
def test_params_reject_bad_sizes(bad):
    args = {"d_s": 2, "d_h": 2, "d_a": 2, "seed": 0} | bad
    with pytest.raises(AttentionInputError, match="whole number"):
        additive_params(args.pop("d_s"), args.pop("d_h"), args.pop("d_a"), **args)


def test_mismatched_weights_are_named():
    w_1, w_2, v_a = additive_params(3, 4, 5)
    with pytest.raises(ShapeError, match="w_1 must be"):
        additive_alignment(np.ones((2, 4)), np.ones((3, 4)), w_1, w_2, v_a)


def test_costs_against_counting_in_a_loop():
    t_t, t_s, d, d_a = 4, 6, 8, 5
    c = score_costs(t_t, t_s, d, d_a)
    dot = sum(d for _ in range(t_t) for _ in range(t_s))
    projections = t_t * d_a * d + t_s * d_a * d  # W_1 s_t and W_2 h_i, each once
    per_pair = sum(d_a for _ in range(t_t) for _ in range(t_s))  # v_a . tanh(...)
    assert c.dot == dot == 192
    assert c.additive == projections + per_pair == 5 * (32 + 48 + 24)
    assert c.additive_naive == t_t * t_s * (2 * d_a * d + d_a)
    assert (c.tanh, c.stored_dot, c.stored_additive) == (120, 24, 120)


def test_with_d_a_equal_to_d_additive_does_more_work():
    for t, d in ((10, 64), (100, 64), (3, 2)):
        c = score_costs(t, t, d, d)
        assert c.additive > c.dot and c.additive_naive > c.additive


def test_costs_reject_bad_sizes():
    with pytest.raises(AttentionInputError, match="T_s"):
        score_costs(2, 0, 4, 4)
