"""The weights as mixing proportions: a weighted sum split into its parts, row sums, head means.

Output row i of Z = A V is a mix of the value rows, z_i = sum_j a_ij v_j, with proportions
a_ij that sum to 1 over j. Tokens are rows, as in ``attn_core.attention``.
"""

from __future__ import annotations

import numpy as np

from attn_core.errors import ShapeError, as_matrix


def row_sums(a) -> np.ndarray:
    """(..., T_q): the sum of each row of a (..., T_q, T_k) matrix of weights."""
    return np.asarray(a, dtype=float).sum(axis=-1)


def weighted_sum_parts(weights_row, v) -> np.ndarray:
    """(T_k, d_v): row j is a_j v_j, query i's share of value row j.

    z_i = sum_j a_ij v_j, so the parts summed over j give output row i of Z = A V.

    Parameters
    ----------
    weights_row : (T_k,) one row of A
    v : (T_k, d_v)
    """
    v = as_matrix(v, "v")
    a = as_matrix(np.asarray(weights_row, dtype=float)[None, :], "weights_row")[0]
    if a.shape[0] != v.shape[0]:
        raise ShapeError.said(
            "weights_row has {entries} entries but v has {rows} rows.",
            entries=a.shape[0],
            rows=v.shape[0],
        )
    return a[:, None] * v  # (T_k, 1) * (T_k, d_v) -> (T_k, d_v)


def mean_over_heads(weights) -> np.ndarray:
    """(T_q, T_k): the average of every head's weights; each row still sums to 1.

    weights : (n_heads, T_q, T_k)
    """
    w = np.asarray(weights, dtype=float)
    if w.ndim != 3 or 0 in w.shape:
        raise ShapeError.said("weights must be (n_heads, T, T), got shape {shape}.", shape=w.shape)
    return w.mean(axis=0)
