"""The KV cache: what one new token costs with it and without it, counted and measured.

A decoder writes token T after reading tokens 0..T-1. Because of the causal mask, the keys and
values of those tokens never change once computed, so each layer can keep them (the cache).

- **with the cache** the new token computes its own q, k, v (one row each), one row of scores
  against the T cached keys, and that row's weighted sum: O(T d) work per layer;
- **without it** the whole sequence is read again: T rows of q, k, v and a (T, T) matrix of
  scores per head: O(T^2 d) work per layer.

The cache holds 2 (K and V) x n_layers x n_kv_heads x T x head_dim numbers. Queries are not
kept: a query is used once, when its token is read.

FLOPs count matrix products only, 2 m n k for an (m, k) @ (k, n) product (a multiply and an
add per term); the norms, RoPE and the softmax are O(T d) and left out. They count what
``SmolLM.forward`` computes: without the cache it scores all T x T pairs (the mask then
zeroes half of them) and computes the logits of every row.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from attn_core.pretrained.smollm import KVCache

FLOAT32 = 4  # bytes


@dataclass(frozen=True)
class DecoderSizes:
    """The sizes the counts need (SmolLM2-135M: 30, 576, 9, 3, 64, 1536, 49152)."""

    n_layers: int
    d_model: int
    n_heads: int
    n_kv_heads: int
    head_dim: int
    d_ff: int
    vocab_size: int

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> DecoderSizes:
        return cls(**{name: int(config[name]) for name in cls.__dataclass_fields__})


@dataclass(frozen=True)
class LayerFlops:
    """The matrix products of one layer for `n_new` query rows against `n_keys` keys."""

    q: int  # h w_q: (n_new, d_model) @ (d_model, n_heads * head_dim)
    k: int  # h w_k: (n_new, d_model) @ (d_model, n_kv_heads * head_dim)
    v: int  # h w_v: the same shape as k
    scores: int  # q k^T per head: (n_new, head_dim) @ (head_dim, n_keys)
    weighted_sum: int  # a v per head: (n_new, n_keys) @ (n_keys, head_dim)
    out: int  # concat w_o: (n_new, n_heads * head_dim) @ (n_heads * head_dim, d_model)
    ffn: int  # gate, up and down: three (n_new, d_model) x (d_model, d_ff) products

    @property
    def attention(self) -> int:
        """The part that grows with the context: scores and weighted sum."""
        return self.scores + self.weighted_sum

    @property
    def total(self) -> int:
        return self.q + self.k + self.v + self.scores + self.weighted_sum + self.out + self.ffn


def matmul_flops(m: int, k: int, n: int) -> int:
    """(m, k) @ (k, n): m n dot products of k terms, a multiply and an add each."""
    return 2 * m * k * n


def layer_flops(s: DecoderSizes, n_new: int, n_keys: int) -> LayerFlops:
    """The matrix products of one block reading `n_new` tokens with `n_keys` keys in view."""
    d, hd = s.d_model, s.head_dim
    return LayerFlops(
        q=matmul_flops(n_new, d, s.n_heads * hd),
        k=matmul_flops(n_new, d, s.n_kv_heads * hd),
        v=matmul_flops(n_new, d, s.n_kv_heads * hd),
        scores=s.n_heads * matmul_flops(n_new, hd, n_keys),
        weighted_sum=s.n_heads * matmul_flops(n_new, n_keys, hd),
        out=matmul_flops(n_new, s.n_heads * hd, d),
        ffn=3 * matmul_flops(n_new, d, s.d_ff),
    )


@dataclass(frozen=True)
class StepCost:
    """What producing the logits of token position ``t - 1`` (the t-th token read) costs.

    flops : matrix-product FLOPs of the step
    attention_flops : the part of it in scores and weighted sums (the part that grows with t)
    cache_bytes : bytes the cache holds after the step (0 without a cache)
    scores_bytes : bytes of one layer's attention weights built by the step: n_heads rows of
                   t with the cache, n_heads (t, t) matrices without it
    weight_bytes : bytes of the weights the step reads: the same either way
    """

    flops: int
    attention_flops: int
    cache_bytes: int
    scores_bytes: int
    weight_bytes: int


def cache_bytes(s: DecoderSizes, n_tokens: int, bytes_per_number: int = FLOAT32) -> int:
    """2 (K and V) x n_layers x n_kv_heads x T x head_dim numbers."""
    return 2 * s.n_layers * s.n_kv_heads * n_tokens * s.head_dim * bytes_per_number


def weight_bytes(s: DecoderSizes, bytes_per_number: int = FLOAT32) -> int:
    """Every weight of the model once: the embedding (tied with the output head), each
    block's w_q, w_k, w_v, w_o, three feed-forward matrices and two norm gains, the final norm."""
    d, hd = s.d_model, s.head_dim
    block = (
        d * s.n_heads * hd  # w_q
        + 2 * d * s.n_kv_heads * hd  # w_k, w_v
        + s.n_heads * hd * d  # w_o
        + 3 * d * s.d_ff  # w_gate, w_up, w_down
        + 2 * d  # attn_norm, ffn_norm
    )
    return (s.vocab_size * d + s.n_layers * block + d) * bytes_per_number


def step_cost(s: DecoderSizes, t: int, *, cached: bool) -> StepCost:
    """The cost of reading the t-th token (t >= 1 tokens in the context, itself included).

    cached=True: one new row against t keys, the earlier t - 1 keys and values read from the
    cache. cached=False: all t rows again (what ``SmolLM.forward`` does from an empty cache).
    """
    if t < 1:
        raise ValueError(f"a step reads at least one token; got t = {t}")
    n_new = 1 if cached else t
    layer = layer_flops(s, n_new, t)
    logits = matmul_flops(n_new, s.d_model, s.vocab_size)
    return StepCost(
        flops=s.n_layers * layer.total + logits,
        attention_flops=s.n_layers * layer.attention,
        cache_bytes=cache_bytes(s, t) if cached else 0,
        scores_bytes=s.n_heads * n_new * t * FLOAT32,
        weight_bytes=weight_bytes(s),
    )


# --- on the model: the same numbers, and the time each way -------------------------------------


@dataclass(frozen=True, eq=False)
class CacheCheck:
    """One step through the cache against reading the whole sequence again.

    ids : (t,) the prompt's ids and the next token (greedy) after it
    cached_logits : (vocab,) the step's logits, read through the cache of the prompt
    full_logits : (vocab,) the last row of logits of the whole sequence read from scratch
    keys_shape : the cache's keys after the step, (n_layers, n_kv_heads, t, head_dim)
    cache_bytes : what the cache holds after the step
    """

    ids: np.ndarray
    cached_logits: np.ndarray
    full_logits: np.ndarray
    keys_shape: tuple[int, ...]
    cache_bytes: int

    @property
    def max_difference(self) -> float:
        return float(np.max(np.abs(self.cached_logits - self.full_logits)))

    @property
    def next_ids(self) -> tuple[int, int]:
        """The token each way would write next (greedy)."""
        return int(np.argmax(self.cached_logits)), int(np.argmax(self.full_logits))


def check_cache(model, prompt_ids: np.ndarray) -> CacheCheck:
    """Read the prompt into a cache, write its greedy next token, read that one token through
    the cache, and read the whole sequence again from an empty cache: the logits must agree.

    model : a ``SmolLM`` (anything with ``config`` and ``forward(ids, cache)``).
    """
    prompt_ids = np.asarray(prompt_ids, dtype=np.int64)
    cache = KVCache.empty(model.config, len(prompt_ids) + 1)
    logits, _ = model.forward(prompt_ids, cache)
    ids = np.append(prompt_ids, int(np.argmax(logits[-1])))
    step_logits, _ = model.forward(ids[-1:], cache)  # one row, against the cached keys
    full_logits, _ = model.forward(ids, KVCache.empty(model.config, len(ids)))  # all rows
    return CacheCheck(
        ids=ids,
        cached_logits=step_logits[-1],
        full_logits=full_logits[-1],
        keys_shape=cache.keys[:, :, : cache.length].shape,
        cache_bytes=cache.nbytes,
    )


@dataclass(frozen=True)
class StepTiming:
    """Seconds for the step that reads the last of `t` tokens, best of `repeats` each way."""

    t: int
    cached_seconds: float
    full_seconds: float
    repeats: int

    @property
    def speedup(self) -> float:
        return self.full_seconds / self.cached_seconds


def time_step(model, ids: np.ndarray, repeats: int = 3) -> StepTiming:
    """Time reading the last token of `ids` through a cache of the others, against reading all
    of `ids` from an empty cache. The cache is filled (untimed) before each cached step."""
    if len(ids) < 2:
        raise ValueError("timing a step through the cache needs at least 2 tokens")
    ids = np.asarray(ids, dtype=np.int64)
    cached, full = [], []
    for _ in range(repeats):
        cache = KVCache.empty(model.config, len(ids))
        model.forward(ids[:-1], cache)
        start = time.perf_counter()
        model.forward(ids[-1:], cache)
        cached.append(time.perf_counter() - start)
        start = time.perf_counter()
        model.forward(ids, KVCache.empty(model.config, len(ids)))
        full.append(time.perf_counter() - start)
    return StepTiming(len(ids), min(cached), min(full), repeats)
