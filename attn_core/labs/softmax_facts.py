"""Softmax up close: one row step by step, temperature, the sigmoid, argmax as the hard limit.

``softmax_steps`` takes one row of a trace through the softmax, step by step: divide by
tau, subtract the largest, exp, sum, divide. softmax({0, s}) = {1 - sigmoid(s), sigmoid(s)},
since e^s / (e^0 + e^s) = 1 / (1 + e^-s); softmax(c s) = softmax(s / tau) with tau = 1 / c,
so c > 1 sharpens the distribution; and as tau -> 0 the softmax tends to argmax, which is
piecewise constant (its gradient is 0 wherever it exists) while the softmax's changes
smoothly with every score. Every distribution here is ``attn_core.softmax``'s.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from attn_core.attention import Trace
from attn_core.errors import (
    AttentionInputError,
    ShapeError,
    as_matrix,
    positive_number,
    whole_number,
)
from attn_core.softmax import softmax

MAX_SCORES = 12
MAX_ABS_SCORE = 100.0  # beyond this every weight is already 0 or 1 to many decimals
_SEPARATORS = re.compile(r"[,;\s]+")


def sigmoid(s) -> np.ndarray:
    """The logistic function 1 / (1 + e^-s), without overflow for large |s|.

    s : array_like  ->  ndarray of the same shape, in (0, 1)
    """
    s = as_matrix(s, "s", ndim=None)
    e = np.exp(-np.abs(s))  # in (0, 1]: never overflows
    return np.where(s >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def softmax_pair(s) -> np.ndarray:
    """softmax({0, s}) for each s: (...,) -> (..., 2); column 1 equals sigmoid(s)."""
    s = as_matrix(s, "s", ndim=None)
    return softmax(np.stack([np.zeros_like(s), s], axis=-1))  # (..., 2)


def hardmax(scores) -> np.ndarray:
    """argmax as a distribution: 1 at the first largest score of each row, 0 elsewhere.

    scores : (..., T)  ->  (..., T)
    """
    scores = as_matrix(scores, "scores", ndim=None)
    out = np.zeros_like(scores)
    np.put_along_axis(out, scores.argmax(axis=-1)[..., None], 1.0, axis=-1)
    return out


def parse_scores(text: str, max_count: int = MAX_SCORES) -> np.ndarray:
    """A row of scores typed by the learner: "2, 1, 0.5, -1" -> array([2., 1., 0.5, -1.]).

    Commas, semicolons and spaces separate the numbers; the typographic minus is accepted.
    Raises AttentionInputError, with a sentence that says what to change, for text that
    is not a number, NaN or infinity, fewer than 2 or more than `max_count` scores, or a
    score beyond +-MAX_ABS_SCORE. Messages name a score by position (s0 first, as the lab's
    table does) and never repeat the learner's text (a page shows them as Markdown).
    """
    if not isinstance(text, str):
        raise AttentionInputError.said(
            "Scores must be typed as text, got {kind}.", kind=type(text).__name__
        )
    parts = [p for p in _SEPARATORS.split(text.replace("\u2212", "-")) if p]
    if not 2 <= len(parts) <= max_count:
        raise AttentionInputError.said(
            "Type between 2 and {max_count} scores separated by commas, for example "
            "2, 1, 0.5, -1 (you typed {typed}).",
            max_count=max_count,
            typed=len(parts),
        )
    values = []
    for n, part in enumerate(parts):  # s0, s1, ...: as the page's table names them
        try:
            v = float(part)
        except ValueError:
            v = math.nan
        if not math.isfinite(v):  # "nan", "inf" and "1e999" parse, but are no scores
            raise AttentionInputError.said(
                "Score s{n} is not a finite number. Use numbers such as 2, -0.5 or 1e-3, "
                "separated by commas.",
                n=n,
            )
        if abs(v) > MAX_ABS_SCORE:
            raise AttentionInputError.said(
                "Score s{n} is {value}; keep every score between -{max_abs_score} and "
                "{max_abs_score} (beyond that the weights are already 0 or 1).",
                n=n,
                value=f"{v:g}",
                max_abs_score=f"{MAX_ABS_SCORE:g}",
            )
        values.append(v)
    return np.array(values)


@dataclass(frozen=True, eq=False)
class OneScoreSweep:
    """Score j of a row moved across `values`, the other scores fixed.

    values : (n,)        the values given to score j
    soft : (n, T)        softmax(row / tau) for each value
    hard : (n, T)        hardmax(row) for each value
    slope : (n,)         d soft_j / d s_j = soft_j (1 - soft_j) / tau: never 0
    """

    j: int
    values: np.ndarray
    soft: np.ndarray
    hard: np.ndarray
    slope: np.ndarray


def vary_one(scores, j: int, values, temperature: float = 1.0) -> OneScoreSweep:
    """Soft and hard selection as score j moves and the others stay.

    Parameters
    ----------
    scores : (T,)      the row
    j : int            which score moves, 0 <= j < T
    values : (n,)      the values it takes
    temperature : tau > 0
    """
    row = as_matrix(scores, "scores", ndim=1)
    values = as_matrix(values, "values", ndim=1)
    tau = positive_number(temperature, "temperature")
    if not 0 <= whole_number(j, "j") < row.size:
        raise AttentionInputError.said(
            "j must be a position from 0 to {last}, got {j}.", last=row.size - 1, j=repr(j)
        )
    rows = np.repeat(row[None, :], values.size, axis=0)  # (n, T)
    rows[:, j] = values
    soft = softmax(rows, temperature=tau)
    slope = soft[:, j] * (1.0 - soft[:, j]) / tau
    return OneScoreSweep(int(j), values, soft, hardmax(rows), slope)


@dataclass(frozen=True, eq=False)
class SoftmaxSteps:
    """One row of scores through the softmax, every step kept.

    Attributes
    ----------
    scores : (T,)    the input, -inf where masked
    divided : (T,)   scores / tau
    shifted : (T,)   divided - max(divided): the largest entry becomes 0
    exps : (T,)      exp(shifted), in (0, 1]; masked entries exactly 0
    total : float    sum of exps
    weights : (T,)   exps / total, sums to 1: the trace's own row of weights
    """

    scores: np.ndarray
    divided: np.ndarray
    shifted: np.ndarray
    exps: np.ndarray
    total: float
    weights: np.ndarray


def softmax_steps(trace: Trace, i: int) -> SoftmaxSteps:
    """Row i of a head's softmax, step by step, ending in the weights the head has.

    w_j = exp(s_j / tau - m) / sum_l exp(s_l / tau - m),  m = max_l s_l / tau

    The weights are not recomputed: they are ``trace.weights[i]``, the numbers every figure
    of the head shows (``exps / total`` equals them to the last digit or two). Everything is
    float64; a float32 model's row converts exactly.

    Parameters
    ----------
    trace : Trace of one head: ``masked`` and ``weights`` (T_q, T_k), ``temperature`` tau
    i : int, the query row, 0 <= i < T_q

    Returns
    -------
    SoftmaxSteps of (T_k,) rows.
    """
    if trace.weights.ndim != 2:
        raise ShapeError.said(
            "softmax_steps needs one head, not weights of shape {shape}.", shape=trace.weights.shape
        )
    n = trace.weights.shape[0]
    if not 0 <= whole_number(i, "i") < n:
        raise AttentionInputError.said(
            "i must be a query row from 0 to {last}, got {i}.", last=n - 1, i=repr(i)
        )
    scores = np.asarray(trace.masked[i], dtype=float)  # (T_k,)
    divided = scores / trace.temperature
    shifted = divided - divided.max()
    exps = np.exp(shifted)
    weights = np.asarray(trace.weights[i], dtype=float)  # (T_k,), the trace's own row
    return SoftmaxSteps(scores, divided, shifted, exps, float(exps.sum()), weights)


def temperature_sweep(row, temperatures) -> np.ndarray:
    """(n_temperatures, T): the softmax of one row at each temperature.

    Small tau sharpens towards the argmax; large tau flattens towards uniform.

    Parameters
    ----------
    row : (T,) scores; -inf marks a masked key
    temperatures : (n_temperatures,) each tau > 0
    """
    scores = _row(row)
    taus = [positive_number(t, "temperature") for t in np.atleast_1d(temperatures)]
    return np.stack([softmax(scores, temperature=t) for t in taus])


def _row(row) -> np.ndarray:
    """A 1-D float row of scores: finite numbers or -inf (masked)."""
    r = np.asarray(row, dtype=float)
    if r.ndim != 1 or r.size == 0:
        raise ShapeError.said("Expected one row of scores, got shape {shape}.", shape=r.shape)
    if np.isnan(r).any() or np.isposinf(r).any():
        raise AttentionInputError.said("Scores must be finite numbers or -inf (masked).")
    return r
