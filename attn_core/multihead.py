"""Multi-head attention: h heads side by side, concatenated, then mixed by w_o."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attn_core.attention import Trace, attend
from attn_core.errors import AttentionInputError, NonFiniteError, ShapeError, all_finite, as_matrix


@dataclass(frozen=True, eq=False)
class MultiHeadTrace:
    """Every intermediate of multi-head attention.

    Attributes
    ----------
    x : (T, d_model)
    heads : tuple of n_heads Trace, head h built from columns h*d_k:(h+1)*d_k of w_q, w_k
    concat : (T, n_heads * d_v)   the heads' outputs side by side
    w_o : (n_heads * d_v, d_model)
    output : (T, d_model)          concat w_o
    """

    x: np.ndarray
    heads: tuple[Trace, ...]
    concat: np.ndarray
    w_o: np.ndarray
    output: np.ndarray

    @property
    def n_heads(self) -> int:
        return len(self.heads)

    @property
    def weights(self) -> np.ndarray:
        """(n_heads, T, T): every head's attention weights."""
        return np.stack([h.weights for h in self.heads])


def split_heads(a: np.ndarray, n_heads: int) -> np.ndarray:
    """(T, n_heads * d) -> (n_heads, T, d): head h takes columns h*d:(h+1)*d."""
    t, width = a.shape
    return a.reshape(t, n_heads, width // n_heads).transpose(1, 0, 2)


def _check_heads(x, w_q, w_k, w_v, w_o, n_heads):
    x = as_matrix(x, "x")
    w_q, w_k, w_v, w_o = (
        as_matrix(w, n) for w, n in ((w_q, "w_q"), (w_k, "w_k"), (w_v, "w_v"), (w_o, "w_o"))
    )
    if isinstance(n_heads, bool) or not isinstance(n_heads, (int, np.integer)) or n_heads < 1:
        raise AttentionInputError(f"n_heads must be a whole number >= 1, got {n_heads!r}.")
    d_model = x.shape[1]
    for w, n in ((w_q, "w_q"), (w_k, "w_k"), (w_v, "w_v")):
        if w.shape[0] != d_model:
            raise ShapeError(f"{n} must have d_model = {d_model} rows, got shape {w.shape}.")
        if w.shape[1] % n_heads:
            raise ShapeError(
                f"{n} has {w.shape[1]} columns, which do not split into {n_heads} equal heads; "
                f"choose a number of heads that divides {w.shape[1]}."
            )
    if w_q.shape[1] != w_k.shape[1]:
        raise ShapeError(f"w_q and w_k must have the same width, got {w_q.shape}, {w_k.shape}.")
    if w_o.shape[0] != w_v.shape[1]:
        raise ShapeError(f"w_o must have {w_v.shape[1]} rows (n_heads * d_v), got {w_o.shape}.")
    return x, w_q, w_k, w_v, w_o


def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads: int, *, mask=None) -> MultiHeadTrace:
    """Multi-head self-attention, the layout of PyTorch's nn.MultiheadAttention and BERT.

    head_h = attention(x w_q[:, h], x w_k[:, h], x w_v[:, h]),
    output = concat(head_1 .. head_n) w_o

    Parameters
    ----------
    x : (T, d_model)
    w_q, w_k : (d_model, n_heads * d_k)    usually d_k = d_model / n_heads
    w_v : (d_model, n_heads * d_v)
    w_o : (n_heads * d_v, d_model)
    n_heads : int
    mask : (T, T) bool, optional, shared by every head

    Returns
    -------
    MultiHeadTrace
    """
    x, w_q, w_k, w_v, w_o = _check_heads(x, w_q, w_k, w_v, w_o, n_heads)
    q = split_heads(x @ w_q, n_heads)  # (T, h*d_k) -> (h, T, d_k)
    k = split_heads(x @ w_k, n_heads)
    v = split_heads(x @ w_v, n_heads)  # (h, T, d_v)
    both = attend(q, k, v, mask=mask)  # all heads in one batched call; inputs checked above
    heads = _per_head(both, x, (w_q, w_k, w_v), n_heads)
    concat = both.output.transpose(1, 0, 2).reshape(x.shape[0], -1)  # (h, T, d_v) -> (T, h*d_v)
    output = concat @ w_o  # (T, h*d_v) x (h*d_v, d_model) -> (T, d_model)
    if not all_finite(output):  # finite inputs, yet the values overflowed on the way
        raise NonFiniteError(
            "The values grew too large to represent (overflow to infinity); "
            "use smaller numbers in x or in the weights."
        )
    return MultiHeadTrace(x, heads, concat, w_o, output)


def _per_head(both: Trace, x: np.ndarray, ws: tuple, n_heads: int) -> tuple[Trace, ...]:
    """One Trace per head from the batched one: views of its arrays, nothing recomputed."""
    steps = (both.q, both.k, both.v, both.scores, both.scaled, both.masked, both.weights)
    w_heads = (split_heads(w, n_heads) for w in ws)  # head h: columns h*d:(h+1)*d of w_q ...
    s, m, tau = both.scale, both.mask, both.temperature
    return tuple(
        Trace(q, k, v, scores, s, scaled, m, masked, weights, z, tau, x, w_q, w_k, w_v)
        for q, k, v, scores, scaled, masked, weights, z, w_q, w_k, w_v in zip(
            *steps, both.output, *w_heads, strict=True
        )  # iterating an (h, ...) array yields its h views
    )
