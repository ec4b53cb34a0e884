"""attn_core.labs.weighted_sum: parts of a weighted sum, row sums, the mean over heads."""

import numpy as np
import pytest

import attn_core
from attn_core import ShapeError
from attn_core.labs import weighted_sum


def test_row_sums():
    np.testing.assert_allclose(weighted_sum.row_sums([[0.25, 0.75], [0.5, 0.0]]), [1.0, 0.5])


@pytest.mark.parametrize("seed", [0, 3])
def test_weighted_sum_parts_add_up_to_the_output_row(seed):
    rng = np.random.default_rng(seed)
    t = attn_core.attention(
        rng.normal(size=(5, 4)), rng.normal(size=(5, 4)), rng.normal(size=(5, 3))
    )
    for i in range(5):
        parts = weighted_sum.weighted_sum_parts(t.weights[i], t.v)
        assert parts.shape == (5, 3)
        np.testing.assert_allclose(parts[2], t.weights[i, 2] * t.v[2])
        np.testing.assert_allclose(parts.sum(axis=0), t.output[i], rtol=1e-12, atol=1e-14)


def test_weighted_sum_parts_check_shapes():
    with pytest.raises(ShapeError):
        weighted_sum.weighted_sum_parts([0.5, 0.5], np.ones((3, 2)))


def test_mean_over_heads_keeps_distributions():
    rng = np.random.default_rng(2)
    w = attn_core.softmax(rng.normal(size=(4, 5, 5)))
    mean = weighted_sum.mean_over_heads(w)
    np.testing.assert_allclose(mean, (w[0] + w[1] + w[2] + w[3]) / 4)
    np.testing.assert_allclose(mean.sum(axis=1), 1.0)
    with pytest.raises(ShapeError):
        weighted_sum.mean_over_heads(w[0])
