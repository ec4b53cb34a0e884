"""Additive (Bahdanau, 2015) attention: a small feed-forward net scores each key.

Each query s_t (a decoder state) scores every key h_i (an encoder state) with one hidden
layer, and the softmax over i gives row t of the alignment matrix:

    e_ti = v_a^T tanh(W_1 s_t + W_2 h_i),    alpha_t = softmax(e_t),    c_t = sum_i alpha_ti v_i

``additive_alignment`` does every query at once (values default to the keys, as in
Bahdanau); ``additive_attention`` is one query of it. ``score_costs`` counts the
multiply-adds of this score against the dot product s_t . h_i.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attn_core.errors import ShapeError, as_matrix, whole_number
from attn_core.softmax import softmax


@dataclass(frozen=True, eq=False)
class AlignmentTrace:
    """Every intermediate of additive attention for T_t queries over T_s keys.

    s : (T_t, d_s)           decoder states (queries)      h : (T_s, d_h) encoder states (keys)
    hidden : (T_t, T_s, d_a) tanh(W_1 s_t + W_2 h_i), the network's hidden layer
    scores : (T_t, T_s)      e_ti = v_a . hidden[t, i]
    weights : (T_t, T_s)     alpha, softmax of each row: the alignment matrix
    context : (T_t, d_v)     c_t = sum_i alpha_ti v_i (v = h unless other values are given)
    """

    s: np.ndarray
    h: np.ndarray
    hidden: np.ndarray
    scores: np.ndarray
    weights: np.ndarray
    context: np.ndarray


@dataclass(frozen=True, eq=False)
class AdditiveTrace:
    """One query: hidden : (T_k, d_a)  scores : (T_k,)  weights : (T_k,)  context : (d_v,)"""

    hidden: np.ndarray
    scores: np.ndarray
    weights: np.ndarray
    context: np.ndarray


def additive_alignment(s, h, w_1, w_2, v_a, *, values=None) -> AlignmentTrace:
    """Bahdanau attention of every row of s over the rows of h.

    e = v_a^T tanh(W_1 s_t + W_2 h_i),  weights = softmax(e) by row,  context = weights values

    Parameters
    ----------
    s : (T_t, d_s)
    h : (T_s, d_h)
    w_1 : (d_a, d_s)
    w_2 : (d_a, d_h)
    v_a : (d_a,)
    values : (T_s, d_v), optional; default h

    Returns
    -------
    AlignmentTrace; row t equals ``additive_attention(s[t], h, values, w_1, w_2, v_a)``.
    """
    s, h = as_matrix(s, "s"), as_matrix(h, "h")
    values = h if values is None else as_matrix(values, "values")
    w_1, w_2, v_a = as_matrix(w_1, "w_1"), as_matrix(w_2, "w_2"), as_matrix(v_a, "v_a", ndim=1)
    if w_1.shape != (v_a.size, s.shape[1]) or w_2.shape != (v_a.size, h.shape[1]):
        raise ShapeError.said(
            "With d_a = {d_a}, w_1 must be ({d_a}, {s_width}) and w_2 "
            "({d_a}, {h_width}); got {w_1_shape} and {w_2_shape}.",
            d_a=v_a.size,
            s_width=s.shape[1],
            h_width=h.shape[1],
            w_1_shape=w_1.shape,
            w_2_shape=w_2.shape,
        )
    if values.shape[0] != h.shape[0]:
        raise ShapeError.said(
            "keys and values need the same number of rows: {h_shape}, {values_shape}.",
            h_shape=h.shape,
            values_shape=values.shape,
        )
    # W_1 s_t once per query, W_2 h_i once per key; only the sum and tanh are per pair
    hidden = np.tanh((s @ w_1.T)[:, None, :] + (h @ w_2.T)[None, :, :])  # (T_t, T_s, d_a)
    scores = hidden @ v_a  # (T_t, T_s, d_a) x (d_a,) -> (T_t, T_s)
    weights = softmax(scores)  # (T_t, T_s), rows sum to 1
    context = weights @ values  # (T_t, T_s) x (T_s, d_v) -> (T_t, d_v)
    return AlignmentTrace(s, h, hidden, scores, weights, context)


def additive_attention(query, keys, values, w_1, w_2, v_a) -> AdditiveTrace:
    """Bahdanau scoring for one query: row 0 of ``additive_alignment``.

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
    a = additive_alignment(query[None, :], keys, w_1, w_2, v_a, values=values)  # T_t = 1
    return AdditiveTrace(a.hidden[0], a.scores[0], a.weights[0], a.context[0])


def additive_params(d_s: int, d_h: int, d_a: int, *, seed: int = 0):
    """Seeded, untrained W_1 (d_a, d_s), W_2 (d_a, d_h) and v_a (d_a,).

    W_1 and W_2 have N(0, 1 / fan-in) entries, so with unit-variance inputs W_1 s + W_2 h has
    entries of variance about 2 and the tanh is neither flat nor saturated. v_a has N(0, 1)
    entries: the scores of a row then spread about as much as scaled dot products do
    (a standard deviation near 1 for d_a around 16), so the alignment is not uniform.
    """
    for name, n in (("d_s", d_s), ("d_h", d_h), ("d_a", d_a), ("seed", seed)):
        whole_number(n, name, 0 if name == "seed" else 1)
    rng = np.random.default_rng(seed)
    w_1 = rng.normal(0.0, 1.0 / np.sqrt(d_s), (d_a, d_s))
    w_2 = rng.normal(0.0, 1.0 / np.sqrt(d_h), (d_a, d_h))
    v_a = rng.normal(0.0, 1.0, d_a)
    return w_1, w_2, v_a


@dataclass(frozen=True)
class ScoreCost:
    """The work of one T_t x T_s matrix of scores, in multiply-adds (a * b + c counts once).

    dot : T_t T_s d                        one matmul S = Q K^T
    additive : d_a (T_t d + T_s d + T_t T_s)   W_1 s per target, W_2 h per source, v_a . per pair
    additive_naive : T_t T_s d_a (2 d + 1)  W_1 s and W_2 h recomputed for every pair
    tanh : T_t T_s d_a                      tanh evaluations (the dot product needs none)
    stored_dot, stored_additive : numbers kept for the backward pass: T_t T_s, T_t T_s d_a
    """

    dot: int
    additive: int
    additive_naive: int
    tanh: int
    stored_dot: int
    stored_additive: int


def score_costs(t_t: int, t_s: int, d: int, d_a: int) -> ScoreCost:
    """`ScoreCost` for T_t queries and T_s keys of size d, and a hidden layer of size d_a."""
    for name, n in (("T_t", t_t), ("T_s", t_s), ("d", d), ("d_a", d_a)):
        whole_number(n, name, 1)
    t_t, t_s, d, d_a = int(t_t), int(t_s), int(d), int(d_a)
    pairs = t_t * t_s
    return ScoreCost(
        dot=pairs * d,
        additive=d_a * (t_t * d + t_s * d + pairs),
        additive_naive=pairs * d_a * (2 * d + 1),
        tanh=pairs * d_a,
        stored_dot=pairs,
        stored_additive=pairs * d_a,
    )
