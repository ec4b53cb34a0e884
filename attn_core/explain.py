"""Small quantities the step pages show beside the main computation: each a pure function.

Softmax up close, a weighted sum split into its parts, masking done the wrong way,
the mean over heads. Tokens are rows, as in ``attn_core.attention``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attn_core.errors import AttentionInputError, ShapeError, as_matrix, positive_number
from attn_core.softmax import softmax, stable_softmax


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
    weights : (T,)   exps / total; sums to 1
    """

    scores: np.ndarray
    divided: np.ndarray
    shifted: np.ndarray
    exps: np.ndarray
    total: float
    weights: np.ndarray


def softmax_steps(row, temperature: float = 1.0) -> SoftmaxSteps:
    """The stable softmax of one row, step by step.

    w_j = exp(s_j / tau - m) / sum_i exp(s_i / tau - m),  m = max_i s_i / tau

    Parameters
    ----------
    row : (T,) scores; -inf marks a masked key
    temperature : float, tau > 0

    Returns
    -------
    SoftmaxSteps, whose ``weights`` equal ``softmax(row, temperature=tau)``.
    """
    tau = positive_number(temperature, "temperature")
    scores = _row(row)
    weights = softmax(scores, temperature=tau)  # raises when every entry is -inf
    divided = scores / tau
    shifted = divided - divided.max()
    exps = np.exp(shifted)
    return SoftmaxSteps(scores, divided, shifted, exps, float(exps.sum()), weights)


def temperature_sweep(row, temperatures) -> np.ndarray:
    """(n_temperatures, T): the softmax of one row at each temperature.

    Small tau sharpens towards the argmax; large tau flattens towards uniform.
    """
    scores = _row(row)
    taus = [positive_number(t, "temperature") for t in np.atleast_1d(temperatures)]
    return np.stack([softmax(scores, temperature=t) for t in taus])


def row_sums(a) -> np.ndarray:
    """(..., T_q): the sum of each row of a (..., T_q, T_k) matrix of weights."""
    return np.asarray(a, dtype=float).sum(axis=-1)


def weighted_sum_parts(weights_row, v) -> np.ndarray:
    """(T_k, d_v): row j is a_j v_j, query i's share of value row j.

    z_i = sum_j a_ij v_j, so the parts summed over j give output row i of Z = A V.

    Parameters
    ----------
    weights_row : (T_k,) one row of A
    v : (T_k, d_v)
    """
    v = as_matrix(v, "v")
    a = as_matrix(np.asarray(weights_row, dtype=float)[None, :], "weights_row")[0]
    if a.shape[0] != v.shape[0]:
        raise ShapeError(f"weights_row has {a.shape[0]} entries but v has {v.shape[0]} rows.")
    return a[:, None] * v  # (T_k, 1) * (T_k, d_v) -> (T_k, d_v)


def additive_mask(mask) -> np.ndarray:
    """(T_q, T_k) float: M = 0 where the boolean mask allows, -inf where it forbids."""
    mask = bool_mask(mask)
    return np.where(mask, 0.0, -np.inf)


def mask_after_softmax(scaled, mask, temperature: float = 1.0) -> np.ndarray:
    """The WRONG way to mask: softmax first, then zero the forbidden weights.

    wrong = softmax(scaled / tau) * mask

    The softmax shared the attention among every key, forbidden ones included, so
    zeroing them afterwards leaves rows that sum to less than 1 (0 for a row with
    nothing allowed). The right way adds M (0 / -inf) before the softmax.

    Parameters
    ----------
    scaled : (T_q, T_k) scaled scores, before any mask
    mask : (T_q, T_k) bool, True where query i may attend to key j
    temperature : float, tau > 0
    """
    tau = positive_number(temperature, "temperature")
    scaled = as_matrix(scaled, "scaled")
    mask = bool_mask(mask, scaled.shape)
    return stable_softmax(scaled.copy(), -1, tau) * mask


def mean_over_heads(weights) -> np.ndarray:
    """(T_q, T_k): the average of every head's weights; each row still sums to 1.

    weights : (n_heads, T_q, T_k)
    """
    w = np.asarray(weights, dtype=float)
    if w.ndim != 3 or 0 in w.shape:
        raise ShapeError(f"weights must be (n_heads, T, T), got shape {w.shape}.")
    return w.mean(axis=0)


def bool_mask(cells, shape: tuple[int, int] | None = None) -> np.ndarray:
    """A (T_q, T_k) boolean mask from a grid of ticks, or an error that says what to fix.

    Every cell must be True or False (an empty cell is an error, not "forbidden"),
    and the grid must have `shape` when it is given.
    """
    grid = np.asarray(cells, dtype=object)
    if grid.ndim != 2 or 0 in grid.shape:
        raise ShapeError(f"A mask is a 2-D grid of ticks, got shape {grid.shape}.")
    if shape is not None and grid.shape != tuple(shape):
        raise ShapeError(
            f"The mask is {grid.shape[0]} x {grid.shape[1]}, but it must be "
            f"{shape[0]} x {shape[1]}: one row and one column per token."
        )
    bad = [(i, j) for (i, j), c in np.ndenumerate(grid) if not isinstance(c, bool | np.bool_)]
    if bad:
        i, j = bad[0]
        raise AttentionInputError(
            f"Mask cell (row {i}, column {j}) is {grid[i, j]!r}; every cell must be ticked "
            "(may attend) or unticked (masked)."
        )
    return grid.astype(bool)


def _row(row) -> np.ndarray:
    """A 1-D float row of scores: finite numbers or -inf (masked)."""
    r = np.asarray(row, dtype=float)
    if r.ndim != 1 or r.size == 0:
        raise ShapeError(f"Expected one row of scores, got shape {r.shape}.")
    if np.isnan(r).any() or np.isposinf(r).any():
        raise AttentionInputError("Scores must be finite numbers or -inf (masked).")
    return r
