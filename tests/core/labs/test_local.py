"""Local attention: a band mask, and the number of scores it keeps."""

import numpy as np
import pytest

import attn_core
from attn_core import AttentionInputError
from attn_core.labs.local import local_attention, n_scores, score_counts
from naive import attention as naive_attention


def qkv(t, d=4, seed=0):
    return np.random.default_rng(seed).normal(size=(3, t, d))


@pytest.mark.parametrize("t, w", [(1, 0), (5, 0), (5, 1), (6, 2), (9, 3), (4, 3), (4, 10)])
def test_count_is_the_band_of_the_mask(t, w):
    band = int(attn_core.window_mask(t, w).sum())
    assert n_scores(t, w) == band
    if w <= t - 1:
        assert band == t * (2 * w + 1) - w * (w + 1)


def test_global_count_and_wide_windows():
    assert n_scores(7) == 49 == n_scores(7, 6) == n_scores(7, 100)
    full, band = score_counts([1, 10, 4096], 2)
    np.testing.assert_array_equal(full, [1, 100, 4096**2])
    np.testing.assert_array_equal(band, [1, 10 * 5 - 6, 4096 * 5 - 6])


@pytest.mark.parametrize("t, w", [(6, 1), (7, 2), (5, 0)])
def test_weights_match_naive_loops_with_the_band(t, w):
    q, k, v = qkv(t)
    got = local_attention(q, k, v, w)
    band = [[abs(i - j) <= w for j in range(t)] for i in range(t)]
    _, weights, output = naive_attention(q, k, v, mask=band)
    np.testing.assert_allclose(got.weights, weights, atol=1e-12)
    np.testing.assert_allclose(got.output, output, atol=1e-12)
    outside = ~np.array(band)
    assert np.all(got.weights[outside] == 0)
    np.testing.assert_allclose(got.weights.sum(axis=1), 1.0)


def test_width_zero_copies_v_and_wide_window_is_global():
    q, k, v = qkv(5)
    np.testing.assert_allclose(local_attention(q, k, v, 0).output, v, atol=1e-15)
    np.testing.assert_allclose(
        local_attention(q, k, v, 4).weights, attn_core.attention(q, k, v).weights, atol=1e-15
    )


def test_bad_input_is_explained():
    q, k, v = qkv(4)
    with pytest.raises(AttentionInputError, match="width"):
        local_attention(q, k, v, -1)
    with pytest.raises(AttentionInputError, match="same number of rows"):
        local_attention(q, k[:3], v[:3], 1)
    with pytest.raises(AttentionInputError, match="T must"):
        n_scores(0, 1)
