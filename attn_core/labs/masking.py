"""Masking up close: the additive mask M, a mask ticked cell by cell, and the wrong way to mask.

The right way adds M (0 where allowed, -inf where forbidden) to the scores before the
softmax, so a forbidden key gets weight exactly 0 and every row still sums to 1 (that is
``attn_core.attention`` with a ``mask``). The wrong way zeroes the weights after the softmax.
Tokens are rows, as in ``attn_core.attention``.
"""

from __future__ import annotations

import numpy as np

from attn_core.errors import AttentionInputError, ShapeError, as_matrix, positive_number
from attn_core.softmax import softmax


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

    Returns
    -------
    (T_q, T_k)
    """
    tau = positive_number(temperature, "temperature")
    scaled = as_matrix(scaled, "scaled")
    mask = bool_mask(mask, scaled.shape)
    return softmax(scaled, temperature=tau) * mask  # (T_q, T_k) * (T_q, T_k)


def bool_mask(cells, shape: tuple[int, int] | None = None) -> np.ndarray:
    """A (T_q, T_k) boolean mask from a grid of ticks, or an error that says what to fix.

    Every cell must be True or False (an empty cell is an error, not "forbidden"),
    and the grid must have `shape` when it is given.
    """
    grid = np.asarray(cells, dtype=object)
    if grid.ndim != 2 or 0 in grid.shape:
        raise ShapeError.said("A mask is a 2-D grid of ticks, got shape {shape}.", shape=grid.shape)
    if shape is not None and grid.shape != tuple(shape):
        raise ShapeError.said(
            "The mask is {rows} x {columns}, but it must be "
            "{want_rows} x {want_columns}: one row and one column per token.",
            rows=grid.shape[0],
            columns=grid.shape[1],
            want_rows=shape[0],
            want_columns=shape[1],
        )
    bad = [(i, j) for (i, j), c in np.ndenumerate(grid) if not isinstance(c, bool | np.bool_)]
    if bad:
        i, j = bad[0]
        raise AttentionInputError.said(
            "Mask cell (row {i}, column {j}) is {value}; every cell must be ticked "
            "(may attend) or unticked (masked).",
            i=i,
            j=j,
            value=repr(grid[i, j]),
        )
    return grid.astype(bool)
