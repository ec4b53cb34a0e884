"""attn_core.labs.normalisation: layer norm against batch norm."""

import numpy as np
import pytest

from attn_core import AttentionInputError
from attn_core.labs.normalisation import normalise, spread
from attn_core.pretrained.bert_layer import layer_norm


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
