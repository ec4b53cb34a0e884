"""What a trained head does, read from its weights: previous-token heads, heads that park on
the first token, and how much weight goes to later tokens (none, under a causal mask).

For a head's weights A (T, T), rows are queries and columns keys. Two scores, each a mean
over the query rows t = 2 .. T-1, where key 0, key t-1 and key t are three different tokens:

    previous[t] = A[t, t - 1]          a previous-token head puts most of each row here
    first[t]    = A[t, 0]              an "attention sink": the row parks on the first token

and the weight a row gives to tokens after it, sum_{j > t} A[t, j]: exactly 0 in a decoder
(the causal mask sets those scores to -inf, and exp(-inf) = 0), well above 0 in an encoder.
"""

from __future__ import annotations

import numpy as np

from attn_core.errors import AttentionInputError

PREVIOUS, FIRST, OTHER = "previous token", "first token", "other"
MIN_TOKENS = 3  # the scores need a row t >= 2


def _heads(attentions: np.ndarray) -> np.ndarray:
    a = np.asarray(attentions, dtype=np.float64)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise AttentionInputError.said(
            "attention weights must be (..., T, T); got {shape}.", shape=a.shape
        )
    if a.shape[-1] < MIN_TOKENS:
        raise AttentionInputError.said(
            "Reading a head's habits needs at least {min_tokens} tokens (a row t >= 2, where "
            "the first, the previous and the current token differ); this text has "
            "{tokens}. Type a few more words.",
            min_tokens=MIN_TOKENS,
            tokens=a.shape[-1],
        )
    return a


def previous_token_scores(attentions: np.ndarray) -> np.ndarray:
    """Mean weight of row t on key t - 1, over rows t = 2 .. T-1.

    attentions : (..., T, T), e.g. (layers, heads, T, T)  ->  (...,) e.g. (layers, heads)
    """
    a = _heads(attentions)
    t = np.arange(2, a.shape[-1])  # the query rows
    return a[..., t, t - 1].mean(axis=-1)  # (..., T-2) -> (...)


def first_token_scores(attentions: np.ndarray) -> np.ndarray:
    """Mean weight of row t on key 0 (the first token), over rows t = 2 .. T-1."""
    a = _heads(attentions)
    return a[..., 2:, 0].mean(axis=-1)


def label_heads(previous: np.ndarray, first: np.ndarray, threshold: float = 0.5) -> np.ndarray:
    """Each head's type: PREVIOUS if its previous-token score reaches `threshold`, FIRST if its
    first-token score does (the larger wins if both do), else OTHER. Same shape as the scores."""
    if not 0 < threshold <= 1:
        raise AttentionInputError.said(
            "the threshold must be in (0, 1]; got {threshold}.", threshold=repr(threshold)
        )
    previous, first = np.asarray(previous), np.asarray(first)
    labels = np.full(previous.shape, OTHER, dtype=object)
    labels[(first >= threshold) & (first > previous)] = FIRST
    labels[(previous >= threshold) & (previous >= first)] = PREVIOUS
    return labels


def future_weight(attentions: np.ndarray) -> np.ndarray:
    """Weight each row gives to the keys after it, sum_{j > t} A[t, j], averaged over the rows.

    (..., T, T) -> (...,): 0 for a causal head, and never exactly 0 for an encoder's."""
    a = np.asarray(attentions, dtype=np.float64)
    upper = np.triu(np.ones(a.shape[-2:], dtype=bool), k=1)  # (T, T): j > t
    return np.where(upper, a, 0.0).sum(axis=-1).mean(axis=-1)


def upper_triangle(attentions: np.ndarray) -> np.ndarray:
    """Every weight strictly above the diagonal (a query looking at a later key), flattened
    over all heads: (..., T, T) -> (n_heads_total * T (T - 1) / 2,)."""
    a = np.asarray(attentions)
    rows, cols = np.triu_indices(a.shape[-1], k=1)
    return a[..., rows, cols].ravel()


def top_heads(scores: np.ndarray, n: int) -> list[tuple[int, int]]:
    """The `n` (layer, head) pairs with the largest scores (layers, heads), best first."""
    order = np.argsort(-np.asarray(scores), axis=None, kind="stable")[:n]
    return [tuple(int(i) for i in np.unravel_index(k, scores.shape)) for k in order]
