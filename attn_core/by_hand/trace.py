"""Attention by hand: the paper-and-pencil convention, tokens as columns, exact fractions.

q = w_q x,  k = w_k x,  v = w_v x     (d_k, T), (d_k, T), (d_v, T)
scores  = k^T q                       (T, T): column j holds query j against every key i
scaled  = floor(scores / 2)           "trunc" rounds toward zero; "exact" is scores / sqrt(d_k)
powers  = 3 ** scaled                 exact Fractions, 3**-1 = 1/3 ("exact": e ** scaled, floats)
weights = powers / column sums        every column sums to exactly 1
z       = v weights                   (d_v, T): column j is token j's output

The row convention of ``attn_core.attention`` is the transpose of every matrix
(x_rows = x^T, weights_rows = weights^T, output = z^T); ``to_rows`` gives that view.
The rules on numbers (whole-number entries, the scaling, the base-3 column softmax, how a
fraction is written) live in ``attn_core.by_hand.rules``. This module is also
``attn_core.pencil``, its name before the by-hand modules had a package of their own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from attn_core.by_hand.rules import SCALE_RULES, as_int_matrix, col_softmax, scale_scores
from attn_core.errors import AttentionInputError, ShapeError, whole_number


@dataclass(frozen=True, eq=False)
class HandTrace:
    """Every intermediate of one head worked by hand. Tokens are columns.

    Attributes
    ----------
    x : (d_model, T) int           w_q, w_k : (d_k, d_model) int    w_v : (d_v, d_model) int
    q, k : (d_k, T) int            v : (d_v, T) int                 k_t : (T, d_k) int
    scores : (T, T) int            entry (i, j) = k_i . q_j, key i against query j
    scaled : (T, T) int            float for the "exact" rule
    mask : (T, T) bool or None     True where query j (column) may see key i (row)
    powers : (T, T) Fraction       base ** scaled, 0 where masked (float for "exact")
    col_sums : (T,) Fraction       one sum per query column
    weights : (T, T) Fraction      powers / col_sums; every column sums to 1
    z : (d_v, T) Fraction          v weights
    scale_rule : "floor", "trunc" or "exact"     base : 3 (or e for "exact")
    """

    x: np.ndarray
    w_q: np.ndarray
    w_k: np.ndarray
    w_v: np.ndarray
    q: np.ndarray
    k: np.ndarray
    v: np.ndarray
    k_t: np.ndarray
    scores: np.ndarray
    scaled: np.ndarray
    mask: np.ndarray | None
    powers: np.ndarray
    col_sums: np.ndarray
    weights: np.ndarray
    z: np.ndarray
    scale_rule: str
    base: float

    @property
    def d_k(self) -> int:
        return self.q.shape[0]

    @property
    def tokens(self) -> int:
        return self.x.shape[1]


def _check_inputs(x, w_q, w_k, w_v) -> tuple[np.ndarray, ...]:
    x = as_int_matrix(x, "x")
    ws = [as_int_matrix(w, n) for w, n in ((w_q, "w_q"), (w_k, "w_k"), (w_v, "w_v"))]
    for w, n in zip(ws, ("w_q", "w_k", "w_v"), strict=True):
        if w.shape[1] != x.shape[0]:
            raise ShapeError.said(
                "{name} has {columns} columns but x has d_model = {d_model} rows (features); "
                "{name} must be (d_k, d_model), one column per feature.",
                name=n,
                columns=w.shape[1],
                d_model=x.shape[0],
            )
    if ws[0].shape[0] != ws[1].shape[0]:
        raise ShapeError.said(
            "w_q and w_k must have the same number of rows (d_k), got {q_rows} and "
            "{k_rows}: k^T q needs q and k of the same height.",
            q_rows=ws[0].shape[0],
            k_rows=ws[1].shape[0],
        )
    return (x, *ws)


def hand_attention(
    x, w_q, w_k, w_v, *, scale_rule: str = "floor", base: int = 3, causal: bool = False
) -> HandTrace:
    """One head by hand: z = v * colsoftmax_base(scale(k^T q)), tokens as columns.

    Parameters
    ----------
    x : (d_model, T) whole numbers, one column per token
    w_q, w_k : (d_k, d_model) whole numbers
    w_v : (d_v, d_model) whole numbers
    scale_rule : "floor" (default) floor(s / 2); "trunc" rounds s / 2 toward zero;
        "exact" s / sqrt(d_k) with base e, in floats, to compare with ``attn_core.attention``.
    base : int >= 2, the stand-in for e under "floor" and "trunc" (3 in the classic sheet).
    causal : if True, query j sees only keys i <= j; the other powers are 0.

    Returns
    -------
    HandTrace, with exact Fractions unless the rule is "exact".
    """
    if scale_rule not in SCALE_RULES:
        raise AttentionInputError.said(
            "scale_rule must be one of {rules}, got {scale_rule}.",
            rules=SCALE_RULES,
            scale_rule=repr(scale_rule),
        )
    base = whole_number(base, "base", 2)
    x, w_q, w_k, w_v = _check_inputs(x, w_q, w_k, w_v)
    q, k, v = w_q @ x, w_k @ x, w_v @ x  # (d_k, d_model) x (d_model, T) -> (d_k, T)
    scores = k.T @ q  # (T, d_k) x (d_k, T) -> (T, T)
    scaled = scale_scores(scores, scale_rule, q.shape[0])
    t = x.shape[1]
    mask = np.triu(np.ones((t, t), dtype=bool)) if causal else None  # key i <= query j
    base = math.e if scale_rule == "exact" else base
    powers, col_sums, weights = col_softmax(scaled, mask, base)  # (T, T), (T,), (T, T)
    z = (v if scale_rule == "exact" else v.astype(object)) @ weights  # (d_v, T) x (T, T)
    for a in (x, w_q, w_k, w_v, q, k, v, scores, scaled, powers, col_sums, weights, z):
        a.flags.writeable = False  # a trace may be cached and shared: nobody edits it
    return HandTrace(
        x,
        w_q,
        w_k,
        w_v,
        q,
        k,
        v,
        k.T,
        scores,
        scaled,
        mask,
        powers,
        col_sums,
        weights,
        z,
        scale_rule,
        base,
    )


def hand_heads(x, w_q, w_k, w_v, n_heads: int = 2, **rules) -> tuple[HandTrace, ...]:
    """Several heads by hand: head h uses rows h*d_k:(h+1)*d_k of w_q, w_k (and of w_v).

    Parameters
    ----------
    x : (d_model, T)
    w_q, w_k : (n_heads * d_k, d_model)    w_v : (n_heads * d_v, d_model)
    n_heads : int, must divide the number of rows of every w
    **rules : ``scale_rule``, ``base``, ``causal`` as in ``hand_attention``

    Returns
    -------
    tuple of n_heads HandTrace; ``concat_z`` stacks their outputs.
    """
    n_heads = whole_number(n_heads, "n_heads", 1)
    x, w_q, w_k, w_v = _check_inputs(x, w_q, w_k, w_v)
    for w, n in ((w_q, "w_q"), (w_k, "w_k"), (w_v, "w_v")):
        if w.shape[0] % n_heads:
            raise ShapeError.said(
                "{name} has {rows} rows; give it a multiple of {n_heads} rows.",
                name=n,
                rows=w.shape[0],
                n_heads=n_heads,
            )
    d_k, d_v = w_q.shape[0] // n_heads, w_v.shape[0] // n_heads
    return tuple(
        hand_attention(
            x,
            w_q[h * d_k : (h + 1) * d_k],
            w_k[h * d_k : (h + 1) * d_k],
            w_v[h * d_v : (h + 1) * d_v],
            **rules,
        )
        for h in range(n_heads)
    )


def concat_z(heads: tuple[HandTrace, ...]) -> np.ndarray:
    """(n_heads * d_v, T): the heads' outputs stacked, head 1 on top (tokens stay columns)."""
    return np.concatenate([h.z for h in heads], axis=0)


def to_rows(trace: HandTrace) -> dict[str, np.ndarray | None]:
    """The same numbers in the row convention of ``attn_core.attention``: every matrix transposed.

    x_rows = x^T (T, d_model), w_q_rows = w_q^T (d_model, d_k), q_rows = x_rows w_q_rows = q^T,
    scores_rows = q_rows k_rows^T = (k^T q)^T, weights_rows = weights^T (rows sum to 1),
    output = weights_rows v_rows = (v weights)^T = z^T.
    """
    names = ("x", "w_q", "w_k", "w_v", "q", "k", "v", "scores", "scaled", "mask", "weights")
    rows = {n: None if getattr(trace, n) is None else getattr(trace, n).T for n in names}
    rows["output"] = trace.z.T
    return rows
