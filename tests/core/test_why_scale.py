"""attn_core.why_scale: the simulated statistics against their closed forms."""

import math

import numpy as np
import pytest

import attn_core
from attn_core import AttentionInputError
from attn_core.stats import softmax_gradient_norm
from attn_core.why_scale import (
    N_SCORES,
    jacobian_max,
    sample_scores,
    saturation,
    scale_sweep,
    softmax_jacobian,
    variance_standard_error,
)


@pytest.mark.parametrize("d", [1, 4, 64, 1024])
@pytest.mark.parametrize("n_keys", [2, 8, 64])
def test_variance_of_q_dot_k_is_d_and_one_after_scaling(d, n_keys):
    s = sample_scores(d, n_keys, seed=0)
    assert s.scores.size >= N_SCORES
    for scaled, closed in ((False, d), (True, 1.0)):
        got = saturation(s, scaled=scaled)
        se = variance_standard_error(d, s.n_queries, n_keys, scaled=scaled)
        assert got.closed_form == closed
        assert abs(got.variance - closed) < 4 * se, (got.variance, closed, se)


def test_standard_error_matches_the_spread_over_seeds():
    d, n_keys = 16, 8
    variances = [
        saturation(sample_scores(d, n_keys, seed=k), scaled=False).variance for k in range(40)
    ]
    se = variance_standard_error(d, sample_scores(d, n_keys).n_queries, n_keys, scaled=False)
    assert np.std(variances) == pytest.approx(se, rel=0.35)
    assert np.mean(variances) == pytest.approx(d, abs=3 * se / math.sqrt(40))


def test_scaled_scores_are_the_scores_over_sqrt_d():
    s = sample_scores(256, 4, seed=3)
    np.testing.assert_allclose(s.scaled, s.scores / 16)
    np.testing.assert_allclose(s.weights_unscaled, attn_core.softmax(s.scores))
    np.testing.assert_allclose(s.weights_scaled, attn_core.softmax(s.scores / 16))


def test_large_d_saturates_only_the_unscaled_softmax():
    sweep = scale_sweep([1, 16, 1024], n_keys=8)
    top_u = sweep.column("max_weight", scaled=False)
    top_s = sweep.column("max_weight", scaled=True)
    assert top_u[-1] > 0.95 > 0.6 > top_s[-1]
    assert (
        sweep.column("entropy", scaled=False)[-1]
        < 0.1
        < 1.0
        < sweep.column("entropy", scaled=True)[-1]
        < math.log(8)
    )
    grad_u, grad_s = sweep.column("grad_norm", scaled=False), sweep.column("grad_norm", scaled=True)
    assert grad_u[-1] < grad_s[-1] / 5 and np.all(np.diff(grad_u) < 0)
    assert sweep.column("grad_max", scaled=False)[-1] < sweep.column("grad_max", scaled=True)[-1]


def test_sweep_points_equal_single_samples_and_follow_the_seed():
    sweep = scale_sweep([8, 32], n_keys=5, seed=2)
    assert sweep.unscaled[1] == saturation(sample_scores(32, 5, seed=2), scaled=False)
    assert sweep.scaled[0] == saturation(sample_scores(8, 5, seed=2), scaled=True)
    assert scale_sweep([8], n_keys=5, seed=3).unscaled[0] != sweep.unscaled[0]
    np.testing.assert_array_equal(sweep.d, [8, 32])


def test_jacobian_matches_finite_differences():
    s = np.array([0.3, -1.2, 2.0, 0.5])
    p, eps = attn_core.softmax(s), 1e-6
    numeric = np.stack(
        [
            (attn_core.softmax(s + eps * e) - attn_core.softmax(s - eps * e)) / (2 * eps)
            for e in np.eye(4)
        ],
        axis=1,
    )
    np.testing.assert_allclose(softmax_jacobian(p), numeric, atol=1e-8)
    assert np.linalg.norm(softmax_jacobian(p)) == pytest.approx(softmax_gradient_norm(p))
    assert jacobian_max(p) == pytest.approx(np.abs(numeric).max(), abs=1e-8)


def test_jacobian_max_is_a_quarter_at_most_and_zero_when_saturated():
    assert jacobian_max(np.array([0.5, 0.5])) == pytest.approx(0.25)
    assert jacobian_max(np.array([0.0, 1.0, 0.0])) == 0.0
    assert (
        jacobian_max(attn_core.softmax(np.random.default_rng(0).normal(size=(50, 6)))).max() <= 0.25
    )


@pytest.mark.parametrize(
    "bad", [{"d": 0}, {"d": 1025}, {"d": 2.5}, {"n_keys": 1}, {"n_keys": 65}, {"seed": -1}]
)
def test_bad_sizes_say_what_to_change(bad):
    args = {"d": 4, "n_keys": 4, "seed": 0} | bad
    with pytest.raises(AttentionInputError, match="whole number"):
        sample_scores(args.pop("d"), args.pop("n_keys"), **args)
