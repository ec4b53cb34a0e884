"""Exceptions the learner can cause. Each message says what went wrong and what to change."""

from __future__ import annotations

import math

import numpy as np


class AttentionInputError(ValueError):
    """Base class: an input the core cannot use. The message is shown to the learner as is."""


class ShapeError(AttentionInputError):
    """Arrays whose shapes do not fit together."""


class NonFiniteError(AttentionInputError):
    """An input holds NaN or infinity."""


class FullyMaskedRowError(AttentionInputError):
    """A query row whose every key is masked: softmax over nothing has no distribution."""

    def __init__(self, rows: list[int]):
        self.rows = rows
        shown = ", ".join(str(r) for r in rows[:10]) + (" ..." if len(rows) > 10 else "")
        noun = "row" if len(rows) == 1 else "rows"
        super().__init__(
            f"Query {noun} {shown} may not look at any key: every entry is masked, so "
            "softmax has nothing to share the attention between. Allow at least one key "
            "in each row (for example the token itself on the diagonal)."
        )


def positive_number(value, name: str) -> float:
    """Return `value` as a finite float > 0, or raise an error that names `name`."""
    try:
        number = float(value) if not isinstance(value, (bool, str, bytes)) else math.nan
    except (TypeError, ValueError):  # None, lists, arrays of several numbers
        number = math.nan
    if not (math.isfinite(number) and number > 0):
        raise AttentionInputError(f"{name} must be a positive number, got {value!r}.")
    return number


def as_matrix(a, name: str, *, ndim: int | None = 2) -> np.ndarray:
    """Return `a` as a finite float array, or raise an error that names `name`.

    Float32 input stays float32 (it is what models use); everything else becomes float64.
    """
    try:
        arr = np.asarray(a)
    except (TypeError, ValueError) as exc:  # ragged lists and the like
        raise ShapeError(f"{name} is not a rectangular array of numbers ({exc}).") from exc
    if arr.dtype.kind not in "biuf":
        raise AttentionInputError(f"{name} must hold numbers, not {arr.dtype} values.")
    if arr.dtype != np.float32:
        arr = arr.astype(np.float64)
    if ndim is not None and arr.ndim != ndim:
        raise ShapeError(f"{name} must be a {ndim}-D array, but it has shape {arr.shape}.")
    if arr.ndim >= 1 and 0 in arr.shape:
        raise ShapeError(f"{name} is empty (shape {arr.shape}); it needs at least one entry.")
    if not all_finite(arr):
        raise NonFiniteError(f"{name} holds NaN or infinity; use finite numbers only.")
    return arr


def all_finite(arr: np.ndarray) -> bool:
    """True when no entry is NaN or infinite.

    The sum of squares is finite only if every entry is, and a BLAS dot product
    computes it in one pass without a temporary; only if that overflows (huge but
    finite entries) is every entry tested.
    """
    flat = arr.ravel()
    return math.isfinite(flat.dot(flat)) or bool(np.isfinite(flat).all())
