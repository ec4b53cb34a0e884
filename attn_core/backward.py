"""Gradients through one attention head: the forward steps of ``attention.py``, backwards.

Given a loss L and its gradient d_output = dL/dZ, each forward step hands its gradient to
the step before it (the chain rule), tokens as rows:

    forward                                   backward
    output  = weights v                       dv        = weights^T d_output
                                              d_weights = d_output v^T
    weights = softmax(masked / tau)           d_scaled  = weights * (d_weights - r) / tau,
                                              r = rowsum(d_weights * weights)
    masked  = scaled, -inf where masked       (a masked cell has weight 0: its gradient is 0)
    scaled  = scores * scale                  d_scores  = d_scaled * scale
    scores  = q k^T                           dq = d_scores k,   dk = d_scores^T q
    q, k, v = x w_q, x w_k, x w_v             dw_q = x^T dq, dw_k = x^T dk, dw_v = x^T dv
                                              dx   = dq w_q^T + dk w_k^T + dv w_v^T

The softmax line is its Jacobian diag(p) - p p^T applied to each row without building it:
when one weight is near 1 and the rest near 0 (a saturated softmax), d_scaled is near 0 and
the head stops learning. ``Grads`` keeps every one of these matrices, as ``Trace`` keeps the
forward ones.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from attn_core.attention import Trace
from attn_core.errors import ShapeError, as_matrix


@dataclass(frozen=True, eq=False)
class Grads:
    """Every gradient of one head's backward pass: dL/d(name) for a loss L.

    Attributes
    ----------
    d_output : (T_q, d_v)    the given dL/dZ
    dv : (T_k, d_v)          weights^T d_output
    d_weights : (T_q, T_k)   d_output v^T
    d_scaled : (T_q, T_k)    the softmax backward: weights * (d_weights - rowsum(...)) / tau;
                             0 where the mask forbids (the lesson's dS)
    d_scores : (T_q, T_k)    d_scaled * scale, the gradient of q k^T
    dq : (T_q, d_k)          d_scores k
    dk : (T_k, d_k)          d_scores^T q
    dx : (T, d_model) or None        set when the trace came from ``self_attention``
    dw_q, dw_k : (d_model, d_k) or None    dw_v : (d_model, d_v) or None
    """

    d_output: np.ndarray
    dv: np.ndarray
    d_weights: np.ndarray
    d_scaled: np.ndarray
    d_scores: np.ndarray
    dq: np.ndarray
    dk: np.ndarray
    dx: np.ndarray | None = None
    dw_q: np.ndarray | None = None
    dw_k: np.ndarray | None = None
    dw_v: np.ndarray | None = None


def softmax_backward(weights: np.ndarray, d_weights: np.ndarray) -> np.ndarray:
    """The gradient of a row softmax's input from the gradient of its output.

    d_in = p * (d_p - sum_j p_j d_p_j),   the Jacobian diag(p) - p p^T times d_p, row by row

    weights : (..., T_k) the softmax's output p;  d_weights : (..., T_k).  A weight of exactly
    0 (a masked key) gets a gradient of exactly 0.
    """
    row = (d_weights * weights).sum(axis=-1, keepdims=True)  # (..., T_q, 1)
    return weights * (d_weights - row)  # (..., T_q, T_k)


def attention_backward(trace: Trace, d_output) -> Grads:
    """Backpropagate dL/dZ through the head whose forward pass is `trace`.

    Parameters
    ----------
    trace : Trace
        From ``attention`` or ``self_attention`` (then dx, dw_q, dw_k, dw_v are set too).
    d_output : (T_q, d_v) array_like
        dL/dZ, the shape of ``trace.output`` (leading batch dimensions included).

    Returns
    -------
    Grads
    """
    d_z = as_matrix(d_output, "d_output", ndim=None)
    if d_z.shape != trace.output.shape:
        raise ShapeError.said(
            "d_output must have the shape of the output Z, {output_shape}; got {shape}.",
            output_shape=trace.output.shape,
            shape=d_z.shape,
        )
    a, v, q, k = trace.weights, trace.v, trace.q, trace.k
    dv = a.swapaxes(-1, -2) @ d_z  # (T_k, T_q) x (T_q, d_v) -> (T_k, d_v)
    d_a = d_z @ v.swapaxes(-1, -2)  # (T_q, d_v) x (d_v, T_k) -> (T_q, T_k)
    d_scaled = softmax_backward(a, d_a) / trace.temperature  # (T_q, T_k), 0 where masked
    d_scores = d_scaled * trace.scale  # (T_q, T_k)
    dq = d_scores @ k  # (T_q, T_k) x (T_k, d_k) -> (T_q, d_k)
    dk = d_scores.swapaxes(-1, -2) @ q  # (T_k, T_q) x (T_q, d_k) -> (T_k, d_k)
    grads = Grads(d_z, dv, d_a, d_scaled, d_scores, dq, dk)
    if trace.x is None:
        return grads
    return _projections_backward(trace, grads)


def _projections_backward(t: Trace, g: Grads) -> Grads:
    """q = x w_q, k = x w_k, v = x w_v, backwards; x feeds all three, so its gradients add."""
    x_t = t.x.T  # (d_model, T)
    dw_q, dw_k, dw_v = x_t @ g.dq, x_t @ g.dk, x_t @ g.dv  # (d_model, T) x (T, d) -> (d_model, d)
    dx = g.dq @ t.w_q.T + g.dk @ t.w_k.T + g.dv @ t.w_v.T  # (T, d) x (d, d_model) -> (T, d_model)
    return replace(g, dx=dx, dw_q=dw_q, dw_k=dw_k, dw_v=dw_v)
