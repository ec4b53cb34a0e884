"""The backward pass by hand: exact fractions, equal to attention_backward on the transposes."""

from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

import attn_core
from attn_core import AttentionInputError, ShapeError
from attn_core.by_hand import hand_attention, make_exercise
from attn_core.by_hand.backward import hand_backward, max_denominator
from attn_core.by_hand.exercises import DZ_TRIES


def as_row_trace(t):
    """The by-hand head as the row convention's Trace: every matrix transposed, scale 1/2.

    Only the backward pass reads it, and it reads weights, q, k, v, the scale and the output
    shape: the forward numbers are the sheet's (3^x, floor), not attention()'s."""
    base = attn_core.attention(np.eye(2), np.eye(2), np.eye(2))
    f = np.vectorize(float)
    return replace(
        base,
        q=f(t.q.T),
        k=f(t.k.T),
        v=f(t.v.T),
        weights=f(t.weights.T),
        output=f(t.z.T),
        scale=0.5,
        temperature=1.0,
    )


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("causal", [False, True])
def test_equals_attention_backward_on_the_transposes(seed, causal):
    ex = make_exercise(seed, tokens=4, features=5, d_k=2, variant="causal" if causal else "plain")
    head = ex.heads[0]
    d_z = np.random.default_rng(seed).integers(-2, 3, size=head.z.shape)
    g = hand_backward(head, d_z)
    rows = attn_core.attention_backward(as_row_trace(head), d_z.T)
    for hand, row in (
        (g.dv, rows.dv),
        (g.d_weights, rows.d_weights),
        (g.d_scaled, rows.d_scaled),
        (g.d_scores, rows.d_scores),
        (g.dq, rows.dq),
        (g.dk, rows.dk),
    ):
        np.testing.assert_allclose(np.vectorize(float)(hand).T, row, rtol=1e-12, atol=1e-15)
    if causal:
        assert all(v == 0 for v in g.d_scaled[~head.mask])


def test_a_small_example_worked_out():
    """Two tokens, one feature each way: every number checked by hand."""
    x = [[1, 0], [0, 1]]  # (features, tokens)
    t = hand_attention(x, [[1, 0]], [[1, 1]], [[1, 0], [0, 2]])  # q = [1 0], k = [1 1]
    # scores k^T q = [[1, 0], [1, 0]]; floor(/2) = 0: every column uniform, a = 1/2
    assert t.weights.tolist() == [[Fraction(1, 2)] * 2] * 2
    g = hand_backward(t, [[1, 0], [0, 1]])  # dz = identity, v = [[1, 0], [0, 2]]
    assert g.dv.tolist() == [[Fraction(1, 2)] * 2, [Fraction(1, 2)] * 2]
    assert g.d_weights.tolist() == [[1, 0], [0, 2]]  # v^T dz
    assert g.col_dots.tolist() == [Fraction(1, 2), Fraction(1)]
    assert g.d_scaled.tolist() == [
        [Fraction(1, 4), Fraction(-1, 2)],
        [Fraction(-1, 4), Fraction(1, 2)],
    ]
    assert g.d_scores.tolist() == [
        [Fraction(1, 8), Fraction(-1, 4)],
        [Fraction(-1, 8), Fraction(1, 4)],
    ]
    assert g.dq.tolist() == [[0, 0]]  # k's entries are equal: the columns of dS sum to 0
    assert all(isinstance(v, Fraction) for v in g.dq.ravel())


def test_columns_of_ds_sum_to_zero():
    ex = make_exercise(3, variant="backward")
    assert all(sum(col) == 0 for col in ex.grads.d_scaled.T)


def test_backward_worksheet_variant():
    ex = make_exercise(5, variant="backward")
    assert (ex.tokens, ex.d_k, ex.n_heads) == (3, 2, 1)
    assert ex.d_z.shape == ex.heads[0].z.shape and ex.d_z.any()
    assert np.abs(ex.d_z).max() <= 1
    again = hand_backward(ex.heads[0], ex.d_z)
    assert again.dq.tolist() == ex.grads.dq.tolist()
    assert max_denominator(ex.grads) <= 250  # the fractions stay writable
    plain = make_exercise(5)
    assert plain.d_z is None and plain.grads is None
    assert DZ_TRIES > 1


def test_same_seed_same_backward_sheet():
    a, b = make_exercise(8, variant="backward"), make_exercise(8, variant="backward")
    assert a.d_z.tolist() == b.d_z.tolist() and a.grads.dk.tolist() == b.grads.dk.tolist()


@pytest.mark.parametrize(
    "d_z, error, words",
    [
        ([[1, 0, 0]], ShapeError, "shape of z"),
        ([[0.5, 0, 0], [0, 0, 0]], AttentionInputError, "not a whole number"),
    ],
)
def test_bad_dz_says_what_to_fix(d_z, error, words):
    head = make_exercise(5, variant="backward").heads[0]
    with pytest.raises(error, match=words):
        hand_backward(head, d_z)


def test_exact_rule_is_refused():
    t = hand_attention([[1, 0], [0, 1]], [[1, 0]], [[1, 1]], [[1, 0]], scale_rule="exact")
    with pytest.raises(AttentionInputError, match="floor or trunc"):
        hand_backward(t, [[1, 0]])
