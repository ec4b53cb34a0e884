"""Reading a head's habits from its weights, checked against loops and hand-made heads."""

import numpy as np
import pytest

from attn_core import AttentionInputError
from attn_core.labs import decoder_heads as dh
from attn_core.masks import causal_mask
from attn_core.softmax import softmax


def previous_head(t: int) -> np.ndarray:
    """Row t puts all its weight on key t - 1 (row 0 on itself)."""
    a = np.zeros((t, t))
    a[0, 0] = 1
    a[np.arange(1, t), np.arange(t - 1)] = 1
    return a


def sink_head(t: int) -> np.ndarray:
    a = np.zeros((t, t))
    a[:, 0] = 1
    return a


def random_heads(rng, shape, causal: bool) -> np.ndarray:
    s = rng.normal(size=shape)
    if causal:
        s = np.where(causal_mask(shape[-1]), s, -np.inf)
    return softmax(s)


@pytest.mark.parametrize("seed", range(3))
def test_scores_equal_a_loop_over_rows(seed):
    rng = np.random.default_rng(seed)
    a = random_heads(rng, (4, 5, 9, 9), causal=seed % 2 == 0)
    prev, first = dh.previous_token_scores(a), dh.first_token_scores(a)
    assert prev.shape == first.shape == (4, 5)
    for layer in range(4):
        for head in range(5):
            rows = range(2, 9)
            want_prev = sum(a[layer, head, t, t - 1] for t in rows) / len(rows)
            want_first = sum(a[layer, head, t, 0] for t in rows) / len(rows)
            assert prev[layer, head] == pytest.approx(want_prev, abs=1e-12)
            assert first[layer, head] == pytest.approx(want_first, abs=1e-12)


def test_hand_made_heads_get_their_labels():
    t = 6
    heads = np.stack([previous_head(t), sink_head(t), np.tril(np.ones((t, t))) / 3])
    prev, first = dh.previous_token_scores(heads), dh.first_token_scores(heads)
    np.testing.assert_allclose(prev, [1, 0, 1 / 3])
    np.testing.assert_allclose(first, [0, 1, 1 / 3])
    assert list(dh.label_heads(prev, first)) == [dh.PREVIOUS, dh.FIRST, dh.OTHER]
    assert list(dh.label_heads(prev, first, threshold=0.3)) == [dh.PREVIOUS, dh.FIRST, dh.PREVIOUS]


def test_future_weight_is_zero_for_causal_heads_only():
    rng = np.random.default_rng(0)
    causal = random_heads(rng, (3, 7, 7), causal=True)
    full = random_heads(rng, (3, 7, 7), causal=False)
    np.testing.assert_array_equal(dh.future_weight(causal), 0.0)
    assert (dh.upper_triangle(causal) == 0).all()
    assert dh.upper_triangle(causal).size == 3 * 7 * 6 // 2
    # by a loop: the mean over rows of the weight on later keys
    for h in range(3):
        want = np.mean([full[h, t, t + 1 :].sum() for t in range(7)])
        assert dh.future_weight(full)[h] == pytest.approx(want)
    assert (dh.future_weight(full) > 0).all()


def test_top_heads_are_the_largest_scores_best_first():
    scores = np.array([[0.1, 0.9], [0.5, 0.7]])
    assert dh.top_heads(scores, 3) == [(0, 1), (1, 1), (1, 0)]


@pytest.mark.parametrize("t", [1, 2])
def test_too_few_tokens_say_so(t):
    with pytest.raises(AttentionInputError, match="at least 3 tokens"):
        dh.previous_token_scores(np.ones((2, t, t)) / t)


def test_a_bad_threshold_is_refused():
    with pytest.raises(AttentionInputError, match="threshold"):
        dh.label_heads(np.zeros(2), np.zeros(2), threshold=0)
