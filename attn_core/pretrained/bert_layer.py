"""One BERT encoder layer, step by step: the attention heads and the parts around them.

A post-layer-norm encoder layer (BERT, MiniLM), tokens as rows; ``x`` is (T, d_model):

    heads = attention(x w_q + b_q, x w_k + b_k, x w_v + b_v)   n_heads heads of d_k
    a     = concat(heads) w_o + b_o           multi-head attention output     (T, d_model)
    r_1   = x + a                             residual connection
    h     = layer_norm(r_1) * gamma_1 + beta_1    each token to mean 0, variance 1, rescaled
    f     = gelu(h w_1 + b_1) w_2 + b_2       feed-forward network, each token on its own
    r_2   = h + f                             residual connection
    out   = layer_norm(r_2) * gamma_2 + beta_2    the next layer's input

``encoder_layer`` is the one implementation: MiniLM's forward pass runs it six times, and
the Transformer-block lab shows its trace. Every function keeps the dtype it is given (the
model runs in float32). The weights are a ``LayerWeights`` (``minilm_files``), in the
``x @ W`` layout (d_in, d_out).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from attn_core import fast
from attn_core.attention import Trace, attention
from attn_core.errors import ShapeError, as_matrix
from attn_core.multihead import merge_heads, split_heads
from attn_core.pretrained.minilm_files import LayerWeights

_erf = np.vectorize(math.erf, otypes=[np.float64])  # NumPy has no erf: math's, entry by entry


def standardise(x: np.ndarray, eps: float) -> np.ndarray:
    """Each row (one token) to mean 0 and variance 1 across its features.

    (x - mean(x)) / sqrt(var(x) + eps), the variance divided by d (biased), as PyTorch.

    Parameters
    ----------
    x : (T, d)
    eps : float      keeps the division finite (1e-12 in BERT)

    Returns
    -------
    (T, d), the dtype of `x`.
    """
    y = x - x.mean(axis=-1, keepdims=True)  # (T, d) - (T, 1)
    var = (y * y).mean(axis=-1, keepdims=True)  # (T, 1)
    return y * (1.0 / np.sqrt(var + eps))  # (T, d) * (T, 1)


def layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float) -> np.ndarray:
    """Layer norm: each token standardised across its features, then rescaled and shifted.

    y = (x - mean(x)) / sqrt(var(x) + eps) * gamma + beta

    Unlike batch norm, the statistics are per token, never across a batch.

    Parameters
    ----------
    x : (T, d)
    gamma, beta : (d,)   learned scale and shift
    eps : float          keeps the division finite (1e-12 in BERT)

    Returns
    -------
    (T, d)
    """
    return standardise(x, eps) * gamma + beta


def gelu(x) -> np.ndarray:
    """GELU(x) = x Phi(x) = x (1 + erf(x / sqrt 2)) / 2, the exact (erf) form BERT uses.

    Phi is the standard normal CDF: a smooth ReLU, near 0 for x << 0 and near x for x >> 0.
    This is the plain form, in float64, returned in x's dtype. The model's forward pass uses
    ``attn_core.fast.gelu``, the same function within float32 rounding, 25 times faster.

    Parameters
    ----------
    x : (T, d_ff) array_like

    Returns
    -------
    (T, d_ff), the dtype of `x` (float64 for anything that is not a float).
    """
    x = np.asarray(x)
    y = x * (1.0 + _erf(x / math.sqrt(2.0))) / 2.0  # (T, d_ff), float64
    return y.astype(x.dtype if x.dtype.kind == "f" else np.float64)


def feed_forward(x, w_1, b_1, w_2, b_2) -> np.ndarray:
    """Position-wise feed-forward network: every token row on its own.

    FFN(x) = GELU(x w_1 + b_1) w_2 + b_2

    Parameters
    ----------
    x : (T, d_model)
    w_1 : (d_model, d_ff)    b_1 : (d_ff,)
    w_2 : (d_ff, d_model)    b_2 : (d_model,)

    Returns
    -------
    (T, d_model)
    """
    h = x @ w_1 + b_1  # (T, d_model) x (d_model, d_ff) -> (T, d_ff)
    return fast.gelu(h) @ w_2 + b_2  # (T, d_ff) x (d_ff, d_model) -> (T, d_model)


def bert_attention(x: np.ndarray, layer: LayerWeights, n_heads: int) -> Trace:
    """Every head of one layer in one batched ``attention`` call: a Trace of (h, T, ...) arrays.

    q = x w_q + b_q (likewise k, v), each split into n_heads heads of d_k = d_model / n_heads
    columns; head h is ``attention(q[h], k[h], v[h])``.

    Parameters
    ----------
    x : (T, d_model)
    layer : LayerWeights    ``w_qkv`` (d_model, 3 d_model) holds [w_q | w_k | w_v]
    n_heads : int

    Returns
    -------
    Trace with q, k, v (n_heads, T, d_k) and weights (n_heads, T, T).
    """
    qkv = x @ layer.w_qkv + layer.b_qkv  # (T, d_model) x (d_model, 3 d_model) -> (T, 3 d_model)
    q, k, v = (split_heads(a, n_heads) for a in np.split(qkv, 3, axis=1))  # 3 x (h, T, d_k)
    return attention(q, k, v)


@dataclass(frozen=True, eq=False)
class LayerTrace:
    """Every intermediate of one encoder layer; all (T, d_model) except ``weights``.

    Attributes
    ----------
    x : the layer's input             weights : (n_heads, T, T) every head's attention weights
    attn : concat(heads) w_o + b_o    res_1 : x + attn
    norm_1 : res_1 standardised (mean 0, variance 1 per token), before gamma_1 and beta_1
    ln_1 : norm_1 * gamma_1 + beta_1  ffn : the feed-forward network applied to ln_1
    res_2 : ln_1 + ffn                norm_2 : res_2 standardised, before gamma_2 and beta_2
    out : norm_2 * gamma_2 + beta_2, the layer's output
    """

    x: np.ndarray
    weights: np.ndarray
    attn: np.ndarray
    res_1: np.ndarray
    norm_1: np.ndarray
    ln_1: np.ndarray
    ffn: np.ndarray
    res_2: np.ndarray
    norm_2: np.ndarray
    out: np.ndarray


STAGES = ("x", "attn", "res_1", "norm_1", "ln_1", "ffn", "res_2", "norm_2", "out")


def encoder_layer(x, layer: LayerWeights, n_heads: int, eps: float) -> LayerTrace:
    """Run one post-layer-norm encoder layer on x and keep every intermediate.

    Parameters
    ----------
    x : (T, d_model)    the layer's input (for MiniLM: ``run.hidden_states[l]``)
    layer : LayerWeights (w_qkv, b_qkv, w_o, b_o, ln_1, w_1, b_1, w_2, b_2, ln_2)
    n_heads : int       d_model / n_heads = d_k
    eps : float         layer norm's epsilon (1e-12 in BERT)

    Returns
    -------
    LayerTrace; ``out`` is the next layer's input.
    """
    x = as_matrix(x, "x")
    d_model = x.shape[1]
    if layer.w_qkv.shape[0] != d_model or d_model % n_heads:
        raise ShapeError.said(
            "x has {d_model} features; the layer expects {expected}.",
            d_model=d_model,
            expected=layer.w_qkv.shape[0],
        )
    heads = bert_attention(x, layer, n_heads)
    z = merge_heads(heads.output)  # (h, T, d_k) -> (T, h d_k)
    attn = z @ layer.w_o + layer.b_o  # (T, h d_k) x (h d_k, d_model) -> (T, d_model)
    res_1 = x + attn
    norm_1 = standardise(res_1, eps)
    ln_1 = norm_1 * layer.ln_1[0] + layer.ln_1[1]  # gamma_1, beta_1
    ffn = feed_forward(ln_1, layer.w_1, layer.b_1, layer.w_2, layer.b_2)
    res_2 = ln_1 + ffn
    norm_2 = standardise(res_2, eps)
    out = norm_2 * layer.ln_2[0] + layer.ln_2[1]  # gamma_2, beta_2
    return LayerTrace(x, heads.weights, attn, res_1, norm_1, ln_1, ffn, res_2, norm_2, out)
