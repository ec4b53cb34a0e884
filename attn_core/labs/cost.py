"""What attention costs, measured on this machine: time and memory against T and d.

One head computes T^2 scores of d numbers each: O(T^2 d) time and a (T, T) weights matrix,
O(T^2) memory. All T^2 scores are independent, so they can be computed at once; a recurrent
network (RNN) instead needs T steps one after another, h_t = tanh(x_t w_x + h_{t-1} w_h),
because step t needs step t - 1.

Timings are the best of `repeats` calls (the least disturbed by other work on the machine);
they depend on the machine, so only their growth is the lesson. Inputs are float32, as in
models, and seeded.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from attn_core.attention import attention
from attn_core.errors import AttentionInputError, whole_number

MAX_T = 4096  # a (T, T) float32 matrix of 4096^2 entries is 67 MB: keep the lab bounded
MAX_D = 1024


@dataclass(frozen=True, eq=False)
class CostCurve:
    """Measurements at n sizes.

    Attributes
    ----------
    t, d : (n,) int             sequence length and d_k = d_v of each point
    seconds : (n,) float        one attention call, best of `repeats`
    weights_bytes : (n,) int    bytes of the (T, T) weights matrix
    trace_bytes : (n,) int      bytes of every (T, T) matrix the trace keeps (scores, scaled,
                                weights), each counted once
    rnn_seconds : (n,) float or None    T sequential RNN steps with state size d, best of
                                `repeats`; None when not measured
    """

    t: np.ndarray
    d: np.ndarray
    seconds: np.ndarray
    weights_bytes: np.ndarray
    trace_bytes: np.ndarray
    rnn_seconds: np.ndarray | None


@dataclass(frozen=True)
class Fit:
    """y = coefficient * x ** slope, fitted by least squares on log y against log x."""

    slope: float
    coefficient: float


def _best_in_turns(jobs, repeats: int) -> np.ndarray:
    """Best time of each job over `repeats` rounds; every round runs every job once, in turn,
    so a burst of load from elsewhere on the machine hits all sizes alike."""
    best = np.full(len(jobs), math.inf)
    for _ in range(repeats):
        for i, job in enumerate(jobs):
            start = time.perf_counter()
            job()
            best[i] = min(best[i], time.perf_counter() - start)
    return best


def _inputs(t: int, d: int, seed: int) -> np.ndarray:
    return np.random.default_rng([seed, t, d]).standard_normal((3, t, d), dtype=np.float32)


def _attention_job(t: int, d: int, seed: int):
    q, k, v = _inputs(t, d, seed)
    return lambda: attention(q, k, v)


def _rnn_job(t: int, d: int, seed: int):
    x = _inputs(t, d, seed)[0]
    w_x, w_h = np.random.default_rng([seed, d]).standard_normal((2, d, d), dtype=np.float32)
    w_x /= math.sqrt(d)  # keeps the state's entries of order 1
    w_h /= math.sqrt(d)
    return lambda: rnn_states(x, w_x, w_h)


def _square_bytes(t: int, d: int, seed: int) -> tuple[int, int]:
    """(bytes of the weights, bytes of every distinct (T, T) array) of one attention trace."""
    tr = _attention_job(t, d, seed)()
    square = {id(a): a.nbytes for a in (tr.scores, tr.scaled, tr.masked, tr.weights)}
    return tr.weights.nbytes, sum(square.values())


def time_attention(t: int, d: int, *, repeats: int = 3, seed: int = 0) -> tuple[float, int, int]:
    """Time one call of ``attention`` on random q, k, v of shape (T, d), float32.

    Returns
    -------
    seconds : float        best of `repeats`
    weights_bytes : int    ``trace.weights.nbytes`` = 4 T^2
    trace_bytes : int      all distinct (T, T) arrays of the trace
    """
    t, d, repeats = _check(t, d, repeats)
    seconds = _best_in_turns([_attention_job(t, d, seed)], repeats)[0]
    return float(seconds), *_square_bytes(t, d, seed)


def rnn_states(x: np.ndarray, w_x: np.ndarray, w_h: np.ndarray) -> np.ndarray:
    """h_t = tanh(x_t w_x + h_{t-1} w_h), h_{-1} = 0: T steps, each waiting for the last.

    x : (T, d)   w_x, w_h : (d, d)   returns (T, d), row t = h_t
    """
    h = np.zeros((x.shape[0], w_h.shape[1]), dtype=x.dtype)
    xw = x @ w_x  # (T, d) x (d, d) -> (T, d): the input part has no order, do it at once
    prev = h[0]
    for i in range(x.shape[0]):  # the recurrence does: row i needs row i - 1
        prev = h[i] = np.tanh(xw[i] + prev @ w_h)  # (d,) x (d, d) -> (d,)
    return h


def time_rnn(t: int, d: int, *, repeats: int = 3, seed: int = 0) -> float:
    """Best-of-`repeats` seconds for ``rnn_states`` over T steps of state size d, float32."""
    t, d, repeats = _check(t, d, repeats)
    return float(_best_in_turns([_rnn_job(t, d, seed)], repeats)[0])


def measure(ts, ds, *, repeats: int = 3, seed: int = 0, rnn: bool = True) -> CostCurve:
    """Attention (and, if `rnn`, the RNN) at each (T, d) pair of `ts` and `ds` (equal lengths).

    The sizes are timed in turns, `repeats` rounds, and each keeps its best time.
    """
    ts, ds = list(ts), list(ds)
    if not ts or len(ts) != len(ds):
        raise AttentionInputError.said("Give one d for each T, and at least one size.")
    sizes = [_check(t, d, repeats)[:2] for t, d in zip(ts, ds, strict=True)]
    seconds = _best_in_turns([_attention_job(t, d, seed) for t, d in sizes], repeats)
    square = np.array([_square_bytes(t, d, seed) for t, d in sizes])  # (n, 2)
    weights_bytes, trace_bytes = square[:, 0], square[:, 1]
    rnn_seconds = None
    if rnn:
        rnn_seconds = _best_in_turns([_rnn_job(t, d, seed) for t, d in sizes], repeats)
    return CostCurve(np.array(ts), np.array(ds), seconds, weights_bytes, trace_bytes, rnn_seconds)


def operation_counts(ts, d: int) -> dict[str, np.ndarray]:
    """Multiplications and sequential steps for one attention head and one RNN layer.

    attention: q k^T and A v, 2 T^2 d multiplications, all independent: 1 sequential step
    RNN: x_t w_x and h_{t-1} w_h, 2 T d^2 multiplications, in T steps one after another
    """
    t = np.array([_check(n, d, 1)[0] for n in ts], dtype=np.int64)
    return {
        "T": t,
        "attention: multiplications": 2 * t * t * d,
        "attention: sequential steps": np.ones_like(t),
        "RNN: multiplications": 2 * t * d * d,
        "RNN: sequential steps": t,
    }


def fit_slope(x, y) -> Fit:
    """Fit y = c x^slope: the straight line through the points on a log-log plot.

    log y = slope log x + log c, by least squares. A slope of 2 means doubling x
    multiplies y by 4.

    Parameters
    ----------
    x, y : (n,) positive finite numbers, n >= 2, at least two different x
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if x.shape != y.shape or x.ndim != 1:
        raise AttentionInputError.said(
            "x and y must be lists of equal length; got {x_shape}, {y_shape}.",
            x_shape=x.shape,
            y_shape=y.shape,
        )
    if not (np.isfinite(x).all() and np.isfinite(y).all() and (x > 0).all() and (y > 0).all()):
        raise AttentionInputError.said("A log-log fit needs positive, finite x and y.")
    if len(np.unique(x)) < 2:
        raise AttentionInputError.said("A slope needs at least two different x values.")
    slope, intercept = np.polyfit(np.log(x), np.log(y), 1)
    return Fit(float(slope), float(np.exp(intercept)))


def _check(t, d, repeats) -> tuple[int, int, int]:
    for name, n, low, high in (("T", t, 1, MAX_T), ("d", d, 1, MAX_D), ("repeats", repeats, 1, 20)):
        whole_number(n, name, low, high)
    return int(t), int(d), int(repeats)
