"""attn_core.labs.additive: Bahdanau attention against a loop, one query and a whole alignment,
its trace, bad shapes, and its cost."""

import numpy as np
import pytest

import attn_core
from attn_core import AttentionInputError, NonFiniteError, ShapeError
from attn_core.labs.additive import additive_alignment, additive_params, score_costs
from naive import additive_attention as naive_additive


def setup(seed, t_k=5, d_q=3, d_h=4, d_a=6, d_v=None):
    rng = np.random.default_rng(seed)
    d_v = d_h if d_v is None else d_v
    return {
        "query": rng.normal(size=d_q),
        "keys": rng.normal(size=(t_k, d_h)),
        "values": rng.normal(size=(t_k, d_v)),
        "w_1": rng.normal(size=(d_a, d_q)),
        "w_2": rng.normal(size=(d_a, d_h)),
        "v_a": rng.normal(size=d_a),
    }


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize(
    "dims",
    [{}, {"t_k": 1}, {"d_a": 1}, {"t_k": 9, "d_q": 2, "d_h": 7, "d_a": 3, "d_v": 5}],
    ids=["default", "one-key", "d_a-1", "all-different"],
)
def test_matches_loops(seed, dims):
    args = setup(seed, **dims)
    scores, weights, context = naive_additive(**args)
    t = attn_core.additive_attention(**args)
    np.testing.assert_allclose(t.scores, scores, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(t.weights, weights, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(t.context, context, rtol=1e-12, atol=1e-14)
    t_k, d_a = args["keys"].shape[0], args["v_a"].shape[0]
    assert t.hidden.shape == (t_k, d_a) and t.scores.shape == (t_k,)
    assert t.context.shape == (args["values"].shape[1],)


@pytest.mark.parametrize("seed", [3, 4])
def test_trace_steps_fit_together(seed):
    a = setup(seed)
    t = attn_core.additive_attention(**a)
    hidden = np.tanh(a["w_1"] @ a["query"] + a["keys"] @ a["w_2"].T)
    np.testing.assert_allclose(t.hidden, hidden, rtol=1e-14)
    np.testing.assert_allclose(t.scores, t.hidden @ a["v_a"], rtol=1e-14)
    np.testing.assert_allclose(t.weights, attn_core.softmax(t.scores), rtol=1e-14)
    assert np.all(t.weights >= 0) and t.weights.sum() == pytest.approx(1.0)
    assert np.all(np.abs(t.hidden) <= 1.0)


def test_context_is_a_weighted_average_of_values():
    a = setup(5)
    a["values"] = np.tile([2.0, -1.0, 0.5, 3.0], (5, 1))  # every value row the same
    t = attn_core.additive_attention(**a)
    np.testing.assert_allclose(t.context, [2.0, -1.0, 0.5, 3.0], rtol=1e-14)


@pytest.mark.parametrize(
    "name, value, error",
    [
        ("query", np.ones((1, 3)), ShapeError),
        ("query", np.ones(2), ShapeError),
        ("keys", np.ones((5, 3)), ShapeError),
        ("values", np.ones((4, 4)), ShapeError),
        ("w_1", np.ones((5, 3)), ShapeError),
        ("w_2", np.ones((6, 3)), ShapeError),
        ("v_a", np.ones(5), ShapeError),
        ("v_a", np.ones((6, 1)), ShapeError),
        ("keys", np.full((5, 4), np.nan), NonFiniteError),
        ("query", ["a", "b", "c"], AttentionInputError),
        ("values", np.zeros((0, 4)), ShapeError),
    ],
)
def test_bad_input(name, value, error):
    a = setup(0)
    a[name] = value
    with pytest.raises(error):
        attn_core.additive_attention(**a)


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
