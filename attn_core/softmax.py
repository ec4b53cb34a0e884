"""Softmax: turns a row of scores into a probability distribution."""

from __future__ import annotations

import numpy as np

from attn_core.errors import AttentionInputError, ShapeError, positive_number


def softmax(x, axis: int = -1, temperature: float = 1.0) -> np.ndarray:
    """Numerically stable softmax along `axis`.

    softmax(x)_i = exp(x_i / tau - m) / sum_j exp(x_j / tau - m),  m = max_j x_j / tau

    Subtracting the maximum changes nothing mathematically (it cancels in the
    ratio) but keeps ``exp`` from overflowing. Entries equal to ``-inf`` get
    weight exactly 0; that is how masking works.

    Parameters
    ----------
    x : array_like
        Scores, any shape.
    axis : int
        The axis that becomes a distribution (rows: ``-1``).
    temperature : float
        tau > 0. Below 1 sharpens the distribution, above 1 flattens it.

    Returns
    -------
    ndarray, same shape as `x`: non-negative, sums to 1 along `axis`.
    """
    tau = positive_number(temperature, "temperature")
    return stable_softmax(_as_scores(x), axis, tau)


def stable_softmax(x: np.ndarray, axis: int = -1, tau: float = 1.0) -> np.ndarray:
    """The steps of `softmax` on a float array, the arguments already checked."""
    if axis not in (-1, x.ndim - 1):  # the steps below work on rows
        return np.moveaxis(stable_softmax(np.moveaxis(x, axis, -1), -1, tau), -1, axis)
    owned = tau != 1.0
    if owned:
        x = x / tau
    m = np.maximum.reduce(x, axis=-1, keepdims=True)  # (..., 1); no Python wrapper (small T)
    if not np.isfinite(m).all():
        raise AttentionInputError(
            "Softmax needs a finite largest score in every row. A row that is all -inf "
            "(fully masked) or holds NaN or infinity has no distribution; if the scores "
            "overflowed, use smaller numbers."
        )
    e = np.subtract(x, m, out=x if owned else None)  # a new array unless x already is
    np.exp(e, out=e)
    # Row sums as a matrix-vector product: BLAS is 3-4x faster than add.reduce here.
    e /= (e @ np.ones(e.shape[-1], dtype=e.dtype))[..., None]  # (..., T) x (T,) -> (..., 1)
    return e


def _as_scores(x) -> np.ndarray:
    """Scores as a float array. -inf is allowed (it is how masking works); text is not."""
    try:
        x = np.asarray(x)
    except (TypeError, ValueError) as exc:  # ragged lists and the like
        raise ShapeError(f"softmax needs a rectangular array of scores ({exc}).") from exc
    if x.dtype.kind not in "biuf":
        raise AttentionInputError(f"softmax needs numbers, not {x.dtype} values.")
    if x.ndim == 0 or x.size == 0:
        raise ShapeError(f"softmax needs at least one score along an axis; got shape {x.shape}.")
    return x if x.dtype == np.float32 else x.astype(np.float64, copy=False)
