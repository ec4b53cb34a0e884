"""Layer norm against batch norm: one normalisation, the statistics along a row or down a column.

    normalise(x) = (x - mean) / sqrt(var + eps)

Layer norm takes its mean and variance along a row (one token, across its features); batch
norm takes them down a column (one feature, across the examples of a batch). Transformers
use layer norm: a token's numbers never depend on the other sentences in a batch. The
layer itself, with its learned gamma and beta, is ``attn_core.pretrained.bert_layer``.
"""

from __future__ import annotations

import numpy as np

from attn_core.errors import AttentionInputError, as_matrix, positive_number


def normalise(x, axis: int, eps: float = 1e-5) -> np.ndarray:
    """(x - mean) / sqrt(var + eps), the statistics taken along `axis` (no gamma, no beta).

    axis = 1 (each row, across its features) is layer norm; axis = 0 (each column, across
    the rows of a batch) is batch norm. The variance divides by n, as both layers do.

    Parameters
    ----------
    x : (n, d)
    axis : 0 or 1
    eps : float > 0   keeps a constant row or column finite: it becomes 0

    Returns
    -------
    (n, d)
    """
    x = as_matrix(x, "x")
    eps = positive_number(eps, "eps")
    if axis not in (0, 1):
        raise AttentionInputError.said(
            "axis must be 0 (batch norm) or 1 (layer norm), got {axis}.", axis=repr(axis)
        )
    centred = x - x.mean(axis=axis, keepdims=True)  # (n, d) - (n, 1) or (1, d)
    return centred / np.sqrt((centred * centred).mean(axis=axis, keepdims=True) + eps)


def spread(a: np.ndarray, axis: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """(mean, standard deviation) along `axis`: per token for axis=1, per feature for axis=0."""
    return a.mean(axis=axis), a.std(axis=axis)
