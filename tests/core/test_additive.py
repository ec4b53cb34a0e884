"""Additive (Bahdanau) attention against a loop, its trace, and bad shapes."""

import numpy as np
import pytest

import attn_core
from attn_core import AttentionInputError, NonFiniteError, ShapeError
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
