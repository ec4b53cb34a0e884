"""attn_core.stats: the measurements on the step pages, against loops and known values."""

import math

import numpy as np
import pytest

import attn_core
from attn_core import AttentionInputError
from attn_core.stats import (
    cosine_similarity,
    dot_terms,
    entropy,
    repeated_tokens,
    softmax_gradient_norm,
    spread,
    without_scaling,
)
from attn_core.why_scale import sample_scores, scale_sweep
from naive import matmul_transposed


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_cosine_matches_a_loop(seed):
    x = np.random.default_rng(seed).normal(size=(5, 7))
    expected = [
        [
            sum(a * b for a, b in zip(x[i], x[j], strict=True))
            / (math.sqrt(sum(a * a for a in x[i])) * math.sqrt(sum(b * b for b in x[j])))
            for j in range(5)
        ]
        for i in range(5)
    ]
    np.testing.assert_allclose(cosine_similarity(x), expected, atol=1e-12)


def test_cosine_ignores_length_and_handles_a_zero_row():
    x = np.array([[1.0, 2.0], [3.0, 6.0], [0.0, 0.0], [-2.0, -4.0]])
    c = cosine_similarity(x)
    np.testing.assert_allclose(c[0, 1], 1.0)
    np.testing.assert_allclose(c[0, 3], -1.0)
    assert np.all(c[2] == 0) and np.all(np.isfinite(c))


@pytest.mark.parametrize("seed", [0, 1])
def test_dot_terms_add_up_to_the_scores(seed):
    rng = np.random.default_rng(seed)
    q, k = rng.normal(size=(3, 4)), rng.normal(size=(5, 4))
    terms = dot_terms(q, k)
    assert terms.shape == (3, 5, 4)
    assert terms[1, 2, 3] == q[1, 3] * k[2, 3]
    np.testing.assert_allclose(terms.sum(axis=-1), matmul_transposed(q, k), atol=1e-12)


def test_dot_terms_need_a_shared_d_k():
    with pytest.raises(AttentionInputError, match="share d_k"):
        dot_terms(np.ones((2, 3)), np.ones((2, 4)))


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


# The Scaling step's curves are why_scale.scale_sweep with n_scores=8000 (scaling_charts.curve).
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


def test_repeated_tokens_and_whether_rows_are_identical():
    x = np.array([[1.0, 0], [2, 0], [1, 0], [2, 1], [3, 3]])
    reps = repeated_tokens(["the", "cat", "the", "cat", "sat"], x)
    assert [(r.token, r.positions, r.identical) for r in reps] == [
        ("the", (0, 2), True),
        ("cat", (1, 3), False),
    ]
    assert repeated_tokens(["a", "b"], x[:2]) == ()
    with pytest.raises(AttentionInputError):
        repeated_tokens(["a"], x)


def test_softmax_summary_of_a_uniform_and_a_peaked_head():
    q, v = np.zeros((3, 2)), np.eye(3)
    flat = attn_core.attention(q, np.ones((3, 2)), v)
    s = attn_core.stats.softmax_summary(flat)
    assert (s.spread, s.max_weight) == (0.0, pytest.approx(1 / 3))
    assert s.entropy == pytest.approx(math.log(3))
    sharp = attn_core.attention(np.array([[10.0, 0]]), np.array([[10.0, 0], [0, 0]]), v[:2])
    s = attn_core.stats.softmax_summary(sharp)
    assert s.max_weight > 0.999 and s.entropy < 1e-3 and s.grad < 1e-3
    assert s.spread == pytest.approx(np.std([100 / np.sqrt(2), 0]))
