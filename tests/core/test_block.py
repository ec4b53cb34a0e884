"""The block around the head: layer norm against batch norm, and MiniLM's layer step by step."""

import numpy as np
import pytest

from attn_core import AttentionInputError
from attn_core.block import STAGES, encoder_block, normalise, spread
from attn_core.layers import layer_norm
from attn_core.pretrained import load_minilm


@pytest.fixture(scope="module")
def model():
    return load_minilm()


@pytest.mark.parametrize("shape", [(4, 6), (1, 5), (7, 3), (2, 2)])
def test_layer_norm_gives_each_token_mean_0_variance_1(shape):
    x = np.random.default_rng(0).normal(3.0, 5.0, size=shape)
    y = normalise(x, 1, eps=1e-12)
    np.testing.assert_allclose(y.mean(axis=1), 0.0, atol=1e-12)
    np.testing.assert_allclose(y.var(axis=1), 1.0, atol=1e-9)
    d = shape[1]
    np.testing.assert_allclose(y, layer_norm(x, np.ones(d), np.zeros(d), 1e-12), atol=1e-12)


@pytest.mark.parametrize("shape", [(4, 6), (5, 1), (3, 7)])
def test_batch_norm_gives_each_feature_mean_0_variance_1(shape):
    x = np.random.default_rng(1).normal(-2.0, 4.0, size=shape)
    y = normalise(x, 0, eps=1e-12)
    np.testing.assert_allclose(y.mean(axis=0), 0.0, atol=1e-12)
    np.testing.assert_allclose(y.var(axis=0), 1.0, atol=1e-9)
    expected = [
        [(x[i, j] - x[:, j].mean()) / x[:, j].std() for j in range(shape[1])]
        for i in range(shape[0])
    ]
    np.testing.assert_allclose(y, expected, atol=1e-9)


def test_the_two_directions_differ_and_a_batch_of_one_becomes_zero():
    x = np.arange(12.0).reshape(3, 4) ** 1.5
    assert not np.allclose(normalise(x, 0), normalise(x, 1))
    row = x[:1]
    np.testing.assert_array_equal(normalise(row, 0), 0.0)  # finite, not NaN
    assert np.isfinite(normalise(row, 1)).all()


def test_bad_arguments_are_explained():
    with pytest.raises(AttentionInputError, match="axis"):
        normalise(np.ones((2, 2)), 2)
    with pytest.raises(AttentionInputError, match="eps"):
        normalise(np.ones((2, 2)), 1, eps=0)


def test_spread_per_token_and_per_feature():
    a = np.array([[1.0, 3.0], [5.0, 9.0]])
    mean, sd = spread(a, 1)
    np.testing.assert_allclose(mean, [2.0, 7.0])
    np.testing.assert_allclose(sd, [1.0, 2.0])
    np.testing.assert_allclose(spread(a, 0)[0], [3.0, 6.0])


@pytest.mark.parametrize("layer", [0, 3, 5])
def test_minilm_block_steps_rebuild_the_models_next_layer(model, layer):
    run = model.run("The driver could not drive the car fast enough because it had a problem.")
    p = model.layers[layer]
    b = encoder_block(run.hidden_states[layer], p, model.n_heads, model.eps)
    np.testing.assert_allclose(b.out, run.hidden_states[layer + 1], atol=1e-6)
    np.testing.assert_allclose(b.weights, run.attentions[layer], atol=1e-7)
    np.testing.assert_allclose(b.res_1, b.x + b.attn, atol=1e-6)
    np.testing.assert_allclose(b.res_2, b.ln_1 + b.ffn, atol=1e-6)
    for norm in (b.norm_1, b.norm_2):  # each token: mean 0, variance 1 before gamma, beta
        np.testing.assert_allclose(norm.mean(axis=1), 0.0, atol=1e-5)
        np.testing.assert_allclose(norm.var(axis=1), 1.0, atol=1e-4)
    np.testing.assert_allclose(b.ln_1, b.norm_1 * p.ln_1[0] + p.ln_1[1], atol=1e-6)
    t = len(run.tokens)
    assert all(getattr(b, s).shape == (t, 384) for s in STAGES)
