"""Exceptions the learner can cause, and the input checks that raise them.

Each message says what went wrong and what to change; a page shows it as it is, or in its
own language: `template` and `fills` (see ``AttentionInputError.said``).
"""

from __future__ import annotations

import math

import numpy as np


class AttentionInputError(ValueError):
    """Base class: an input the core cannot use. The message is shown to the learner as is.

    `template` is the message before its {fields} are filled, and `fills` what fills them
    (as text): a page in another language fills its translation of `template` with the same
    values. An error built as ``cls("message")`` has the message as its template and no fills.
    """

    template: str
    fills: dict[str, str]

    def __init__(self, *args):
        super().__init__(*args)
        self.template = str(self)
        self.fills = {}

    @classmethod
    def said(cls, template: str, **fills) -> AttentionInputError:
        """The error whose message is `template` with its {fields} filled; a page in another
        language fills its translation of `template` with the same values."""
        error = cls(template.format(**fills))
        error.template = template
        error.fills = {k: str(v) for k, v in fills.items()}
        return error


class ShapeError(AttentionInputError):
    """Arrays whose shapes do not fit together."""


class NonFiniteError(AttentionInputError):
    """An input holds NaN or infinity."""


class FullyMaskedRowError(AttentionInputError):
    """A query row whose every key is masked: softmax over nothing has no distribution."""

    def __init__(self, rows: list[int]):
        self.rows = rows
        shown = ", ".join(str(r) for r in rows[:10]) + (" ..." if len(rows) > 10 else "")
        if len(rows) == 1:  # one whole sentence per number, so a translation has both
            told = AttentionInputError.said(
                "Query row {rows} may not look at any key: every entry is masked, so "
                "softmax has nothing to share the attention between. Allow at least one key "
                "in each row (for example the token itself on the diagonal).",
                rows=shown,
            )
        else:
            told = AttentionInputError.said(
                "Query rows {rows} may not look at any key: every entry is masked, so "
                "softmax has nothing to share the attention between. Allow at least one key "
                "in each row (for example the token itself on the diagonal).",
                rows=shown,
            )
        super().__init__(str(told))
        self.template, self.fills = told.template, told.fills


def positive_number(value, name: str) -> float:
    """Return `value` as a finite float > 0, or raise an error that names `name`."""
    try:
        number = float(value) if not isinstance(value, (bool, str, bytes)) else math.nan
    except (TypeError, ValueError):  # None, lists, arrays of several numbers
        number = math.nan
    if not (math.isfinite(number) and number > 0):
        raise AttentionInputError.said(
            "{name} must be a positive number, got {value}.", name=name, value=repr(value)
        )
    return number


def whole_number(
    value, name: str, low: int | None = None, high: int | None = None, *, error=AttentionInputError
) -> int:
    """Return `value` as an int in ``low .. high`` (either bound optional), or raise `error`
    (an AttentionInputError class).

    Python and NumPy integers only: True and False are not numbers here, and neither are
    2.0 or "2" (a page passes what its widget holds; a float there is a mistake to report).
    """
    is_int = isinstance(value, int | np.integer) and not isinstance(value, bool)
    if is_int and (low is None or value >= low) and (high is None or value <= high):
        return int(value)
    got = repr(value)
    if low is None and high is None:
        raise error.said("{name} must be a whole number, got {value}.", name=name, value=got)
    if low is None:
        raise error.said(
            "{name} must be a whole number of at most {high}, got {value}.",
            name=name,
            high=high,
            value=got,
        )
    if high is None:
        raise error.said(
            "{name} must be a whole number of at least {low}, got {value}.",
            name=name,
            low=low,
            value=got,
        )
    raise error.said(
        "{name} must be a whole number from {low} to {high}, got {value}.",
        name=name,
        low=low,
        high=high,
        value=got,
    )


def as_matrix(a, name: str, *, ndim: int | None = 2) -> np.ndarray:
    """Return `a` as a finite float array, or raise an error that names `name`.

    Float32 input stays float32 (it is what models use); everything else becomes float64.
    A float32 or float64 array comes back as it is (no copy): the core never writes into
    its inputs.
    """
    try:
        arr = np.asarray(a)
    except (TypeError, ValueError) as exc:  # ragged lists and the like
        raise ShapeError.said(
            "{name} is not a rectangular array of numbers ({error}).", name=name, error=exc
        ) from exc
    if arr.dtype.kind not in "biuf":
        raise AttentionInputError.said(
            "{name} must hold numbers, not {dtype} values.", name=name, dtype=arr.dtype
        )
    if arr.dtype != np.float32:
        arr = arr.astype(np.float64, copy=False)  # a float64 array is used as it is, not copied
    if ndim is not None and arr.ndim != ndim:
        raise ShapeError.said(
            "{name} must be a {ndim}-D array, but it has shape {shape}.",
            name=name,
            ndim=ndim,
            shape=arr.shape,
        )
    if arr.ndim >= 1 and 0 in arr.shape:
        raise ShapeError.said(
            "{name} is empty (shape {shape}); it needs at least one entry.",
            name=name,
            shape=arr.shape,
        )
    if not all_finite(arr):
        raise NonFiniteError.said(
            "{name} holds NaN or infinity; use finite numbers only.", name=name
        )
    return arr


def all_finite(arr: np.ndarray) -> bool:
    """True when no entry is NaN or infinite."""
    return bool(np.isfinite(arr).all())
