"""Softmax: turns a row of scores into a probability distribution."""

from __future__ import annotations

import numpy as np

from attn_core.errors import AttentionInputError


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
    if not temperature > 0 or not np.isfinite(temperature):
        raise AttentionInputError(f"temperature must be a positive number, got {temperature}.")
    x = np.asarray(x)
    if x.dtype != np.float32:
        x = x.astype(np.float64)
    if temperature != 1.0:
        x = x / temperature
    m = np.max(x, axis=axis, keepdims=True)
    if not np.all(np.isfinite(m)):
        raise AttentionInputError(
            "softmax needs at least one finite score along the axis; "
            "a slice that is all -inf (fully masked) or holds NaN/inf has no distribution."
        )
    e = np.exp(x - m)
    e /= e.sum(axis=axis, keepdims=True)  # in place: this array is ours
    return e
