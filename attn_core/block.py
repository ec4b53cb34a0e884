"""The transformer block around the attention head, step by step, and two ways to normalise.

One post-layer-norm encoder block (BERT, MiniLM), tokens as rows:

    a   = concat(heads(x)) w_o + b_o          multi-head attention output     (T, d_model)
    r_1 = x + a                               residual connection
    h   = layer_norm(r_1) * gamma_1 + beta_1  each token to mean 0, variance 1, then rescaled
    f   = gelu(h w_1 + b_1) w_2 + b_2         feed-forward network, each token on its own
    r_2 = h + f                               residual connection
    out = layer_norm(r_2) * gamma_2 + beta_2  the next block's input

Layer norm takes its mean and variance along a row (one token, across its features); batch
norm takes them down a column (one feature, across the examples of a batch).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attn_core.attention import attention
from attn_core.errors import AttentionInputError, ShapeError, as_matrix, positive_number
from attn_core.layers import feed_forward, layer_norm


@dataclass(frozen=True, eq=False)
class BlockTrace:
    """Every intermediate of one encoder block; all (T, d_model) except ``weights``.

    Attributes
    ----------
    x : the block's input             weights : (n_heads, T, T) every head's attention weights
    attn : concat(heads) w_o + b_o    res_1 : x + attn
    norm_1 : res_1 normalised (mean 0, variance 1 per token), before gamma_1 and beta_1
    ln_1 : norm_1 * gamma_1 + beta_1  ffn : the feed-forward network applied to ln_1
    res_2 : ln_1 + ffn                norm_2 : res_2 normalised, before gamma_2 and beta_2
    out : norm_2 * gamma_2 + beta_2, the block's output
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


def normalise(x, axis: int, eps: float = 1e-5) -> np.ndarray:
    """(x - mean) / sqrt(var + eps), the statistics taken along `axis` (no gamma, no beta).

    axis = 1 (each row, across its features) is layer norm; axis = 0 (each column, across
    the rows of a batch) is batch norm. The variance divides by n, as both layers do.

    Parameters
    ----------
    x : (n, d)
    eps : float > 0   keeps a constant row or column finite: it becomes 0
    """
    x = as_matrix(x, "x")
    eps = positive_number(eps, "eps")
    if axis not in (0, 1):
        raise AttentionInputError(f"axis must be 0 (batch norm) or 1 (layer norm), got {axis!r}.")
    centred = x - x.mean(axis=axis, keepdims=True)
    return centred / np.sqrt((centred * centred).mean(axis=axis, keepdims=True) + eps)


def spread(a: np.ndarray, axis: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """(mean, standard deviation) along `axis`: per token for axis=1, per feature for axis=0."""
    return a.mean(axis=axis), a.std(axis=axis)


def encoder_block(x, layer, n_heads: int, eps: float) -> BlockTrace:
    """Run one post-layer-norm block on x and keep every intermediate.

    Parameters
    ----------
    x : (T, d_model)    the block's input (for MiniLM: ``run.hidden_states[l]``)
    layer : ``attn_core.minilm_weights.LayerWeights`` (w_qkv, b_qkv, w_o, b_o, ln_1, w_1, b_1,
            w_2, b_2, ln_2) in the ``x @ W`` layout
    n_heads : int       d_model / n_heads = d_k
    eps : float         layer norm's epsilon (1e-12 in BERT)
    """
    x = as_matrix(x, "x")
    t, d_model = x.shape
    if layer.w_qkv.shape[0] != d_model or d_model % n_heads:
        raise ShapeError(f"x has {d_model} features; the layer expects {layer.w_qkv.shape[0]}.")
    qkv = x @ layer.w_qkv + layer.b_qkv  # (T, d_model) x (d_model, 3 d_model) -> (T, 3 d_model)
    q, k, v = qkv.reshape(t, 3, n_heads, -1).transpose(1, 2, 0, 3)  # 3 x (h, T, d_k)
    heads = attention(q, k, v)
    z = heads.output.transpose(1, 0, 2).reshape(t, -1)  # (h, T, d_k) -> (T, h d_k)
    attn = z @ layer.w_o + layer.b_o  # (T, h d_k) x (h d_k, d_model) -> (T, d_model)
    res_1 = x + attn
    norm_1 = _plain_norm(res_1, eps)
    ln_1 = norm_1 * layer.ln_1[0] + layer.ln_1[1]
    ffn = feed_forward(ln_1, layer.w_1, layer.b_1, layer.w_2, layer.b_2)
    res_2 = ln_1 + ffn
    norm_2 = _plain_norm(res_2, eps)
    out = norm_2 * layer.ln_2[0] + layer.ln_2[1]
    return BlockTrace(x, heads.weights, attn, res_1, norm_1, ln_1, ffn, res_2, norm_2, out)


def _plain_norm(a: np.ndarray, eps: float) -> np.ndarray:
    """Layer norm without the learned rescaling: gamma = 1, beta = 0, in a's dtype."""
    d = a.shape[-1]
    return layer_norm(a, np.ones(d, a.dtype), np.zeros(d, a.dtype), eps)
