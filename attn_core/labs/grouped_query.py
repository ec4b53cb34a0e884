"""Grouped-query attention (GQA): several query heads read one key/value head.

With n_heads query heads and n_kv_heads key/value heads, group = n_heads / n_kv_heads query
heads share each K/V head: query head h reads K/V head h // group. Multi-head attention
(MHA) is the case n_kv_heads = n_heads (groups of 1), multi-query attention (MQA) the case
n_kv_heads = 1 (one group of all). A decoder keeps K and V of every token it has read (the KV
cache), so the cache holds

    2 (K and V) x layers x n_kv_heads x T x head_dim      numbers,

and sharing K/V heads divides it by the group size.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attn_core.attention import Trace, attention
from attn_core.errors import AttentionInputError, whole_number
from attn_core.masks import causal_mask

FLOAT32_BYTES = 4


def group_size(n_heads: int, n_kv_heads: int) -> int:
    """Query heads per K/V head; n_heads must be a multiple of n_kv_heads."""
    n_heads = whole_number(n_heads, "n_heads", 1)
    n_kv_heads = whole_number(n_kv_heads, "n_kv_heads", 1)
    if n_heads % n_kv_heads:
        raise AttentionInputError.said(
            "{n_heads} query heads cannot be shared evenly by {n_kv_heads} K/V heads.",
            n_heads=n_heads,
            n_kv_heads=n_kv_heads,
        )
    return n_heads // n_kv_heads


def kv_head_of(query_head: int, group: int) -> int:
    """The K/V head query head `query_head` reads: query_head // group."""
    return whole_number(query_head, "query_head", 0) // whole_number(group, "group", 1)


def query_heads_of(kv_head: int, group: int) -> list[int]:
    """The query heads that read K/V head `kv_head`: kv_head*group .. kv_head*group + group-1."""
    first = whole_number(kv_head, "kv_head", 0) * whole_number(group, "group", 1)
    return list(range(first, first + group))


def cache_numbers(n_layers: int, n_kv_heads: int, head_dim: int, n_tokens: int) -> int:
    """Numbers in a KV cache: 2 (K and V) x layers x kv heads x tokens x head_dim."""
    return 2 * n_layers * n_kv_heads * whole_number(n_tokens, "n_tokens", 0) * head_dim


def cache_bytes(
    n_layers: int, n_kv_heads: int, head_dim: int, n_tokens: int, bytes_per_number: int = 4
) -> int:
    """Bytes of that cache (float32: 4 bytes a number)."""
    return cache_numbers(n_layers, n_kv_heads, head_dim, n_tokens) * bytes_per_number


@dataclass(frozen=True)
class Variant:
    """One way to share K/V heads: its name and how many K/V heads it keeps."""

    name: str
    n_kv_heads: int

    def group(self, n_heads: int) -> int:
        return group_size(n_heads, self.n_kv_heads)


def variants(n_heads: int, n_kv_heads: int) -> tuple[Variant, ...]:
    """MHA (every query head its own K/V), the model's GQA, and MQA (one K/V head for all)."""
    group_size(n_heads, n_kv_heads)  # checks the model's own sharing
    return (
        Variant("MHA", n_heads),
        Variant("GQA", n_kv_heads),
        Variant("MQA", 1),
    )


def cache_growth(
    n_layers: int,
    n_heads: int,
    n_kv_heads: int,
    head_dim: int,
    n_tokens: np.ndarray,
    bytes_per_number: int = FLOAT32_BYTES,
) -> dict[str, np.ndarray]:
    """Cache bytes of MHA, GQA and MQA at each context length in `n_tokens`: name -> (N,)."""
    t = np.asarray(n_tokens, dtype=np.int64)
    return {
        v.name: 2 * n_layers * v.n_kv_heads * t * head_dim * bytes_per_number
        for v in variants(n_heads, n_kv_heads)
    }


def group_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> Trace:
    """Causal attention of the query heads of ONE group, reading their one shared K/V head.

    q : (group, T, d) the group's queries;  k, v : (T, d) the shared key and value head.
    The same k meets every query head: the weights differ only because the queries do.
    Returns the lesson's Trace with (group, T, T) weights.
    """
    q = np.asarray(q)
    if q.ndim != 3:
        raise AttentionInputError.said("q must be (group, T, d); got {shape}.", shape=q.shape)
    shared_k = np.broadcast_to(k, (q.shape[0], *np.shape(k)))  # (T, d) -> (group, T, d)
    shared_v = np.broadcast_to(v, (q.shape[0], *np.shape(v)))
    return attention(q, shared_k, shared_v, mask=causal_mask(q.shape[1]))


def pattern_gaps(weights: np.ndarray) -> np.ndarray:
    """max |A_a - A_b| over all cells, for each pair of heads: (h, T, T) -> (h, h)."""
    w = np.asarray(weights, dtype=np.float64)
    return np.abs(w[:, None] - w[None, :]).max(axis=(-2, -1))
