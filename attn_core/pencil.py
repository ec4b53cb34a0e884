"""Attention by hand: the paper-and-pencil convention, tokens as columns, exact fractions.

q = w_q x,  k = w_k x,  v = w_v x     (d_k, T), (d_k, T), (d_v, T)
scores  = k^T q                       (T, T): column j holds query j against every key i
scaled  = floor(scores / 2)           "trunc" rounds toward zero; "exact" is scores / sqrt(d_k)
powers  = 3 ** scaled                 exact Fractions, 3**-1 = 1/3 ("exact": e ** scaled, floats)
weights = powers / column sums        every column sums to exactly 1
z       = v weights                   (d_v, T): column j is token j's output

The row convention of ``attn_core.attention`` is the transpose of every matrix
(x_rows = x^T, weights_rows = weights^T, output = z^T); ``to_rows`` gives that view.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import numpy as np

from attn_core.errors import AttentionInputError, NonFiniteError, ShapeError

SCALE_RULES = ("floor", "trunc", "exact")
MAX_ENTRY = 99  # by-hand sheets use small numbers; this also keeps int64 far from overflow
MAX_EXPONENT = 500  # 3**500 is still quick as a Fraction, and e**500 is a finite float


class NotWholeNumberError(AttentionInputError):
    """An entry that is not a whole number: the by-hand rules work on integers only."""


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


def as_int_matrix(a, name: str) -> np.ndarray:
    """Return `a` as a 2-D int64 array, or raise an error that says what to change."""
    try:
        arr = np.asarray(a)
    except (TypeError, ValueError) as exc:  # ragged lists
        raise ShapeError(
            f"{name} is not a rectangular table; give every row the same length."
        ) from exc
    if arr.dtype.kind == "b":
        raise AttentionInputError(f"{name} holds True/False; write whole numbers such as -1, 0, 1.")
    if arr.dtype.kind not in "iuf":
        raise AttentionInputError(f"{name} must hold whole numbers, not {arr.dtype} values.")
    if arr.ndim != 2 or 0 in arr.shape:
        raise ShapeError(f"{name} must be a non-empty 2-D table, but it has shape {arr.shape}.")
    if not np.all(np.isfinite(arr)):
        raise NonFiniteError(f"{name} holds NaN or infinity; write whole numbers only.")
    bad = np.argwhere(arr != np.round(arr))
    if len(bad):
        i, j = bad[0]
        raise NotWholeNumberError(
            f"{name} row {i + 1}, column {j + 1} is {arr[i, j]}, not a whole number: the by-hand "
            "rules need integers. Round it, or use the real-valued attention page."
        )
    if np.abs(arr).max() > MAX_ENTRY:
        raise AttentionInputError(f"{name} has entries beyond +-{MAX_ENTRY}; use smaller numbers.")
    return arr.astype(np.int64)


def _whole(n, name: str, low: int) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < low:
        raise AttentionInputError(f"{name} must be a whole number >= {low}, got {n!r}.")
    return int(n)


def _check_inputs(x, w_q, w_k, w_v) -> tuple[np.ndarray, ...]:
    x = as_int_matrix(x, "x")
    ws = [as_int_matrix(w, n) for w, n in ((w_q, "w_q"), (w_k, "w_k"), (w_v, "w_v"))]
    for w, n in zip(ws, ("w_q", "w_k", "w_v"), strict=True):
        if w.shape[1] != x.shape[0]:
            raise ShapeError(
                f"{n} has {w.shape[1]} columns but x has d_model = {x.shape[0]} rows (features); "
                f"{n} must be (d_k, d_model), one column per feature."
            )
    if ws[0].shape[0] != ws[1].shape[0]:
        raise ShapeError(
            f"w_q and w_k must have the same number of rows (d_k), got {ws[0].shape[0]} and "
            f"{ws[1].shape[0]}: k^T q needs q and k of the same height."
        )
    return (x, *ws)


def scale_scores(scores: np.ndarray, scale_rule: str = "floor", d_k: int = 3) -> np.ndarray:
    """floor(s / 2), trunc(s / 2) (toward zero) or, for "exact", s / sqrt(d_k).

    floor(-1 / 2) = -1 but trunc(-1 / 2) = 0: the rules differ on negative odd scores.
    """
    if scale_rule == "floor":
        return scores // 2  # integer floor division rounds down, also for negatives
    if scale_rule == "trunc":
        return np.where(scores < 0, -(-scores // 2), scores // 2)
    if scale_rule == "exact":
        return scores / math.sqrt(d_k)
    raise AttentionInputError(f"scale_rule must be one of {SCALE_RULES}, got {scale_rule!r}.")


def _powers(scaled: np.ndarray, mask: np.ndarray | None, base) -> np.ndarray:
    if isinstance(base, float):  # the "exact" rule: e ** scaled as floats
        powers = np.exp(scaled)
    else:
        b = Fraction(base)
        powers = np.array([[b ** int(s) for s in row] for row in scaled], dtype=object)
    if mask is not None:
        powers[~mask] = 0.0 if powers.dtype != object else Fraction(0)  # no share for it
    return powers


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
        raise AttentionInputError(f"scale_rule must be one of {SCALE_RULES}, got {scale_rule!r}.")
    base = _whole(base, "base", 2)
    x, w_q, w_k, w_v = _check_inputs(x, w_q, w_k, w_v)
    q, k, v = w_q @ x, w_k @ x, w_v @ x  # (d_k, d_model) x (d_model, T) -> (d_k, T)
    scores = k.T @ q  # (T, d_k) x (d_k, T) -> (T, T)
    scaled = scale_scores(scores, scale_rule, q.shape[0])
    if np.abs(scaled).max() > MAX_EXPONENT:
        raise AttentionInputError(
            f"A scaled score reaches {np.abs(scaled).max():g}: its power is far too large to work "
            "with. Use smaller entries in x and the weight matrices (for example -2..2)."
        )
    t = x.shape[1]
    mask = np.triu(np.ones((t, t), dtype=bool)) if causal else None  # key i <= query j
    base = math.e if scale_rule == "exact" else base
    powers = _powers(scaled, mask, base)
    col_sums = powers.sum(axis=0)  # (T,)
    weights = powers / col_sums  # broadcasts over rows: entry (i, j) / col_sums[j]
    z = (v if scale_rule == "exact" else v.astype(object)) @ weights  # (d_v, T) x (T, T)
    for a in (x, w_q, w_k, w_v, q, k, v, scores, scaled, powers, col_sums, weights, z):
        a.flags.writeable = False  # a trace may be cached and shared: nobody edits it
    return HandTrace(
        x, w_q, w_k, w_v, q, k, v, k.T, scores, scaled, mask,
        powers, col_sums, weights, z, scale_rule, base,
    )  # fmt: skip


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
    n_heads = _whole(n_heads, "n_heads", 1)
    x, w_q, w_k, w_v = _check_inputs(x, w_q, w_k, w_v)
    for w, n in ((w_q, "w_q"), (w_k, "w_k"), (w_v, "w_v")):
        if w.shape[0] % n_heads:
            raise ShapeError(f"{n} has {w.shape[0]} rows; give it a multiple of {n_heads} rows.")
    d_k, d_v = w_q.shape[0] // n_heads, w_v.shape[0] // n_heads
    return tuple(
        hand_attention(x, w_q[h * d_k : (h + 1) * d_k], w_k[h * d_k : (h + 1) * d_k],
                       w_v[h * d_v : (h + 1) * d_v], **rules)
        for h in range(n_heads)
    )  # fmt: skip


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


def frac_str(value) -> str:
    """'9/28' for Fraction(9, 28), '3' for a whole number, '0.321' for a float."""
    if isinstance(value, (float, np.floating)):
        return f"{value:.3f}"
    return str(Fraction(value))


def decimal_str(value, digits: int = 3) -> str:
    """The rounded decimal shown beside a fraction, halves away from 0: 5/16 -> '0.313'."""
    if isinstance(value, (float, np.floating)):
        return f"{value:.{digits}f}"
    f = Fraction(value)  # NumPy integers stay NumPy integers inside it: Decimal needs int
    exact = Decimal(int(f.numerator)) / Decimal(int(f.denominator))  # 28 significant digits
    rounded = exact.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    return str(rounded.copy_abs() if rounded == 0 else rounded)  # no "-0.000"


def as_float(a) -> np.ndarray:
    """A Fraction array as floats, for plots and comparisons."""
    return np.asarray(a, dtype=float)
