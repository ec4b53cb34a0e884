"""Local attention: each query sees only the keys within `width` positions of itself.

Global attention scores every pair: T^2 scores. A band of half-width w keeps the pairs with
|i - j| <= w: 2w + 1 keys per row, fewer near the two ends, in all

    T (2w + 1) - w (w + 1)      for w <= T - 1   (T^2 once the band covers every key)
"""

from __future__ import annotations

import numpy as np

from attn_core.attention import Trace, attention
from attn_core.errors import AttentionInputError, whole_number
from attn_core.masks import window_mask


def local_attention(q, k, v, width: int, *, scale=None, temperature: float = 1.0) -> Trace:
    """Self-attention restricted to a band: softmax(q k^T / sqrt(d_k) + M_w) v.

    Parameters
    ----------
    q, k : (T, d_k)    v : (T, d_v)    one sequence: as many queries as keys
    width : int        w >= 0, the neighbours each token sees on either side;
                       w >= T - 1 is global attention

    Returns
    -------
    Trace whose ``mask`` is ``window_mask(T, width)``; weights outside the band are exactly 0.
    """
    t = np.shape(q)[0] if np.ndim(q) == 2 else 0
    if np.ndim(q) != 2 or np.ndim(k) != 2 or np.shape(k)[0] != t:
        raise AttentionInputError.said(
            "Local attention is self-attention on one sequence: q and k must be matrices with "
            "the same number of rows; got shapes {q_shape} and {k_shape}.",
            q_shape=np.shape(q),
            k_shape=np.shape(k),
        )
    return attention(q, k, v, mask=window_mask(t, width), scale=scale, temperature=temperature)


def n_scores(t: int, width: int | None = None) -> int:
    """Scores one head computes for T tokens: T^2 globally, T(2w+1) - w(w+1) in a band.

    Parameters
    ----------
    t : int             T >= 1
    width : int, optional   w >= 0; None means global attention
    """
    t = whole_number(t, "T", 1)
    if width is None:
        return t * t
    w = min(whole_number(width, "width", 0), t - 1)  # a band wider than the sentence is global
    return t * (2 * w + 1) - w * (w + 1)


def score_counts(ts, width: int) -> tuple[np.ndarray, np.ndarray]:
    """(global, local) score counts for each T in `ts`: two (n,) int64 arrays."""
    ts = [whole_number(t, "T", 1) for t in ts]
    full = np.array([n_scores(t) for t in ts], dtype=np.int64)
    band = np.array([n_scores(t, width) for t in ts], dtype=np.int64)
    return full, band
