"""Small measurements the step pages show: similarity of rows, the terms of a dot product,
how spread the scores are and how peaked the weights are. Why 1/sqrt(d_k) is the right scale,
simulated with random q and k, is ``attn_core.why_scale``.

Tokens are rows, as in ``attn_core.attention``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attn_core.attention import Trace, attention
from attn_core.errors import AttentionInputError, as_matrix


def cosine_similarity(x) -> np.ndarray:
    """Cosine of the angle between every pair of rows.

    cos(x_i, x_j) = x_i . x_j / (|x_i| |x_j|),  in [-1, 1]

    Parameters
    ----------
    x : (T, d)

    Returns
    -------
    (T, T), 1 on the diagonal. A row of zeros has no direction: its entries are 0.
    """
    x = as_matrix(x, "x")
    norms = np.sqrt(np.einsum("td,td->t", x, x))  # (T,)
    unit = x / np.where(norms > 0, norms, 1.0)[:, None]  # zero rows stay zero
    return np.clip(unit @ unit.T, -1.0, 1.0)  # (T, d) x (d, T) -> (T, T)


def dot_terms(q, k) -> np.ndarray:
    """The products that a dot-product score adds up.

    terms[i, j, f] = q[i, f] * k[j, f],   sum_f terms[i, j, f] = (q k^T)[i, j]

    Parameters
    ----------
    q : (T_q, d_k)
    k : (T_k, d_k)

    Returns
    -------
    (T_q, T_k, d_k)
    """
    q, k = as_matrix(q, "q"), as_matrix(k, "k")
    if q.shape[1] != k.shape[1]:
        raise AttentionInputError(
            f"q and k must share d_k to be multiplied: q is {q.shape}, k is {k.shape}."
        )
    return q[:, None, :] * k[None, :, :]  # (T_q, 1, d_k) * (1, T_k, d_k) -> (T_q, T_k, d_k)


def spread(scores) -> float:
    """Standard deviation of the finite entries (masked -inf entries are left out); 0 if none."""
    s = np.asarray(scores, dtype=float)
    s = s[np.isfinite(s)]
    return float(s.std()) if s.size else 0.0


def entropy(weights) -> np.ndarray:
    """Entropy of each row, in nats: H(p) = -sum_j p_j ln p_j, with 0 ln 0 = 0.

    0 when a row puts all its weight on one key; ln T when it is uniform over T keys.
    weights : (..., T)  ->  (...,)
    """
    p = np.asarray(weights, dtype=float)
    logs = np.log(np.where(p > 0, p, 1.0))  # zero weights contribute 0, without a warning
    return np.maximum(-(p * logs).sum(axis=-1), 0.0)  # max: no -0.0 from rounding


def softmax_gradient_norm(weights) -> np.ndarray:
    """Size of the softmax's Jacobian for each row: its Frobenius norm.

    J = diag(p) - p p^T,   |J|_F^2 = sum p_j^2 - 2 sum p_j^3 + (sum p_j^2)^2

    Near 0 when one weight is close to 1 (a saturated softmax passes almost no gradient back).
    weights : (..., T)  ->  (...,)
    """
    p = np.asarray(weights, dtype=float)
    p2, p3 = (p * p).sum(axis=-1), (p * p * p).sum(axis=-1)
    return np.sqrt(np.maximum(p2 - 2 * p3 + p2 * p2, 0.0))


def without_scaling(trace: Trace) -> Trace:
    """The same head with scale 1: softmax(q k^T + M) v, same mask and temperature."""
    return attention(
        trace.q, trace.k, trace.v, mask=trace.mask, scale=1.0, temperature=trace.temperature
    )


@dataclass(frozen=True)
class Repeat:
    """A token that occurs more than once: its positions and whether its rows of x are equal."""

    token: str
    positions: tuple[int, ...]
    identical: bool


def repeated_tokens(tokens, x) -> tuple[Repeat, ...]:
    """Tokens that occur more than once, in order of first occurrence.

    tokens : T strings   x : (T, d)
    ``identical`` is True when every occurrence has exactly the same row of x (a plain
    embedding lookup); positions added to x make the rows differ.
    """
    tokens = [str(t) for t in tokens]
    x = as_matrix(x, "x")
    if len(tokens) != x.shape[0]:
        raise AttentionInputError(f"{len(tokens)} tokens but x has {x.shape[0]} rows.")
    where: dict[str, list[int]] = {}
    for i, t in enumerate(tokens):
        where.setdefault(t, []).append(i)
    return tuple(
        Repeat(t, tuple(ix), bool(np.all(x[ix] == x[ix[0]])))
        for t, ix in where.items()
        if len(ix) > 1
    )


@dataclass(frozen=True)
class SoftmaxSummary:
    """How spread a head's scores are and how peaked its weights, averaged over query rows.

    spread : std of the scores the softmax sees (masked entries left out)
    max_weight : largest weight of a row      entropy : row entropy in nats (ln T_k is uniform)
    grad : softmax Jacobian's Frobenius norm (near 0 when saturated)
    """

    spread: float
    max_weight: float
    entropy: float
    grad: float


def softmax_summary(trace: Trace) -> SoftmaxSummary:
    """`SoftmaxSummary` of a trace: its ``masked`` scores and its ``weights``."""
    w = trace.weights  # (T_q, T_k)
    return SoftmaxSummary(
        spread(trace.masked),
        float(w.max(axis=-1).mean()),
        float(entropy(w).mean()),
        float(softmax_gradient_norm(w).mean()),
    )
