"""Multi-head attention: h heads side by side, concatenated, then mixed by w_o."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attn_core.attention import Trace, attention
from attn_core.errors import AttentionInputError, ShapeError, as_matrix


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
    both = attention(q, k, v, mask=mask)  # all heads in one batched call
    heads = tuple(
        Trace(
            q[h],
            k[h],
            v[h],
            both.scores[h],
            both.scale,
            both.scaled[h],
            both.mask,
            both.masked[h],
            both.weights[h],
            both.output[h],
            both.temperature,
            x,
            w_q[:, _cols(h, q)],
            w_k[:, _cols(h, k)],
            w_v[:, _cols(h, v)],
        )  # fmt: skip
        for h in range(n_heads)
    )
    concat = both.output.transpose(1, 0, 2).reshape(x.shape[0], -1)  # (h, T, d_v) -> (T, h*d_v)
    return MultiHeadTrace(x, heads, concat, w_o, concat @ w_o)


def _cols(h: int, a: np.ndarray) -> slice:
    d = a.shape[-1]
    return slice(h * d, (h + 1) * d)
