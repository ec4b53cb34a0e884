"""The KV cache's counts against counting by hand, the cache against the model's own cache, and
one step through the cache against reading everything again."""

from __future__ import annotations

import numpy as np
import pytest

from attn_core.labs.kv_cache import (
    DecoderSizes,
    cache_bytes,
    check_cache,
    layer_flops,
    matmul_flops,
    step_cost,
    time_step,
    weight_bytes,
)
from attn_core.pretrained import load_smollm
from attn_core.pretrained.smollm import KVCache

# a toy decoder small enough to count by hand
TOY = DecoderSizes(n_layers=2, d_model=4, n_heads=2, n_kv_heads=1, head_dim=2, d_ff=3, vocab_size=5)


@pytest.fixture(scope="module")
def model():
    return load_smollm()


def counted_matmul(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, int]:
    """(a @ b, the number of multiplications and additions a school loop makes)."""
    out, ops = np.zeros((a.shape[0], b.shape[1])), 0
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            for k in range(a.shape[1]):
                out[i, j] += a[i, k] * b[k, j]
                ops += 2  # one multiply, one add
    return out, ops


@pytest.mark.parametrize(("m", "k", "n"), [(1, 1, 1), (1, 4, 3), (3, 2, 5)])
def test_matmul_flops_count_the_loop(m, k, n):
    rng = np.random.default_rng(m * 100 + k * 10 + n)
    a, b = rng.normal(size=(m, k)), rng.normal(size=(k, n))
    product, ops = counted_matmul(a, b)
    np.testing.assert_allclose(product, a @ b)
    assert matmul_flops(m, k, n) == ops


def test_one_cached_step_of_the_toy_counted_by_hand():
    # t = 3: the new token's row against 3 keys
    layer = layer_flops(TOY, 1, 3)
    assert (layer.q, layer.k, layer.v) == (2 * 4 * 4, 2 * 4 * 2, 2 * 4 * 2)  # 32, 16, 16
    assert layer.scores == 2 * (2 * 2 * 3)  # 2 heads, a (1, 2) @ (2, 3) product each: 24
    assert layer.weighted_sum == 2 * (2 * 3 * 2)  # 2 heads, (1, 3) @ (3, 2): 24
    assert layer.out == 2 * 4 * 4 and layer.ffn == 3 * (2 * 4 * 3)  # 32, 72
    assert layer.total == 32 + 16 + 16 + 24 + 24 + 32 + 72 == 216
    cost = step_cost(TOY, 3, cached=True)
    assert cost.flops == 2 * 216 + 2 * 4 * 5  # two layers and the logits of one row: 472
    assert cost.attention_flops == 2 * 48
    assert cost.cache_bytes == 2 * 2 * 1 * 3 * 2 * 4  # K and V, 2 layers, 1 head, 3 rows, 2 dims
    assert cost.scores_bytes == 2 * 1 * 3 * 4  # one row of 3 weights per head


def test_the_same_step_without_the_cache_counted_by_hand():
    cost = step_cost(TOY, 3, cached=False)
    per_layer = 3 * (32 + 16 + 16) + 2 * (2 * 3 * 2 * 3) * 2 + 3 * 32 + 3 * 72  # 3 rows of all
    assert cost.flops == 2 * per_layer + 3 * (2 * 4 * 5)
    assert cost.cache_bytes == 0 and cost.scores_bytes == 2 * 3 * 3 * 4  # 2 heads of (3, 3)
    assert cost.weight_bytes == step_cost(TOY, 3, cached=True).weight_bytes


def test_attention_work_grows_like_t_with_the_cache_and_t_squared_without():
    cached = [step_cost(TOY, t, cached=True).attention_flops for t in (10, 20, 40)]
    full = [step_cost(TOY, t, cached=False).attention_flops for t in (10, 20, 40)]
    assert cached[1] == 2 * cached[0] and cached[2] == 2 * cached[1]
    assert full[1] == 4 * full[0] and full[2] == 4 * full[1]
    with pytest.raises(ValueError, match="at least one token"):
        step_cost(TOY, 0, cached=True)


def test_toy_weights_counted_by_hand():
    block = 4 * 4 + 2 * 4 * 2 + 4 * 4 + 3 * 4 * 3 + 2 * 4  # w_q, w_k + w_v, w_o, ffn, norms
    assert weight_bytes(TOY) == (5 * 4 + 2 * block + 4) * 4


def test_counts_match_the_real_model(model):
    sizes = DecoderSizes.from_config(model.config)
    assert sizes == DecoderSizes(30, 576, 9, 3, 64, 1536, 49152)
    assert weight_bytes(sizes) == sum(w.nbytes for w in model.weights.values())
    for t in (1, 17, 8192):
        assert cache_bytes(sizes, t) == model.kv_cache_bytes(t) == 30 * 3 * 2 * t * 64 * 4
    cache = KVCache.empty(model.config, 8)
    cache.advance(5)
    assert cache.nbytes == cache_bytes(sizes, 5)


def test_a_step_through_the_cache_gives_the_numbers_of_a_full_pass(model):
    prompt = model.encode('My grandmother always told me: "')
    check = check_cache(model, prompt)
    assert len(check.ids) == len(prompt) + 1
    assert check.keys_shape == (30, 3, len(prompt) + 1, 64)
    assert check.cache_bytes == model.kv_cache_bytes(len(prompt) + 1)
    assert check.max_difference < 1e-3
    assert check.next_ids[0] == check.next_ids[1]
    # the step's logits are those of the token after the greedy one: a full run agrees
    full = model.run(model.decode(check.ids))
    np.testing.assert_array_equal(full.ids, check.ids)
    np.testing.assert_allclose(full.logits[-1], check.full_logits, atol=1e-4)


def test_time_step_measures_both_ways(model):
    ids = model.encode("The cat sat on the mat")
    timing = time_step(model, ids, repeats=2)
    assert timing.t == len(ids) and timing.repeats == 2
    assert timing.cached_seconds > 0 and timing.full_seconds > 0
    assert timing.speedup == timing.full_seconds / timing.cached_seconds
    with pytest.raises(ValueError, match="at least 2 tokens"):
        time_step(model, ids[:1])
