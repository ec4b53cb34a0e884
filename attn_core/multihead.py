"""Multi-head attention: h heads side by side, concatenated, then mixed by w_o.

The heads are computed together, as one batch of (n_heads, T, d) arrays; head h is
index h of every array (a view, nothing copied).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from attn_core.attention import Trace, attend
from attn_core.errors import NonFiniteError, ShapeError, all_finite, as_matrix, whole_number


@dataclass(frozen=True, eq=False)
class MultiHeadTrace:
    """Every intermediate of multi-head attention. The arrays it computes are read-only:
    a head's Trace shares their memory.

    Attributes
    ----------
    x : (T, d_model)
    w_q, w_k : (d_model, n_heads * d_k)    w_v : (d_model, n_heads * d_v)
        head h reads columns h*d:(h+1)*d of each
    batched : Trace of every head at once, head h at index h of each array:
        q, k : (n_heads, T, d_k)    v, output : (n_heads, T, d_v)
        scores, scaled, masked, weights : (n_heads, T, T)    mask : (T, T), shared
    concat : (T, n_heads * d_v)   the heads' outputs side by side
    w_o : (n_heads * d_v, d_model)
    output : (T, d_model)          concat w_o
    heads : tuple of n_heads Trace, head h's views of ``batched`` and of the weights
    """

    x: np.ndarray
    w_q: np.ndarray
    w_k: np.ndarray
    w_v: np.ndarray
    batched: Trace
    concat: np.ndarray
    w_o: np.ndarray
    output: np.ndarray

    @property
    def n_heads(self) -> int:
        return self.batched.q.shape[0]

    @property
    def weights(self) -> np.ndarray:
        """(n_heads, T, T): every head's attention weights."""
        return self.batched.weights

    @cached_property
    def heads(self) -> tuple[Trace, ...]:
        """One Trace per head: index h of every batched array (views, nothing recomputed)."""
        b, n = self.batched, self.n_heads
        w_q, w_k, w_v = (_read_only(split_heads(w, n)) for w in (self.w_q, self.w_k, self.w_v))
        return tuple(
            Trace(
                b.q[h],
                b.k[h],
                b.v[h],
                b.scores[h],
                b.scale,
                b.scaled[h],
                b.mask,
                b.masked[h],
                b.weights[h],
                b.output[h],
                b.temperature,
                self.x,
                w_q[h],  # (d_model, d_k): columns h*d_k:(h+1)*d_k of w_q
                w_k[h],
                w_v[h],
            )
            for h in range(n)
        )


def split_heads(a: np.ndarray, n_heads: int) -> np.ndarray:
    """(T, n_heads * d) -> (n_heads, T, d): head h takes columns h*d:(h+1)*d. A view."""
    t, width = a.shape
    return a.reshape(t, n_heads, width // n_heads).transpose(1, 0, 2)  # (T, h, d) -> (h, T, d)


def merge_heads(a: np.ndarray) -> np.ndarray:
    """(n_heads, T, d) -> (T, n_heads * d): the heads side by side, head h in columns h*d:(h+1)*d.

    The inverse of ``split_heads``.
    """
    h, t, d = a.shape
    return a.transpose(1, 0, 2).reshape(t, h * d)  # (h, T, d) -> (T, h, d) -> (T, h*d)


def _check_heads(x, w_q, w_k, w_v, w_o, n_heads):
    x = as_matrix(x, "x")
    w_q, w_k, w_v, w_o = (
        as_matrix(w, n) for w, n in ((w_q, "w_q"), (w_k, "w_k"), (w_v, "w_v"), (w_o, "w_o"))
    )
    n_heads = whole_number(n_heads, "n_heads", 1)
    d_model = x.shape[1]
    for w, n in ((w_q, "w_q"), (w_k, "w_k"), (w_v, "w_v")):
        if w.shape[0] != d_model:
            raise ShapeError.said(
                "{name} must have d_model = {d_model} rows, got shape {shape}.",
                name=n,
                d_model=d_model,
                shape=w.shape,
            )
        if w.shape[1] % n_heads:
            raise ShapeError.said(
                "{name} has {columns} columns, which do not split into {n_heads} equal heads; "
                "choose a number of heads that divides {columns}.",
                name=n,
                columns=w.shape[1],
                n_heads=n_heads,
            )
    if w_q.shape[1] != w_k.shape[1]:
        raise ShapeError.said(
            "w_q and w_k must have the same width, got {w_q_shape}, {w_k_shape}.",
            w_q_shape=w_q.shape,
            w_k_shape=w_k.shape,
        )
    if w_o.shape[0] != w_v.shape[1]:
        raise ShapeError.said(
            "w_o must have {rows} rows (n_heads * d_v), got {w_o_shape}.",
            rows=w_v.shape[1],
            w_o_shape=w_o.shape,
        )
    return x, w_q, w_k, w_v, w_o, n_heads


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
    x, w_q, w_k, w_v, w_o, h = _check_heads(x, w_q, w_k, w_v, w_o, n_heads)
    q = split_heads(x @ w_q, h)  # (T, d_model) x (d_model, h*d_k) -> (T, h*d_k) -> (h, T, d_k)
    k = split_heads(x @ w_k, h)  # (h, T, d_k)
    v = split_heads(x @ w_v, h)  # (h, T, d_v)
    batched = attend(q, k, v, mask=mask)  # every head in one call; inputs checked above
    concat = merge_heads(batched.output)  # (h, T, d_v) -> (T, h*d_v)
    output = concat @ w_o  # (T, h*d_v) x (h*d_v, d_model) -> (T, d_model)
    if not all_finite(output):  # finite inputs, yet the values overflowed on the way
        raise NonFiniteError.said(
            "The values grew too large to represent (overflow to infinity); "
            "use smaller numbers in x or in the weights."
        )
    b = batched
    for a in (q, k, v, b.scores, b.scaled, b.masked, b.weights, b.output, concat, output):
        _read_only(a)  # head h's Trace holds views of these: nobody may write into them
    return MultiHeadTrace(x, w_q, w_k, w_v, batched, concat, w_o, output)


def _read_only(a: np.ndarray) -> np.ndarray:
    """`a`, no longer writeable (a view's flag leaves its base as it was)."""
    a.flags.writeable = False
    return a
