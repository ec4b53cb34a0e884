"""The backward pass by hand: tokens as columns, exact fractions, one head's gradients.

The forward sheet ends with z = v a (d_v x T; a's columns are the weights). Given dz, the
gradient of a loss with respect to z (small whole numbers), the gradients flow back:

    dv      = dz a^T                      (d_v, T)
    da      = v^T dz                      (T, T): entry (i, j) = v_i . dz_j
    c_j     = sum_i a_ij da_ij            one number per query column
    ds      = a * (da - c)                (T, T): the softmax backward, column by column
    dscores = ds / 2                      the sheet's floor(s / 2) stands for s / 2: slope 1/2
    dq      = k dscores                   (d_k, T), because scores = k^T q
    dk      = q dscores^T                 (d_k, T)

Two shortcuts of the forward sheet carry over. floor(s / 2) is differentiated as the s / 2 it
stands for (floor itself is flat almost everywhere). And the softmax backward a * (da - c) is
e^x's; with 3^x every ds would also carry a factor ln 3 ~ 1.10, left out as the sheet leaves
out sqrt(3). Everything else is exact: ``attention_backward`` on the transposed matrices
gives the same numbers (a test checks it).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from attn_core.by_hand.rules import as_int_matrix
from attn_core.by_hand.trace import HandTrace
from attn_core.errors import AttentionInputError, ShapeError

SLOPE = Fraction(1, 2)  # d(s / 2) / ds: the sheet's scaling rule, differentiated


@dataclass(frozen=True, eq=False)
class HandGrads:
    """Every gradient of the backward pass by hand. Tokens are columns; Fractions.

    d_z : (d_v, T) int   dv : (d_v, T)   d_weights : (T, T)   col_dots : (T,) the c_j
    d_scaled : (T, T)    d_scores : (T, T)   dq, dk : (d_k, T)
    """

    d_z: np.ndarray
    dv: np.ndarray
    d_weights: np.ndarray
    col_dots: np.ndarray
    d_scaled: np.ndarray
    d_scores: np.ndarray
    dq: np.ndarray
    dk: np.ndarray


def hand_backward(trace: HandTrace, d_z) -> HandGrads:
    """The backward pass of one by-hand head for the given dz (d_v, T) whole numbers.

    Parameters
    ----------
    trace : HandTrace with the rule "floor" or "trunc" (exact fractions)
    d_z : (d_v, T) whole numbers, the gradient of the loss with respect to z

    Returns
    -------
    HandGrads, exact Fractions
    """
    if trace.scale_rule == "exact":
        raise AttentionInputError.said("The backward pass by hand needs the floor or trunc rule.")
    d_z = as_int_matrix(d_z, "dz")
    if d_z.shape != trace.z.shape:
        raise ShapeError.said(
            "dz must have the shape of z, {z_shape}; got {shape}.",
            z_shape=trace.z.shape,
            shape=d_z.shape,
        )
    a, v, q, k = trace.weights, trace.v.astype(object), trace.q.astype(object), trace.k
    dz = d_z.astype(object)
    dv = dz @ a.T  # (d_v, T) x (T, T) -> (d_v, T)
    da = v.T @ dz  # (T, d_v) x (d_v, T) -> (T, T)
    c = (a * da).sum(axis=0)  # (T,): one dot product per query column
    ds = a * (da - c)  # (T, T) - (T,) subtracts c_j from column j
    d_scores = ds * SLOPE  # (T, T)
    dq = k.astype(object) @ d_scores  # (d_k, T) x (T, T) -> (d_k, T)
    dk = q @ d_scores.T  # (d_k, T) x (T, T) -> (d_k, T)
    grads = (d_z, dv, da, c, ds, d_scores, dq, dk)
    for g in grads:
        g.flags.writeable = False
    return HandGrads(*(_exact(g) for g in grads))


def _exact(a: np.ndarray) -> np.ndarray:
    """Every entry a Fraction (whole numbers included), so a sheet prints them alike."""
    if a.dtype != object:
        return a
    out = np.array([Fraction(x) for x in a.ravel()], dtype=object).reshape(a.shape)
    out.flags.writeable = False
    return out


def max_denominator(grads: HandGrads) -> int:
    """The largest denominator on the backward sheet: how hard its fractions are."""
    return max(
        Fraction(x).denominator
        for g in (grads.dv, grads.d_scaled, grads.dq, grads.dk)
        for x in g.ravel()
    )
