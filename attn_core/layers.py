"""The parts of a transformer layer around attention: layer norm and the GELU feed-forward.

Tokens are rows. Every function keeps the dtype it is given (the model runs in float32).
"""

from __future__ import annotations

import math

import numpy as np

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


def layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float) -> np.ndarray:
    """Normalise each row (one token) to mean 0 and variance 1 across its features.

    y = (x - mean(x)) / sqrt(var(x) + eps) * gamma + beta

    Unlike batch norm, the statistics are per token, never across a batch.

    Parameters
    ----------
    x : (T, d)
    gamma, beta : (d,)   learned scale and shift
    eps : float          keeps the division finite (1e-12 in BERT)

    Returns
    -------
    (T, d)
    """
    d = x.shape[-1]
    y = x - x.sum(axis=-1, keepdims=True) / d  # (T, d) - (T, 1): mean 0
    var = (y * y).sum(axis=-1, keepdims=True) / d  # (T, 1), biased (divides by d), as PyTorch
    y *= 1.0 / np.sqrt(var + eps)
    y *= gamma
    y += beta
    return y


def gelu(x: np.ndarray) -> np.ndarray:
    """GELU(x) = x Phi(x) = x (1 + erf(x / sqrt 2)) / 2, the exact (erf) form BERT uses.

    Phi is the standard normal CDF. Computed as relu(x) - |x| Phi(-|x|), the same number
    (Phi(x) = 1 - Phi(-x)) without a subtraction of nearly equal numbers for x < 0 and
    without a branch on the sign of x; ``|x| Phi(-|x|) = z erfc(z) / sqrt 2`` with
    ``z = |x| / sqrt 2`` and ``erfc(z) = t exp(-z^2 + P(t))``. Three scratch arrays, reused.
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


def feed_forward(x, w_1, b_1, w_2, b_2) -> np.ndarray:
    """Position-wise feed-forward network: every token row on its own.

    FFN(x) = GELU(x w_1 + b_1) w_2 + b_2

    Parameters
    ----------
    x : (T, d_model)
    w_1 : (d_model, d_ff)    b_1 : (d_ff,)
    w_2 : (d_ff, d_model)    b_2 : (d_model,)

    Returns
    -------
    (T, d_model)
    """
    h = x @ w_1  # (T, d_model) x (d_model, d_ff) -> (T, d_ff)
    h += b_1
    y = gelu(h) @ w_2  # (T, d_ff) x (d_ff, d_model) -> (T, d_model)
    y += b_2
    return y
