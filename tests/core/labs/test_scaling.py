"""attn_core.labs.scaling: the measures of spread and peakedness, and the simulation against
its closed forms."""

import math

import numpy as np
import pytest

import attn_core
from attn_core import AttentionInputError
from attn_core.labs.scaling import (
    N_SCORES,
    entropy,
    jacobian_max,
    sample_scores,
    saturation,
    scale_sweep,
    softmax_gradient_norm,
    softmax_jacobian,
    softmax_summary,
    spread,
    variance_standard_error,
    without_scaling,
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


def test_spread_leaves_out_masked_entries():
    assert spread(np.array([[1.0, -np.inf], [3.0, -np.inf]])) == pytest.approx(1.0)
    assert spread(np.full((2, 2), -np.inf)) == 0.0


def test_entropy_of_one_hot_and_uniform():
    np.testing.assert_allclose(
        entropy(np.array([[1.0, 0, 0], [1 / 3, 1 / 3, 1 / 3]])), [0.0, math.log(3)]
    )


def test_gradient_norm_equals_the_explicit_jacobian():
    p = attn_core.softmax(np.random.default_rng(4).normal(size=(6, 5)))
    for row, g in zip(p, softmax_gradient_norm(p), strict=True):
        jac = np.diag(row) - np.outer(row, row)
        assert g == pytest.approx(np.linalg.norm(jac), rel=1e-12)
    assert softmax_gradient_norm(np.array([0.0, 1.0, 0.0])) == 0.0


def test_without_scaling_is_scale_one():
    rng = np.random.default_rng(5)
    q, k, v = rng.normal(size=(4, 16)), rng.normal(size=(4, 16)), rng.normal(size=(4, 3))
    t = attn_core.attention(q, k, v, mask=attn_core.causal_mask(4), temperature=2.0)
    u = without_scaling(t)
    assert u.scale == 1.0 and t.scale == pytest.approx(0.25)
    np.testing.assert_allclose(u.weights, attn_core.softmax(np.where(t.mask, q @ k.T, -np.inf) / 2))
    np.testing.assert_array_equal(u.weights == 0, t.weights == 0)


# The Scaling step's curves are scaling.scale_sweep with n_scores=8000 (scaling_charts.curve).
def test_scale_sweep_variance_is_d_k_unscaled_and_one_scaled():
    c = scale_sweep([1, 16, 256], n_keys=8, n_scores=20_000)
    assert sample_scores(16, 8, n_scores=20_000).n_queries == 2500  # 20,000 scores, 8 per row
    np.testing.assert_allclose(c.column("variance", scaled=False) / c.d, 1.0, rtol=0.1)
    np.testing.assert_allclose(c.column("variance", scaled=True), 1.0, rtol=0.1)
    # unscaled rows saturate as d_k grows: one weight near 1, no entropy, no gradient
    top_u, top_s = c.column("max_weight", scaled=False), c.column("max_weight", scaled=True)
    assert top_u[-1] > 0.9 > top_s[-1]
    assert c.column("entropy", scaled=False)[-1] < 0.2 < c.column("entropy", scaled=True)[-1]
    assert c.column("entropy", scaled=True)[-1] < math.log(8)
    grad_u, grad_s = c.column("grad_norm", scaled=False), c.column("grad_norm", scaled=True)
    assert grad_u[-1] < grad_s[-1] / 3
    # scaled curves settle once q . k is near-normal (at d_k = 1 it is a product of normals)
    assert abs(top_s[2] - top_s[1]) < 0.02


def test_scale_sweep_is_seeded_per_point():
    a, b = scale_sweep([4, 8], n_keys=3), scale_sweep([8], n_keys=3)
    assert a.unscaled[1].variance == b.unscaled[0].variance
    assert scale_sweep([8], n_keys=3, seed=1).unscaled[0].variance != b.unscaled[0].variance


@pytest.mark.parametrize(
    "bad",
    [{"ds": [0]}, {"ds": [2.5]}, {"n_keys": 0}, {"seed": -1}, {"n_scores": 1}, {"n_scores": 10**6}],
)
def test_scale_sweep_rejects_bad_sizes(bad):
    args = {"ds": [2], "n_keys": 4, "seed": 0} | bad
    with pytest.raises(AttentionInputError, match="whole number"):
        scale_sweep(args.pop("ds"), **args)


def test_softmax_summary_of_a_uniform_and_a_peaked_head():
    q, v = np.zeros((3, 2)), np.eye(3)
    flat = attn_core.attention(q, np.ones((3, 2)), v)
    s = softmax_summary(flat)
    assert (s.spread, s.max_weight) == (0.0, pytest.approx(1 / 3))
    assert s.entropy == pytest.approx(math.log(3))
    sharp = attn_core.attention(np.array([[10.0, 0]]), np.array([[10.0, 0], [0, 0]]), v[:2])
    s = softmax_summary(sharp)
    assert s.max_weight > 0.999 and s.entropy < 1e-3 and s.grad < 1e-3
    assert s.spread == pytest.approx(np.std([100 / np.sqrt(2), 0]))
