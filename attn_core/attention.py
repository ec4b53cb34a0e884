"""Scaled dot-product attention, step by step, tokens as rows (the paper's and PyTorch's layout).

scores  = q k^T                      (T_q, d_k) x (d_k, T_k) -> (T_q, T_k)
scaled  = scores * scale             scale = 1 / sqrt(d_k) by default
masked  = scaled, -inf where mask is False
weights = softmax(masked / temperature) by row; each row sums to 1
output  = weights v                  (T_q, T_k) x (T_k, d_v) -> (T_q, d_v)

``self_attention`` first projects one sequence x to q, k and v.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from attn_core.errors import ShapeError, as_matrix, positive_number
from attn_core.masks import check_mask
from attn_core.softmax import softmax


@dataclass(frozen=True, eq=False)
class Trace:
    """Every intermediate of one attention head. Pages read these; they never recompute.

    Attributes
    ----------
    q : (T_q, d_k)    k : (T_k, d_k)    v : (T_k, d_v)
    scores : (T_q, T_k)   q k^T, entry (i, j) = q_i . k_j
    scale : float         the factor applied to the scores
    scaled : (T_q, T_k)   scores * scale
    mask : (T_q, T_k) bool or None, True where query i may attend to key j
    masked : (T_q, T_k)   scaled with -inf where the mask forbids
    weights : (T_q, T_k)  softmax(masked / temperature) by row; rows sum to 1
    output : (T_q, d_v)   weights v
    temperature : float
    x, w_q, w_k, w_v : the input and projections, set by ``self_attention`` only
    """

    q: np.ndarray
    k: np.ndarray
    v: np.ndarray
    scores: np.ndarray
    scale: float
    scaled: np.ndarray
    mask: np.ndarray | None
    masked: np.ndarray
    weights: np.ndarray
    output: np.ndarray
    temperature: float = 1.0
    x: np.ndarray | None = None
    w_q: np.ndarray | None = None
    w_k: np.ndarray | None = None
    w_v: np.ndarray | None = None

    @property
    def d_k(self) -> int:
        return self.q.shape[-1]

    @property
    def d_v(self) -> int:
        return self.v.shape[-1]


def _check_qkv(q, k, v) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    q, k, v = (as_matrix(a, n, ndim=None) for a, n in ((q, "q"), (k, "k"), (v, "v")))
    if q.ndim < 2 or q.ndim != k.ndim or k.ndim != v.ndim:
        raise ShapeError.said(
            "q, k and v must be matrices (tokens as rows) with the same number of "
            "dimensions; got shapes {q_shape}, {k_shape}, {v_shape}.",
            q_shape=q.shape,
            k_shape=k.shape,
            v_shape=v.shape,
        )
    if q.shape[-1] != k.shape[-1]:
        raise ShapeError.said(
            "q and k must share d_k (their last dimension): q is {q_shape}, k is {k_shape}.",
            q_shape=q.shape,
            k_shape=k.shape,
        )
    if k.shape[-2] != v.shape[-2]:
        raise ShapeError.said(
            "k and v need one row per key token: k has {k_rows} rows, v has {v_rows}.",
            k_rows=k.shape[-2],
            v_rows=v.shape[-2],
        )
    if not q.shape[:-2] == k.shape[:-2] == v.shape[:-2]:
        raise ShapeError.said(
            "q, k and v need the same leading (batch) dimensions; got shapes "
            "{q_shape}, {k_shape}, {v_shape}.",
            q_shape=q.shape,
            k_shape=k.shape,
            v_shape=v.shape,
        )
    return q, k, v


def attention(q, k, v, *, mask=None, scale=None, temperature: float = 1.0) -> Trace:
    """Scaled dot-product attention: softmax(q k^T * scale + M) v.

    Parameters
    ----------
    q : (T_q, d_k)
    k : (T_k, d_k)
    v : (T_k, d_v)
        Leading batch dimensions (for example heads) are allowed, the same for all
        three: ``(..., T, d)``.
    mask : (T_q, T_k) bool, optional
        True where query i may attend to key j. A row with no True raises
        ``FullyMaskedRowError``.
    scale : float, optional
        Factor for the scores; default ``1 / sqrt(d_k)``. ``scale=1.0`` is unscaled.
    temperature : float
        Divides the scaled scores before the softmax.

    Returns
    -------
    Trace
    """
    q, k, v = _check_qkv(q, k, v)
    return attend(q, k, v, mask=mask, scale=scale, temperature=temperature)


def attend(q, k, v, *, mask=None, scale=None, temperature: float = 1.0) -> Trace:
    """The steps of `attention` for q, k, v already checked by ``_check_qkv``.

    Multi-head attention calls this with the projections of its checked x and weights;
    they are not checked again (a projection that overflowed is reported by the softmax,
    in words about the scores). The mask, scale and temperature are checked here.
    """
    scale = 1.0 / math.sqrt(q.shape[-1]) if scale is None else positive_number(scale, "scale")
    tau = positive_number(temperature, "temperature")
    if mask is not None:
        mask = check_mask(mask, q.shape[-2], k.shape[-2], q.shape[:-2])
    scores = q @ k.swapaxes(-1, -2)  # (T_q, d_k) x (d_k, T_k) -> (T_q, T_k)
    scaled = scores * scale  # (T_q, T_k)
    masked = scaled if mask is None else np.where(mask, scaled, -np.inf)  # (T_q, T_k)
    weights = softmax(masked, temperature=tau)  # (T_q, T_k), rows sum to 1
    output = weights @ v  # (T_q, T_k) x (T_k, d_v) -> (T_q, d_v)
    return Trace(q, k, v, scores, float(scale), scaled, mask, masked, weights, output, tau)


def self_attention(x, w_q, w_k, w_v, *, mask=None, scale=None, temperature: float = 1.0) -> Trace:
    """Project one sequence to q, k, v and attend to itself.

    q = x w_q,  k = x w_k,  v = x w_v

    Parameters
    ----------
    x : (T, d_model)
    w_q, w_k : (d_model, d_k)
    w_v : (d_model, d_v)

    Returns
    -------
    Trace, with ``x, w_q, w_k, w_v`` recorded.
    """
    x = as_matrix(x, "x")
    ws = [as_matrix(w, n) for w, n in ((w_q, "w_q"), (w_k, "w_k"), (w_v, "w_v"))]
    for w, n in zip(ws, ("w_q", "w_k", "w_v"), strict=True):
        if w.shape[0] != x.shape[1]:
            raise ShapeError.said(
                "{name} has {rows} rows but x has d_model = {d_model} columns; "
                "{name} must be (d_model, d).",
                name=n,
                rows=w.shape[0],
                d_model=x.shape[1],
            )
    w_q, w_k, w_v = ws
    q, k, v = x @ w_q, x @ w_k, x @ w_v  # (T, d_model) x (d_model, d) -> (T, d)
    t = attention(q, k, v, mask=mask, scale=scale, temperature=temperature)
    return replace(t, x=x, w_q=w_q, w_k=w_k, w_v=w_v)
