"""Grouped-query attention: who reads which K/V head, and the cache each sharing keeps."""

import numpy as np
import pytest

from attn_core import AttentionInputError
from attn_core.attention import attention
from attn_core.labs import grouped_query as gq
from attn_core.masks import causal_mask
from attn_core.pretrained.smollm import repeat_kv


def test_smollm_groups_are_three_heads_each():
    assert gq.group_size(9, 3) == 3
    assert [gq.kv_head_of(h, 3) for h in range(9)] == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    assert [gq.query_heads_of(g, 3) for g in range(3)] == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]


def test_the_grouping_is_the_models_repeat_kv():
    """K/V head g, repeated as the model repeats it, sits under every query head of group g."""
    kv = np.arange(3)[:, None, None] * np.ones((3, 2, 4))  # head g holds the number g
    repeated = repeat_kv(kv, 3)  # (9, 2, 4)
    for h in range(9):
        assert (repeated[h] == gq.kv_head_of(h, 3)).all()


def test_cache_sizes_by_hand():
    # SmolLM2-135M: 30 layers, 64 dims a head, float32
    assert gq.cache_bytes(30, 3, 64, 1) == 2 * 30 * 3 * 64 * 4 == 46_080
    assert gq.cache_bytes(30, 9, 64, 1) == 138_240
    assert gq.cache_bytes(30, 1, 64, 1) == 15_360
    assert gq.cache_numbers(30, 3, 64, 100) == 2 * 30 * 3 * 100 * 64
    grow = gq.cache_growth(30, 9, 3, 64, np.array([0, 10, 8192]))
    np.testing.assert_array_equal(grow["GQA"], [0, 460_800, 46_080 * 8192])
    np.testing.assert_array_equal(grow["MHA"], 3 * grow["GQA"])
    np.testing.assert_array_equal(grow["GQA"], 3 * grow["MQA"])


def test_variants_are_mha_gqa_mqa():
    names = [(v.name, v.n_kv_heads, v.group(9)) for v in gq.variants(9, 3)]
    assert names == [("MHA", 9, 1), ("GQA", 3, 3), ("MQA", 1, 9)]


def test_a_group_reading_one_key_head_equals_attention_head_by_head():
    rng = np.random.default_rng(0)
    q, k, v = rng.normal(size=(3, 5, 4)), rng.normal(size=(5, 4)), rng.normal(size=(5, 4))
    t = gq.group_attention(q, k, v)
    for h in range(3):
        want = attention(q[h], k, v, mask=causal_mask(5))
        np.testing.assert_allclose(t.weights[h], want.weights, atol=1e-12)
        np.testing.assert_allclose(t.output[h], want.output, atol=1e-12)


def test_pattern_gaps_by_a_loop():
    rng = np.random.default_rng(1)
    w = rng.random((3, 4, 4))
    gaps = gq.pattern_gaps(w)
    for a in range(3):
        for b in range(3):
            assert gaps[a, b] == pytest.approx(np.max(np.abs(w[a] - w[b])))
    assert (np.diag(gaps) == 0).all()


@pytest.mark.parametrize(
    ("heads", "kv", "match"), [(9, 2, "evenly"), (0, 1, "n_heads"), (9, True, "n_kv_heads")]
)
def test_bad_sizes_are_refused(heads, kv, match):
    with pytest.raises(AttentionInputError, match=match):
        gq.group_size(heads, kv)


def test_on_smollm_each_group_reads_its_one_key_head():
    """SmolLM2's own weights: query heads 3g..3g+2 with K/V head g give the model's weights."""
    from attn_core.pretrained import load_smollm

    run = load_smollm().run("The cat sat on the mat because it was tired.")
    for layer in (0, 17):
        for g in range(3):
            heads = gq.query_heads_of(g, 3)
            t = gq.group_attention(
                run.queries[layer, heads], run.keys[layer, g], run.values[layer, g]
            )
            np.testing.assert_allclose(t.weights, run.attentions[layer, heads], atol=2e-6)
