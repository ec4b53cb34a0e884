"""Softmax: turns a row of scores into a probability distribution."""

from __future__ import annotations

import numpy as np

from attn_core import fast
from attn_core.errors import AttentionInputError, ShapeError, positive_number


def softmax(x, axis: int = -1, temperature: float = 1.0) -> np.ndarray:
    """Numerically stable softmax along `axis`.

    softmax(x)_i = exp(x_i / tau - m) / sum_j exp(x_j / tau - m),  m = max_j x_j / tau

    Subtracting the maximum changes nothing mathematically (it cancels in the
    ratio) but keeps ``exp`` from overflowing. Entries equal to ``-inf`` get
    weight exactly 0; that is how masking works.

    Parameters
    ----------
    x : (..., T) array_like
        Scores; any shape, the distribution runs along `axis`.
    axis : int
        The axis that becomes a distribution (rows: ``-1``).
    temperature : float
        tau > 0. Below 1 sharpens the distribution, above 1 flattens it.

    Returns
    -------
    (..., T) ndarray, the shape of `x`: non-negative, sums to 1 along `axis`.
    Float32 stays float32; everything else is float64.
    """
    tau = positive_number(temperature, "temperature")
    with np.errstate(over="ignore", invalid="ignore"):  # inf or NaN there: the check
        x = _as_scores(x) if tau == 1 else _as_scores(x) / tau  # below says so in words
    m = x.max(axis, keepdims=True)  # (..., 1): the largest score of each row
    _check_rows(m)
    if x.dtype == np.float32:  # the pretrained model's precision: see attn_core.fast
        return fast.softmax(x, axis, m)
    e = np.exp(x - m)  # (..., T): in (0, 1], exactly 1 at the largest, 0 where -inf
    return e / e.sum(axis, keepdims=True)  # (..., T) / (..., 1)


def _as_scores(x) -> np.ndarray:
    """Scores as a float array. -inf is allowed (it is how masking works); text is not."""
    try:
        x = np.asarray(x)
    except (TypeError, ValueError) as exc:  # ragged lists and the like
        raise ShapeError.said(
            "softmax needs a rectangular array of scores ({error}).", error=exc
        ) from exc
    if x.dtype.kind not in "biuf":
        raise AttentionInputError.said("softmax needs numbers, not {dtype} values.", dtype=x.dtype)
    if x.ndim == 0 or x.size == 0:
        raise ShapeError.said(
            "softmax needs at least one score along an axis; got shape {shape}.", shape=x.shape
        )
    return x if x.dtype == np.float32 else x.astype(np.float64, copy=False)


def _check_rows(m: np.ndarray) -> None:
    """Raise unless every row's largest score `m` (after the temperature) is finite."""
    if not np.isfinite(m).all():
        raise AttentionInputError.said(
            "Softmax needs a finite largest score in every row. A row that is all -inf "
            "(fully masked) or holds NaN or infinity has no distribution; if the scores "
            "overflowed, use smaller numbers."
        )
