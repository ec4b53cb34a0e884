"""Additive (Bahdanau, 2015) attention: a small feed-forward net scores each key."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attn_core.errors import ShapeError, as_matrix
from attn_core.softmax import softmax


@dataclass(frozen=True, eq=False)
class AdditiveTrace:
    """scores : (T_k,)  weights : (T_k,)  context : (d_v,)  hidden : (T_k, d_a)"""

    hidden: np.ndarray
    scores: np.ndarray
    weights: np.ndarray
    context: np.ndarray


def additive_attention(query, keys, values, w_1, w_2, v_a) -> AdditiveTrace:
    """Bahdanau scoring for one query.

    score_i = v_a^T tanh(w_1 query + w_2 key_i),  alpha = softmax(score),
    context = sum_i alpha_i value_i

    Parameters
    ----------
    query : (d_q,)      the decoder state s
    keys : (T_k, d_h)   the encoder states h_i
    values : (T_k, d_v) usually the same as keys
    w_1 : (d_a, d_q)
    w_2 : (d_a, d_h)
    v_a : (d_a,)

    Returns
    -------
    AdditiveTrace
    """
    query = as_matrix(query, "query", ndim=1)
    keys, values = as_matrix(keys, "keys"), as_matrix(values, "values")
    w_1, w_2 = as_matrix(w_1, "w_1"), as_matrix(w_2, "w_2")
    v_a = as_matrix(v_a, "v_a", ndim=1)
    if w_1.shape[1] != query.shape[0] or w_2.shape[1] != keys.shape[1]:
        raise ShapeError(
            f"w_1 must be (d_a, {query.shape[0]}) and w_2 (d_a, {keys.shape[1]}); "
            f"got {w_1.shape} and {w_2.shape}."
        )
    if w_1.shape[0] != w_2.shape[0] or v_a.shape[0] != w_1.shape[0]:
        raise ShapeError(
            f"w_1, w_2 and v_a must share d_a; got {w_1.shape}, {w_2.shape}, {v_a.shape}."
        )
    if keys.shape[0] != values.shape[0]:
        raise ShapeError(
            f"keys and values need the same number of rows: {keys.shape}, {values.shape}."
        )
    hidden = np.tanh(w_1 @ query + keys @ w_2.T)  # (d_a,) + (T_k, d_a) -> (T_k, d_a)
    scores = hidden @ v_a  # (T_k,)
    weights = softmax(scores)
    return AdditiveTrace(hidden, scores, weights, weights @ values)
