"""attn_core.tiled: attention a block of keys at a time equals attention on the whole matrix."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import attn_core
from attn_core import AttentionInputError, FullyMaskedRowError, NonFiniteError, ShapeError
from attn_core.tiled import memory_bytes, tiled_output

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True)


def qkv(seed, t_q, t_k, d_k=3, d_v=2, std=1.0):
    rng = np.random.default_rng(seed)
    return tuple(rng.normal(0, std, s) for s in ((t_q, d_k), (t_k, d_k), (t_k, d_v)))


def naive_running(q, k, mask, scale, block):
    """m and l after every block, with loops over keys: the definitions, written out.

    m after block b is the max over every allowed key so far; l is sum exp(s - m) over them.
    """
    out = []
    for stop in range(block, len(k) + block, block):
        seen = range(min(stop, len(k)))
        ms, ls = [], []
        for i in range(len(q)):
            s = [
                sum(float(a) * float(b) for a, b in zip(q[i], k[j], strict=True)) * scale
                for j in seen
                if mask is None or mask[i][j]
            ]
            m = max(s) if s else -math.inf
            ms.append(m)
            ls.append(sum(math.exp(x - m) for x in s))
        out.append((ms, ls))
    return out


@SETTINGS
@given(
    t_q=st.integers(1, 9),
    t_k=st.integers(1, 11),
    d_k=st.integers(1, 5),
    d_v=st.integers(1, 4),
    block=st.integers(1, 13),
    masking=st.sampled_from(["none", "random", "causal"]),
    seed=st.integers(0, 2**32 - 1),
    std=st.floats(0.1, 6),
)
def test_tiles_equal_attention_and_m_l_follow_the_loops(
    t_q, t_k, d_k, d_v, block, masking, seed, std
):
    q, k, v = qkv(seed, t_q, t_k, d_k, d_v, std)
    rng = np.random.default_rng(seed + 1)
    mask = None
    if masking == "random":
        mask = rng.random((t_q, t_k)) < 0.4
        mask[np.arange(t_q), rng.integers(0, t_k, t_q)] = True  # at least one key per row
    elif masking == "causal":
        # rectangular causal (query i sees keys j <= i + t_k - t_q, as in a KV cache)
        mask = np.tri(t_q, t_k, k=max(t_k - t_q, 0), dtype=bool)
    t = attn_core.tiled_attention(q, k, v, block=block, mask=mask)
    full = attn_core.attention(q, k, v, mask=mask)
    np.testing.assert_allclose(t.output, full.output, rtol=0, atol=1e-12)
    assert len(t.steps) == math.ceil(t_k / block)
    assert [(s.start, s.stop) for s in t.steps] == [
        (b, min(b + block, t_k)) for b in range(0, t_k, block)
    ]
    for step, (ms, ls) in zip(t.steps, naive_running(q, k, mask, t.scale, block), strict=True):
        assert step.m.tolist() == pytest.approx(ms, rel=1e-12, abs=0)
        np.testing.assert_allclose(step.l, ls, rtol=1e-12)
        assert np.all(np.isfinite(step.output)) and np.all(np.isfinite(step.l))
    np.testing.assert_allclose(t.m, full.masked.max(axis=1), rtol=1e-15)


@pytest.mark.parametrize("block", [1, 2, 3, 4, 5, 7, 8, 100])
def test_causal_self_attention_for_every_block_size(block):
    q, k, v = qkv(0, 7, 7, 4, 3)
    mask = attn_core.causal_mask(7)
    t = attn_core.tiled_attention(q, k, v, block=block, mask=mask)
    np.testing.assert_allclose(t.output, attn_core.attention(q, k, v, mask=mask).output, atol=1e-12)


def test_a_block_fully_masked_for_a_row_gives_no_nan():
    """Causal, block 2: row 0 sees nothing in blocks 2 and 3, row 1 nothing either."""
    q, k, v = qkv(3, 6, 6)
    mask = attn_core.causal_mask(6)
    with np.errstate(all="raise"):  # not even a warning about -inf - -inf
        t = attn_core.tiled_attention(q, k, v, block=2, mask=mask)
    later = t.steps[2]
    assert np.all(np.isneginf(later.scores[:2]))  # rows 0 and 1 see no key of block 3
    assert np.all(later.rescale[:2] == 1.0)  # m did not move: nothing to correct
    np.testing.assert_array_equal(later.output[:2], t.steps[0].output[:2])
    assert all(np.isfinite(s.output).all() for s in t.steps)


def test_rows_that_have_seen_no_allowed_key_yet():
    """Key 0 is masked for every row: after block 1 (key 0 only) m is -inf, l and output 0."""
    q, k, v = qkv(4, 3, 4)
    mask = np.ones((3, 4), dtype=bool)
    mask[:, 0] = False
    with np.errstate(all="raise"):
        t = attn_core.tiled_attention(q, k, v, block=1, mask=mask)
    first, second = t.steps[:2]
    assert np.all(np.isneginf(first.m)) and np.all(first.l == 0)
    assert np.all(first.output == 0) and np.all(first.rescale == 1)
    assert np.all(second.rescale == 0.0)  # exp(-inf - m): the empty sums are wiped
    np.testing.assert_allclose(t.output, attn_core.attention(q, k, v, mask=mask).output, atol=1e-12)


def test_the_rescale_corrects_earlier_blocks():
    """Scores rising key after key: every block raises m, so every earlier term shrinks."""
    q = np.array([[1.0]])
    k = np.array([[0.0], [1.0], [2.0], [3.0]])
    v = np.array([[1.0], [2.0], [3.0], [4.0]])
    t = attn_core.tiled_attention(q, k, v, block=1, scale=1.0)
    assert [float(s.m[0]) for s in t.steps] == [0.0, 1.0, 2.0, 3.0]
    np.testing.assert_allclose([s.rescale[0] for s in t.steps[1:]], [math.exp(-1)] * 3)
    np.testing.assert_allclose(t.steps[1].l, [1 + math.exp(-1)])
    np.testing.assert_allclose(t.steps[1].output, [[(math.exp(-1) * 1 + 2) / (1 + math.exp(-1))]])
    np.testing.assert_allclose(t.l, [sum(math.exp(-j) for j in range(4))])
    np.testing.assert_allclose(t.steps[-1].unnormalised / t.l[:, None], t.output)


def test_one_block_is_plain_attention_and_scale_is_passed_on():
    q, k, v = qkv(5, 4, 6)
    t = attn_core.tiled_attention(q, k, v, block=6, scale=1.0)
    full = attn_core.attention(q, k, v, scale=1.0)
    assert len(t.steps) == 1 and t.scale == 1.0
    np.testing.assert_array_equal(t.steps[0].scores, full.scaled)
    assert np.all(t.steps[0].rescale == 0.0)
    np.testing.assert_allclose(t.output, full.output, atol=1e-12)


def test_tiles_are_the_scaled_masked_scores():
    q, k, v = qkv(6, 5, 7)
    mask = attn_core.causal_mask(7)[2:]  # 5 queries against 7 keys
    t = attn_core.tiled_attention(q, k, v, block=3, mask=mask)
    full = attn_core.attention(q, k, v, mask=mask)
    np.testing.assert_array_equal(np.concatenate([s.scores for s in t.steps], axis=1), full.masked)


def test_fully_masked_row_raises_the_same_error_as_attention():
    q, k, v = qkv(7, 3, 4)
    mask = np.ones((3, 4), dtype=bool)
    mask[1] = False
    with pytest.raises(FullyMaskedRowError) as tiled:
        attn_core.tiled_attention(q, k, v, block=2, mask=mask)
    with pytest.raises(FullyMaskedRowError) as plain:
        attn_core.attention(q, k, v, mask=mask)
    assert tiled.value.rows == plain.value.rows == [1]
    assert str(tiled.value) == str(plain.value)


@pytest.mark.parametrize(
    "block, words",
    [
        (0, "at least 1 key"),
        (-2, "at least 1 key"),
        (1.5, "whole number"),
        (True, "whole number"),
        ("2", "whole number"),
        (None, "whole number"),
    ],
)
def test_bad_block(block, words):
    q, k, v = qkv(8, 2, 3)
    with pytest.raises(AttentionInputError, match=words):
        attn_core.tiled_attention(q, k, v, block=block)


def test_bad_inputs_get_the_cores_messages():
    q, k, v = qkv(9, 3, 4)
    with pytest.raises(ShapeError, match="share d_k"):
        attn_core.tiled_attention(q[:, :2], k, v, block=2)
    with pytest.raises(ShapeError, match="one row per key"):
        attn_core.tiled_attention(q, k, v[:3], block=2)
    with pytest.raises(ShapeError, match="one head"):
        attn_core.tiled_attention(q[None], k[None], v[None], block=2)
    bad = q.copy()
    bad[0, 0] = np.nan
    with pytest.raises(NonFiniteError, match="q holds NaN"):
        attn_core.tiled_attention(bad, k, v, block=2)
    with pytest.raises(ShapeError, match="mask has shape"):
        attn_core.tiled_attention(q, k, v, block=2, mask=np.ones((4, 4), dtype=bool))
    with pytest.raises(AttentionInputError, match="scale must be a positive number"):
        attn_core.tiled_attention(q, k, v, block=2, scale=0)


def test_inputs_are_not_written_to():
    q, k, v = qkv(10, 4, 5)
    before = [a.copy() for a in (q, k, v)]
    attn_core.tiled_attention(q, k, v, block=2)
    for a, b in zip((q, k, v), before, strict=True):
        np.testing.assert_array_equal(a, b)


def test_memory_bytes_grow_like_t_squared_against_t():
    assert memory_bytes(4, 2, 3) == (4 * 4 * 8, (4 * 2 + 2 * 4 + 4 * 3) * 8)
    full_1, tiled_1 = memory_bytes(1024, 64, 64)
    full_2, tiled_2 = memory_bytes(2048, 64, 64)
    assert full_2 == 4 * full_1 and tiled_2 == 2 * tiled_1
    assert memory_bytes(3, 10, 1)[1] == (3 * 3 + 2 * 3 + 3) * 8  # a block longer than T is T


@SETTINGS
@given(
    t_q=st.integers(1, 8),
    t_k=st.integers(1, 9),
    block=st.integers(1, 10),
    causal=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_the_lean_form_keeps_nothing_and_gives_the_same_output(t_q, t_k, block, causal, seed):
    q, k, v = qkv(seed, t_q, t_k)
    mask = np.tri(t_q, t_k, k=max(t_k - t_q, 0), dtype=bool) if causal else None
    lean = tiled_output(q, k, v, block=block, mask=mask)
    np.testing.assert_array_equal(
        lean, attn_core.tiled_attention(q, k, v, block=block, mask=mask).output
    )


def test_the_lean_form_checks_its_inputs():
    q, k, v = qkv(11, 2, 3)
    with pytest.raises(AttentionInputError, match="at least 1 key"):
        tiled_output(q, k, v, block=0)
    with pytest.raises(FullyMaskedRowError):
        tiled_output(q, k, v, block=2, mask=np.zeros((2, 3), dtype=bool))
