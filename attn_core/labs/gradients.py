"""The gradients lab: a loss on one output row, the gradient of every matrix, one step.

The loss asks token i's output to move toward a target row, here the value of another
token j (so the head should learn to look at j):

    L = 1/2 |z_i - target|^2,     dL/dZ = z_i - target in row i, 0 elsewhere

``attention_backward`` turns dL/dZ into dL/dW_Q, dL/dW_K, dL/dW_V; one step of gradient
descent W <- W - lr dL/dW lowers L for a small enough lr. A real (BERT) head adds a bias to
each projection, q = x w_q + b_q: dW_Q = x^T dQ all the same, and the step holds the biases.
``saturation`` measures the softmax's gradient on random scores with and without the
1/sqrt(d_k): unscaled, large scores saturate the softmax and dS vanishes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from attn_core.attention import Trace, attention, self_attention
from attn_core.backward import Grads, attention_backward
from attn_core.errors import (
    AttentionInputError,
    ShapeError,
    as_matrix,
    positive_number,
    whole_number,
)

MAX_LR = 10.0
MAX_D = 1024


def _index(value, name: str, n: int) -> int:
    if not 0 <= whole_number(value, name) < n:
        raise AttentionInputError.said(
            "{name} must be a token position from 0 to {last}, got {value}.",
            name=name,
            last=n - 1,
            value=repr(value),
        )
    return int(value)


def target_loss(trace: Trace, row: int, target: np.ndarray) -> tuple[float, np.ndarray]:
    """L = 1/2 |z_row - target|^2 and dL/dZ (T, d_v), zero outside row `row`."""
    row = _index(row, "row", trace.output.shape[0])
    d_z = np.zeros_like(trace.output)
    d_z[row] = trace.output[row] - target  # (d_v,)
    return float(0.5 * (d_z[row] ** 2).sum()), d_z


@dataclass(frozen=True, eq=False)
class GradientStep:
    """One gradient step on L = 1/2 |z_row - v_toward|^2 (the target is fixed at the start).

    before, after : Trace   the head with the old and the new weights
    grads : Grads           the backward pass at the old weights
    target : (d_v,)         v_toward before the step
    loss, loss_after : float
    lr : float   row, toward : int
    """

    before: Trace
    grads: Grads
    after: Trace
    target: np.ndarray
    loss: float
    loss_after: float
    lr: float
    row: int
    toward: int


def gradient_step(
    x, w_q, w_k, w_v, *, row: int, toward: int, lr: float, mask=None, bias=None
) -> GradientStep:
    """Make token `row`'s output closer to token `toward`'s value, by one step of size `lr`.

    Parameters
    ----------
    x : (T, d_model)    w_q, w_k : (d_model, d_k)    w_v : (d_model, d_v)
    row, toward : token positions 0 .. T - 1     lr : 0 < lr <= MAX_LR
    mask : (T, T) bool, optional
    bias : (b_q, b_k, b_v), each (d_k,) or (d_v,), optional
        A real head's projection biases, q = x w_q + b_q (likewise k, v); held fixed.

    Returns
    -------
    GradientStep
    """
    lr = positive_number(lr, "the learning rate")
    if lr > MAX_LR:
        raise AttentionInputError.said(
            "Use a learning rate of at most {max_lr}, got {lr}.", max_lr=f"{MAX_LR:g}", lr=f"{lr:g}"
        )
    before = forward(x, w_q, w_k, w_v, bias, mask=mask)
    t = before.output.shape[0]
    row, toward = _index(row, "row", t), _index(toward, "toward", t)
    target = before.v[toward].copy()  # fixed: the loss moves z toward it, not it toward z
    loss, d_z = target_loss(before, row, target)
    g = attention_backward(before, d_z)
    after = forward(
        x, w_q - lr * g.dw_q, w_k - lr * g.dw_k, w_v - lr * g.dw_v, bias, mask=mask
    )  # W <- W - lr dL/dW
    loss_after = float(0.5 * ((after.output[row] - target) ** 2).sum())
    return GradientStep(before, g, after, target, loss, loss_after, lr, row, toward)


def forward(x, w_q, w_k, w_v, bias=None, *, mask=None) -> Trace:
    """The head's forward pass: ``self_attention``, with a real head's biases if given:

    q = x w_q + b_q,  k = x w_k + b_k,  v = x w_v + b_v

    bias : (b_q, b_k, b_v) or None. The trace records x and the W's, so
    ``attention_backward`` gives dW_Q = x^T dQ: a bias moves q but does not enter that formula.
    """
    if bias is None:
        return self_attention(x, w_q, w_k, w_v, mask=mask)
    x = as_matrix(x, "x")
    w_q, w_k, w_v = (as_matrix(w, f"w_{n}") for w, n in zip((w_q, w_k, w_v), "qkv", strict=True))
    q, k, v = (_project(x, w, b, n) for w, b, n in zip((w_q, w_k, w_v), bias, "qkv", strict=True))
    return replace(attention(q, k, v, mask=mask), x=x, w_q=w_q, w_k=w_k, w_v=w_v)


def _project(x: np.ndarray, w: np.ndarray, b, name: str) -> np.ndarray:
    """x w + b: (T, d_model) x (d_model, d) + (d,) -> (T, d)."""
    b = as_matrix(b, f"b_{name}", ndim=1)
    if w.shape[0] != x.shape[1] or b.shape != (w.shape[1],):
        raise ShapeError.said(
            "w_{name} must be (d_model, d) with d_model = {d_model}, and b_{name} (d,); "
            "got {w_shape} and {b_shape}.",
            name=name,
            d_model=x.shape[1],
            w_shape=w.shape,
            b_shape=b.shape,
        )
    return x @ w + b


@dataclass(frozen=True)
class Saturation:
    """The softmax's gradient on the same random scores, scaled by 1/sqrt(d) and not.

    d : int, the length of q and k;  row_ds_* : the median over rows of each row's largest
    |dS| (a typical row; a few rows with two near-equal top scores never saturate);
    mean_ds_* : the mean |dS|;  max_weight_* : the mean over rows of the largest weight.
    """

    d: int
    row_ds_scaled: float
    row_ds_unscaled: float
    mean_ds_scaled: float
    mean_ds_unscaled: float
    max_weight_scaled: float
    max_weight_unscaled: float


def saturation(d: int, *, n_queries: int = 64, n_keys: int = 8, seed: int = 0) -> Saturation:
    """dS = A * (dA - rowsum(dA * A)) on random N(0, 1) q, k of length d, with and without the
    scale, for one random upstream gradient dL/dZ."""
    whole_number(d, "d", 1, MAX_D)
    rng = np.random.default_rng(seed)
    q, k = rng.normal(size=(n_queries, d)), rng.normal(size=(n_keys, d))
    v, d_z = rng.normal(size=(n_keys, 4)), rng.normal(size=(n_queries, 4))
    out = {}
    for name, scale in (("scaled", 1 / math.sqrt(d)), ("unscaled", 1.0)):
        t = attention(q, k, v, scale=scale)
        ds = np.abs(attention_backward(t, d_z).d_scaled)  # (n_queries, n_keys)
        out[name] = (
            float(np.median(ds.max(axis=-1))),
            float(ds.mean()),
            float(t.weights.max(axis=-1).mean()),
        )
    (a, b, c), (e, f, g) = out["scaled"], out["unscaled"]
    return Saturation(int(d), a, e, b, f, c, g)
