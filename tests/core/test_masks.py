"""Masks: shapes and values, combination with &, fully masked rows, bad masks."""

import numpy as np
import pytest

import attn_core
from attn_core import AttentionInputError, FullyMaskedRowError, ShapeError
from naive import attention as naive_attention


def loop_mask(t, allowed):
    return np.array([[allowed(i, j) for j in range(t)] for i in range(t)], dtype=bool)


@pytest.mark.parametrize("t", [1, 2, 5, 9])
def test_causal_mask(t):
    m = attn_core.causal_mask(t)
    assert m.shape == (t, t) and m.dtype == bool
    np.testing.assert_array_equal(m, loop_mask(t, lambda i, j: j <= i))


@pytest.mark.parametrize("t, valid_len", [(1, 1), (4, 4), (5, 3), (6, 1), (3, 0)])
def test_padding_mask(t, valid_len):
    m = attn_core.padding_mask(valid_len, t)
    assert m.shape == (t, t) and m.dtype == bool
    np.testing.assert_array_equal(m, loop_mask(t, lambda i, j: j < valid_len))
    m[0, 0] = not m[0, 0]  # a real array, not a read-only broadcast view
    assert m[1:].sum() == (t - 1) * valid_len


@pytest.mark.parametrize("t, width", [(1, 0), (5, 0), (5, 1), (6, 2), (4, 3), (4, 10)])
def test_window_mask(t, width):
    m = attn_core.window_mask(t, width)
    assert m.shape == (t, t) and m.dtype == bool
    np.testing.assert_array_equal(m, loop_mask(t, lambda i, j: abs(i - j) <= width))


def test_wide_window_is_global_attention():
    assert attn_core.window_mask(5, 4).all()
    assert not attn_core.window_mask(5, 3).all()


@pytest.mark.parametrize("t, valid_len, width", [(6, 4, 1), (5, 5, 0), (7, 3, 2)])
def test_masks_combine_with_and(t, valid_len, width):
    m = attn_core.causal_mask(t) & attn_core.padding_mask(valid_len, t)
    np.testing.assert_array_equal(m, loop_mask(t, lambda i, j: j <= i and j < valid_len))
    local = attn_core.causal_mask(t) & attn_core.window_mask(t, width)
    np.testing.assert_array_equal(local, loop_mask(t, lambda i, j: i - width <= j <= i))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_combined_mask_in_attention_matches_loops(seed):
    t = 6
    mask = attn_core.causal_mask(t) & attn_core.window_mask(t, 2) & attn_core.padding_mask(5, t)
    rng = np.random.default_rng(seed)
    q, k, v = rng.normal(size=(t, 3)), rng.normal(size=(t, 3)), rng.normal(size=(t, 2))
    tr = attn_core.attention(q, k, v, mask=mask)
    _, weights, output = naive_attention(q, k, v, mask=mask)
    np.testing.assert_allclose(tr.weights, weights, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(tr.output, output, rtol=1e-12, atol=1e-14)
    assert np.all(tr.weights[~mask] == 0.0)
    np.testing.assert_allclose(tr.weights.sum(-1), 1.0)


def test_causal_first_row_attends_only_to_itself():
    rng = np.random.default_rng(0)
    q, k, v = rng.normal(size=(4, 2)), rng.normal(size=(4, 2)), rng.normal(size=(4, 3))
    t = attn_core.attention(q, k, v, mask=attn_core.causal_mask(4))
    assert t.weights[0, 0] == 1.0
    np.testing.assert_allclose(t.output[0], v[0], rtol=1e-15)


def test_later_keys_do_not_change_earlier_outputs_under_causal_mask():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(5, 4))
    w = attn_core.lesson_weights(4, 4, seed=1)
    base = attn_core.self_attention(x, w.w_q, w.w_k, w.w_v, mask=attn_core.causal_mask(5))
    x2 = x.copy()
    x2[4] += 10.0  # change only the last token
    moved = attn_core.self_attention(x2, w.w_q, w.w_k, w.w_v, mask=attn_core.causal_mask(5))
    np.testing.assert_allclose(moved.output[:4], base.output[:4], rtol=1e-13)
    assert not np.allclose(moved.output[4], base.output[4])


def test_masking_after_softmax_is_a_different_computation():
    rng = np.random.default_rng(2)
    q, k, v = rng.normal(size=(4, 3)), rng.normal(size=(4, 3)), rng.normal(size=(4, 3))
    mask = attn_core.causal_mask(4)
    zeroed = attn_core.attention(q, k, v).weights * mask  # the wrong way round
    right = attn_core.attention(q, k, v, mask=mask).weights
    assert not np.allclose(zeroed.sum(-1)[1:], 1.0)
    np.testing.assert_allclose(right.sum(-1), 1.0)


@pytest.mark.parametrize(
    "mask, rows",
    [
        (np.zeros((3, 3), dtype=bool), [0, 1, 2]),
        (attn_core.padding_mask(0, 4), [0, 1, 2, 3]),
        (~attn_core.causal_mask(3), [2]),
        (np.triu(np.ones((4, 4), dtype=bool), 2), [2, 3]),
    ],
    ids=["none-allowed", "all-padding", "strict-future", "upper-band"],
)
def test_fully_masked_rows_raise_and_name_the_rows(mask, rows):
    t = mask.shape[0]
    with pytest.raises(FullyMaskedRowError) as info:
        attn_core.attention(np.ones((t, 2)), np.ones((t, 2)), np.ones((t, 2)), mask=mask)
    err = info.value
    assert err.rows == rows
    assert isinstance(err, ValueError)
    noun = "row" if len(rows) == 1 else "rows"
    assert f"{noun} {', '.join(map(str, rows))} " in str(err)
    assert "Allow at least one key" in str(err)  # says what to change
    assert "nan" not in str(err).lower()


def test_many_fully_masked_rows_are_abbreviated():
    mask = np.zeros((15, 15), dtype=bool)
    mask[0, 0] = True
    with pytest.raises(FullyMaskedRowError) as info:
        attn_core.attention(np.ones((15, 1)), np.ones((15, 1)), np.ones((15, 1)), mask=mask)
    assert info.value.rows == list(range(1, 15))
    assert "rows 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 ..." in str(info.value)


def test_fully_masked_row_in_multi_head_and_self_attention():
    w = attn_core.lesson_weights(4, 2, n_heads=2, seed=0)
    mask = attn_core.causal_mask(3)
    mask[1] = False
    x = np.ones((3, 4))
    with pytest.raises(FullyMaskedRowError, match="row 1 "):
        attn_core.multi_head_attention(x, w.w_q, w.w_k, w.w_v, w.w_o, 2, mask=mask)
    with pytest.raises(FullyMaskedRowError, match="row 1 "):
        attn_core.self_attention(x, w.w_q, w.w_k, w.w_v, mask=mask)


@pytest.mark.parametrize(
    "mask, error, message",
    [
        (np.ones((3, 3)), AttentionInputError, "boolean"),
        (np.ones((3, 3), dtype=int), AttentionInputError, "boolean"),
        ([[1, 0, 0], [1, 1, 0], [1, 1, 1]], AttentionInputError, "boolean"),
        (np.ones((3, 4), dtype=bool), ShapeError, "3 x 3"),
        (np.ones(3, dtype=bool), ShapeError, "3 x 3"),
        (np.ones((2, 3, 3), dtype=bool), ShapeError, "mask"),
    ],
    ids=["float", "int", "int-list", "wrong-shape", "1-D", "extra-dim"],
)
def test_bad_masks(mask, error, message):
    x = np.ones((3, 2))
    with pytest.raises(error, match=message):
        attn_core.attention(x, x, x, mask=mask)


def test_mask_list_of_bools_is_accepted():
    x = np.random.default_rng(0).normal(size=(2, 2))
    t = attn_core.attention(x, x, x, mask=[[True, False], [True, True]])
    assert t.weights[0, 1] == 0.0


@pytest.mark.parametrize("bad", [0, -1, 2.0, True, "3", None])
def test_bad_lengths(bad):
    with pytest.raises(AttentionInputError):
        attn_core.causal_mask(bad)
    with pytest.raises(AttentionInputError):
        attn_core.window_mask(bad, 1)
    with pytest.raises(AttentionInputError):
        attn_core.padding_mask(1, bad)


@pytest.mark.parametrize("valid_len", [-1, 5, 1.5, False, None])
def test_bad_valid_len(valid_len):
    with pytest.raises(AttentionInputError, match="valid_len"):
        attn_core.padding_mask(valid_len, 4)


@pytest.mark.parametrize("width", [-1, 0.5, True, None])
def test_bad_width(width):
    with pytest.raises(AttentionInputError, match="width"):
        attn_core.window_mask(4, width)


def test_numpy_integers_are_lengths():
    np.testing.assert_array_equal(attn_core.causal_mask(np.int64(3)), attn_core.causal_mask(3))
    np.testing.assert_array_equal(
        attn_core.padding_mask(np.int32(2), np.int64(3)), attn_core.padding_mask(2, 3)
    )
