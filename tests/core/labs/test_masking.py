"""attn_core.labs.masking: the additive mask, a mask ticked cell by cell, the wrong way."""

import numpy as np
import pytest

import attn_core
from attn_core import AttentionInputError, ShapeError
from attn_core.labs import masking


def test_additive_mask_is_zero_or_minus_infinity():
    m = masking.additive_mask(attn_core.causal_mask(3))
    assert np.all(m[np.tril_indices(3)] == 0.0)
    assert np.all(m[np.triu_indices(3, 1)] == -np.inf)


def test_mask_after_softmax_is_the_wrong_computation():
    rng = np.random.default_rng(5)
    q, k, v = rng.normal(size=(3, 6, 4))
    mask = attn_core.causal_mask(6)
    right = attn_core.attention(q, k, v, mask=mask, temperature=0.7)
    wrong = masking.mask_after_softmax(right.scaled, mask, temperature=0.7)
    assert np.all(wrong[~mask] == 0.0) and np.all(right.weights[~mask] == 0.0)
    sums = wrong.sum(axis=1)
    assert sums[-1] == pytest.approx(1.0)  # the last row forbids nothing
    assert np.all(sums[:-1] < 1.0)
    # the allowed entries are the unmasked softmax's, not a renormalised distribution
    full = attn_core.softmax(right.scaled / 0.7)
    np.testing.assert_allclose(wrong[mask], full[mask])
    np.testing.assert_allclose(wrong / sums[:, None], right.weights, rtol=1e-12)


def test_mask_after_softmax_leaves_a_fully_masked_row_at_zero_not_nan():
    mask = np.array([[True, False], [False, False]])
    wrong = masking.mask_after_softmax(np.zeros((2, 2)), mask)
    np.testing.assert_array_equal(wrong, [[0.5, 0.0], [0.0, 0.0]])


def test_bool_mask_accepts_ticks_and_says_what_is_wrong():
    ticks = [[True, np.bool_(False)], [False, True]]
    np.testing.assert_array_equal(masking.bool_mask(ticks, (2, 2)), [[1, 0], [0, 1]])
    with pytest.raises(AttentionInputError, match=r"row 1, column 0.*ticked"):
        masking.bool_mask([[True, False], [None, True]])
    with pytest.raises(AttentionInputError, match="ticked"):
        masking.bool_mask([[1, 0], [0, 1]])
    with pytest.raises(ShapeError, match="one row and one column per token"):
        masking.bool_mask([[True, True]], (2, 2))
    with pytest.raises(ShapeError):
        masking.bool_mask([True, False])
