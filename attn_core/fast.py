"""The fast path: two functions of the core in forms that are not the lesson's, and why.

Everything else in ``attn_core`` is written as the formula it teaches. These two are not,
each for a measured reason; ``tests/core/test_fast.py`` checks that each equals its plain
form (``attn_core.softmax.softmax``, ``attn_core.pretrained.bert_layer.gelu``).

``gelu``     the erfc of GELU as a fitted polynomial (Numerical Recipes), in place. NumPy
             has no erf, and ``math.erf`` entry by entry takes 15 ms per layer of a
             58-token sentence against 0.6 ms here (CPU time, one thread): MiniLM's
             forward pass would go from about 35 ms to about 125 ms. It agrees with the
             plain form within 2.4e-7 (float32 rounding) and keeps the model's numbers as
             they were checked against transformers.
``softmax``  float32 only, the pretrained model's precision: the row sums are a
             matrix-vector product with a vector of ones (BLAS), not ``np.sum``. This is
             not for speed (it is no faster today); it is the order of summation in which
             the model's shown numbers were computed, checked and published. ``np.sum``
             rounds a third to a half of float32 weights differently in the last bit
             (about 1e-7), and six layers later hidden values near 0 move by up to 6e-3
             of themselves: the dump of every page's numbers (tests/support/dump_pages.py,
             8 digits) differed in 6,860 lines, all on pages that show the model. Float64,
             every lesson page, takes the plain form. It also writes exp and the division
             into the one array it returns: for 8 heads of 256 tokens an (h, T, T) array
             is 2 MB, and with a new array for each step the call cost the kernel about
             1,000 page faults, 2.5 ms against 0.7 ms in place (CPU time, one thread,
             a fresh process). It takes the row maxima from ``attn_core.softmax``, which
             has them already for its check.
"""

from __future__ import annotations

import math

import numpy as np


def softmax(x: np.ndarray, axis: int = -1, m: np.ndarray | None = None) -> np.ndarray:
    """softmax along `axis` of checked scores (finite row maxima, temperature applied).

    The same steps as ``attn_core.softmax``; the row sums are a BLAS product, and the
    steps after the subtraction write into one array (the result).

    Parameters
    ----------
    x : (..., T) float32
    axis : int
    m : (..., 1), optional, the row maxima ``x.max(axis, keepdims=True)`` if already known

    Returns
    -------
    (..., T) float32, every row along `axis` sums to 1.
    """
    m = x.max(axis, keepdims=True) if m is None else m  # (..., 1)
    e = x - m  # (..., T), the one new array
    np.exp(e, out=e)
    last = axis in (-1, e.ndim - 1)
    rows = e if last else np.moveaxis(e, axis, -1)  # a view with the summed axis last
    sums = rows @ np.ones(rows.shape[-1], dtype=e.dtype)  # (..., T) x (T,) -> (...,)
    e /= sums.reshape(m.shape)  # (..., T) / (..., 1)
    return e


# erfc(z) = t exp(-z^2 + P(t)),  t = 1 / (1 + z / 2),  z >= 0: the Chebyshev fit of Numerical
# Recipes (2nd ed., 6.2), relative error below 1.2e-7 for every z -- finer than float32 shows.
_ERFC_P = (
    0.17087277,
    -0.82215223,
    1.48851587,
    -1.13520398,
    0.27886807,
    -0.18628806,
    0.09678418,
    0.37409196,
    1.00002368,
    -1.26551223,
)


def gelu(x: np.ndarray) -> np.ndarray:
    """GELU(x) = x Phi(x), with erfc from a polynomial; keeps x's dtype (float32 in the model).

    Computed as relu(x) - |x| Phi(-|x|), the same number (Phi(x) = 1 - Phi(-x)) without a
    subtraction of nearly equal numbers for x < 0 and without a branch on the sign of x;
    ``|x| Phi(-|x|) = z erfc(z) / sqrt 2`` with ``z = |x| / sqrt 2`` and
    ``erfc(z) = t exp(-z^2 + P(t))``. Three scratch arrays, reused.

    Parameters
    ----------
    x : (T, d_ff) float array

    Returns
    -------
    (T, d_ff), the dtype of `x`.
    """
    z = np.abs(x)
    z *= 1.0 / math.sqrt(2.0)
    np.minimum(z, 9.0, out=z)  # beyond, the tail is below 1e-35: keeps exp clear of denormals
    t = z * 0.5
    t += 1.0
    np.divide(1.0, t, out=t)  # t = 1 / (1 + z / 2)
    p = t * _ERFC_P[0]
    for c in _ERFC_P[1:-1]:  # Horner, in place
        p += c
        p *= t
    p += _ERFC_P[-1] - 0.5 * math.log(2.0)  # the 1 / sqrt 2 moved into the exponent
    t *= z  # t z
    z *= z  # z^2
    p -= z
    np.exp(p, out=p)
    p *= t  # |x| Phi(-|x|)
    y = np.maximum(x, 0.0, out=z)  # relu(x), into z's memory
    y -= p
    return y
