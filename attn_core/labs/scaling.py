"""Why attention divides by sqrt(d_k): how spread the scores are, how peaked the softmax gets.

For q and k with independent N(0, 1) entries, q . k adds d products of variance 1, so

    Var(q . k) = d,        Var(q . k / sqrt(d)) = 1.

Without the scale, a softmax over a row of such scores sees them spread by sqrt(d) and
saturates: one weight near 1, entropy near 0, and a Jacobian diag(p) - p p^T near 0, so
almost no gradient flows back. Tokens are rows, as in ``attn_core.attention``.

spread, entropy, softmax_gradient_norm    the measures, on any scores and weights
without_scaling, softmax_summary          one head with and without the scale (Scaling step)
sample_scores, saturation, scale_sweep    random q and k at each d against the closed forms:
                                          the one simulation behind the Scaling step and
                                          the Why-scale lab
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from attn_core.attention import Trace, attention
from attn_core.errors import as_matrix, whole_number
from attn_core.softmax import softmax

MAX_D = 1024
MAX_KEYS = 64
N_SCORES = 4000  # scores drawn per d: enough for a variance within a few per cent
MAX_SCORES = 100_000  # k alone holds n_scores * d numbers


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


@dataclass(frozen=True, eq=False)
class ScaleSample:
    """Scores of random queries against random keys at one d.

    Attributes
    ----------
    d : int                       entries per query and key
    scores : (n_q, n_keys)        q_i . k_ij, each query with its own n_keys keys
    scaled : (n_q, n_keys)        scores / sqrt(d)
    weights_unscaled : (n_q, n_keys)   softmax(scores) by row
    weights_scaled : (n_q, n_keys)     softmax(scaled) by row
    """

    d: int
    scores: np.ndarray
    scaled: np.ndarray
    weights_unscaled: np.ndarray
    weights_scaled: np.ndarray

    @property
    def n_queries(self) -> int:
        return self.scores.shape[0]

    @property
    def n_keys(self) -> int:
        return self.scores.shape[1]


@dataclass(frozen=True)
class Saturation:
    """How one softmax input behaves, averaged over the rows (queries).

    variance : variance of the scores     closed_form : what it should be (d or 1)
    max_weight : largest weight of a row (1 / n_keys is uniform, 1 is saturated)
    entropy : row entropy in nats (ln n_keys is uniform, 0 is saturated)
    grad_norm : Frobenius norm of the softmax Jacobian diag(p) - p p^T
    grad_max : its largest entry in absolute value (at most 1/4)
    """

    variance: float
    closed_form: float
    max_weight: float
    entropy: float
    grad_norm: float
    grad_max: float


def sample_scores(
    d: int, n_keys: int = 8, *, seed: int = 0, n_scores: int = N_SCORES
) -> ScaleSample:
    """Draw about `n_scores` scores q . k with N(0, 1) entries, in rows of n_keys keys.

    Parameters
    ----------
    d : int, 1..MAX_D          the size of q and k (d_k in the lesson)
    n_keys : int, 2..MAX_KEYS  keys per query: the length of a softmax row
    seed : int >= 0            the draw uses ``default_rng([seed, d])``: the same numbers
                               for the same d, whatever else is drawn
    n_scores : int, 2..MAX_SCORES   scores to draw, rounded up to whole rows

    Returns
    -------
    ScaleSample with ceil(n_scores / n_keys) queries.
    """
    d, n_keys = whole_number(d, "d", 1, MAX_D), whole_number(n_keys, "n_keys", 2, MAX_KEYS)
    seed = whole_number(seed, "seed", 0, 2**32 - 1)
    n_q = -(-whole_number(n_scores, "n_scores", 2, MAX_SCORES) // n_keys)
    rng = np.random.default_rng([seed, d])
    q = rng.standard_normal((n_q, d))
    k = rng.standard_normal((n_q, n_keys, d))
    scores = np.einsum("nd,nkd->nk", q, k)  # (n_q, d) . (n_q, n_keys, d) -> (n_q, n_keys)
    scaled = scores / math.sqrt(d)
    return ScaleSample(d, scores, scaled, softmax(scores), softmax(scaled))


def softmax_jacobian(p) -> np.ndarray:
    """The Jacobian of the softmax at weights p: J = diag(p) - p p^T.

    J[i, j] = d p_i / d s_j. p : (..., T)  ->  (..., T, T)
    """
    p = as_matrix(p, "p", ndim=None)
    eye = np.eye(p.shape[-1])
    return p[..., :, None] * eye - p[..., :, None] * p[..., None, :]  # (..., T, T)


def jacobian_max(p) -> np.ndarray:
    """max_ij |J_ij| for each row of weights: max_i p_i (1 - p_i) or max_(i != j) p_i p_j.

    p : (..., T)  ->  (...,); at most 1/4, and near 0 when one weight is near 1.
    """
    return np.abs(softmax_jacobian(p)).max(axis=(-2, -1))


def saturation(sample: ScaleSample, *, scaled: bool) -> Saturation:
    """`Saturation` of the scaled (closed form 1) or the unscaled (closed form d) scores."""
    s = sample.scaled if scaled else sample.scores
    w = sample.weights_scaled if scaled else sample.weights_unscaled
    return Saturation(
        variance=float(s.var()),
        closed_form=1.0 if scaled else float(sample.d),
        max_weight=float(w.max(axis=-1).mean()),
        entropy=float(entropy(w).mean()),
        grad_norm=float(softmax_gradient_norm(w).mean()),
        grad_max=float(jacobian_max(w).mean()),
    )


def variance_standard_error(d: int, n_queries: int, n_keys: int, *, scaled: bool) -> float:
    """The sampling error (one standard deviation) of the variance that `sample_scores` measures.

    For S = q . k, Var(S^2) = E[S^4] - d^2 = (3 d^2 + 6 d) - d^2 = 2 d^2 + 6 d; two keys of the
    same query share q, so Cov(S_1^2, S_2^2) = E[|q|^4] - d^2 = 2 d. The mean of the
    n_queries x n_keys squares therefore has

        Var = (n_keys (2 d^2 + 6 d) + n_keys (n_keys - 1) 2 d) / (n_queries n_keys^2),

    and for the scaled scores S / sqrt(d) everything is divided by d^2.
    """
    var = (n_keys * (2 * d * d + 6 * d) + n_keys * (n_keys - 1) * 2 * d) / (n_queries * n_keys**2)
    return math.sqrt(var) / (d if scaled else 1)


@dataclass(frozen=True, eq=False)
class ScaleSweep:
    """`Saturation` at each d, without and with the scale. ``d`` : (n_d,) int."""

    d: np.ndarray
    n_keys: int
    unscaled: tuple[Saturation, ...]
    scaled: tuple[Saturation, ...]

    def column(self, name: str, *, scaled: bool) -> np.ndarray:
        """(n_d,): one field of `Saturation` along the sweep, e.g. ``column("variance")``."""
        return np.array([getattr(s, name) for s in (self.scaled if scaled else self.unscaled)])


def scale_sweep(ds, n_keys: int = 8, *, seed: int = 0, n_scores: int = N_SCORES) -> ScaleSweep:
    """`sample_scores` at each d in `ds`, measured; point d equals ``sample_scores(d, ...)``.

    ds : sequence of int, 1..MAX_D; n_keys, seed and n_scores as in `sample_scores`.
    """
    samples = [
        sample_scores(d, n_keys, seed=seed, n_scores=n_scores) for d in np.atleast_1d(ds).tolist()
    ]
    return ScaleSweep(
        np.array([s.d for s in samples]),
        whole_number(n_keys, "n_keys", 2, MAX_KEYS),
        tuple(saturation(s, scaled=False) for s in samples),
        tuple(saturation(s, scaled=True) for s in samples),
    )
