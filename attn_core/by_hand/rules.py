"""The arithmetic of the paper-and-pencil convention, one rule at a time, on exact numbers.

entries : whole numbers within +-MAX_ENTRY     ``as_int_matrix``
scaled  = floor(scores / 2)                    "trunc" rounds toward zero; "exact" is / sqrt(d_k)
powers  = 3 ** scaled                          exact Fractions, 3**-1 = 1/3 ("exact": e ** scaled)
weights = powers / column sums                 ``col_softmax``: every column sums to exactly 1
'9/28' and '0.321'                             ``frac_str``, ``decimal_str``: how a cell is written

``attn_core.by_hand.trace`` runs these rules over whole matrices and keeps every intermediate.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import numpy as np

from attn_core.errors import AttentionInputError, NonFiniteError, ShapeError

SCALE_RULES = ("floor", "trunc", "exact")
MAX_ENTRY = 99  # by-hand sheets use small numbers; this also keeps int64 far from overflow
MAX_EXPONENT = 500  # 3**500 is still quick as a Fraction, and e**500 is a finite float


class NotWholeNumberError(AttentionInputError):
    """An entry that is not a whole number: the by-hand rules work on integers only."""


def as_int_matrix(a, name: str) -> np.ndarray:
    """Return `a` as a 2-D int64 array, or raise an error that says what to change."""
    try:
        arr = np.asarray(a)
    except (TypeError, ValueError) as exc:  # ragged lists
        raise ShapeError.said(
            "{name} is not a rectangular table; give every row the same length.", name=name
        ) from exc
    if arr.dtype.kind == "b":
        raise AttentionInputError.said(
            "{name} holds True/False; write whole numbers such as -1, 0, 1.", name=name
        )
    if arr.dtype.kind not in "iuf":
        raise AttentionInputError.said(
            "{name} must hold whole numbers, not {dtype} values.", name=name, dtype=arr.dtype
        )
    if arr.ndim != 2 or 0 in arr.shape:
        raise ShapeError.said(
            "{name} must be a non-empty 2-D table, but it has shape {shape}.",
            name=name,
            shape=arr.shape,
        )
    if not np.all(np.isfinite(arr)):
        raise NonFiniteError.said(
            "{name} holds NaN or infinity; write whole numbers only.", name=name
        )
    bad = np.argwhere(arr != np.round(arr))
    if len(bad):
        i, j = bad[0]
        raise NotWholeNumberError.said(
            "{name} row {row}, column {column} is {value}, not a whole number: the by-hand "
            "rules need integers. Round it, or use the real-valued attention page.",
            name=name,
            row=i + 1,
            column=j + 1,
            value=arr[i, j],
        )
    if np.abs(arr).max() > MAX_ENTRY:
        raise AttentionInputError.said(
            "{name} has entries beyond +-{max_entry}; use smaller numbers.",
            name=name,
            max_entry=MAX_ENTRY,
        )
    return arr.astype(np.int64)


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
    raise AttentionInputError.said(
        "scale_rule must be one of {rules}, got {scale_rule}.",
        rules=SCALE_RULES,
        scale_rule=repr(scale_rule),
    )


def _powers(scaled: np.ndarray, mask: np.ndarray | None, base) -> np.ndarray:
    if isinstance(base, float):  # the "exact" rule: e ** scaled as floats
        powers = np.exp(scaled)
    else:
        b = Fraction(base)
        powers = np.array([[b ** int(s) for s in row] for row in scaled], dtype=object)
    if mask is not None:
        powers[~mask] = 0.0 if powers.dtype != object else Fraction(0)  # no share for it
    return powers


def col_softmax(
    scaled: np.ndarray, mask: np.ndarray | None, base
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The softmax of every column with `base` in place of e: weights = powers / column sums.

    Parameters
    ----------
    scaled : (T, T) int, or float for the "exact" rule
    mask : (T, T) bool or None, True where query j (column) may see key i (row)
    base : int (3 in the classic sheet) for exact Fractions, or the float e for the "exact" rule

    Returns
    -------
    powers : (T, T), base ** scaled, 0 where masked
    col_sums : (T,), one sum per query column
    weights : (T, T), powers / col_sums; every column sums to 1
    """
    if np.abs(scaled).max() > MAX_EXPONENT:
        raise AttentionInputError.said(
            "A scaled score reaches {score}: its power is far too large to work "
            "with. Use smaller entries in x and the weight matrices (for example -2..2).",
            score=f"{np.abs(scaled).max():g}",
        )
    powers = _powers(scaled, mask, base)
    col_sums = powers.sum(axis=0)  # (T,)
    weights = powers / col_sums  # broadcasts over rows: entry (i, j) / col_sums[j]
    return powers, col_sums, weights


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
