"""Labs 44-47 (cross, local, cost, block): the core's results, cached and bounded, and tables.

No maths here: every number comes from ``attn_core.cross``, ``local``, ``cost`` and ``block``.
Figures live in ``attn_ui.labs_b_charts``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

import attn_core
from attn_core import AttentionInputError, Trace, block, cost
from attn_core.cross import cross_attention
from attn_core.text import embed
from attn_ui import compute
from attn_ui.figures.matrix import labels

CROSS_D_MODELS = (2, 4, 8, 16, 32, 64, 128, 384)
COST_MAX_TS = (256, 512, 1024, 2048)
COST_DS = (16, 32, 64, 128)
D_SWEEP = (16, 32, 64, 128, 256, 512)  # at T = D_SWEEP_T
D_SWEEP_T = 512
FIT_FROM_T = 256  # below, fixed per-call overheads hide the T x T part
FIT_FROM_D = 128  # below, the softmax (no d in it) hides the two matmuls
STAGE_NAMES = {
    "x": "x (input)",
    "attn": "attention",
    "res_1": "x + attention",
    "norm_1": "LN 1 (no γ, β)",
    "ln_1": "LN 1 = h",
    "ffn": "FFN(h)",
    "res_2": "h + FFN(h)",
    "norm_2": "LN 2 (no γ, β)",
    "out": "LN 2 = output",
}


@dataclass(frozen=True, eq=False)
class CrossRun:
    tokens_q: tuple[str, ...]
    tokens_k: tuple[str, ...]
    self_trace: Trace  # (T_q, T_q): the first sentence attends to itself
    cross: Trace  # (T_q, T_k): the first sentence's queries, the second's keys and values


@st.cache_data(max_entries=64, show_spinner=False)
def cross_run(sentence: str, memory: str, weights: str, d_model: int, d_k: int, seed: int):
    """Self- and cross-attention with one set of weights (similarity: W = I)."""
    tokens_q, x = embed(sentence, d_model)
    try:
        tokens_k, y = embed(memory, d_model)
    except AttentionInputError as exc:
        raise AttentionInputError(f"Second sentence: {exc}") from exc
    if weights == "similarity":
        w_q = w_k = w_v = np.eye(d_model)  # q = x, k = v = memory: plain dot products
    else:
        w = attn_core.lesson_weights(d_model, d_k, seed=seed)
        w_q, w_k, w_v = w.w_q, w.w_k, w.w_v
    own = attn_core.self_attention(x, w_q, w_k, w_v)
    return CrossRun(tokens_q, tokens_k, own, cross_attention(x, y, w_q, w_k, w_v))


def shapes_table(run: CrossRun) -> pd.DataFrame:
    """Each matrix's shape under self- and cross-attention."""
    rows = {}
    for name in ("q", "k", "v", "weights", "output"):
        shapes = [getattr(t, name).shape for t in (run.self_trace, run.cross)]
        rows[name] = [f"{a} × {b}" for a, b in shapes]
    index = ["Q", "K", "V", "A (weights)", "Z = A V"]
    return pd.DataFrame(rows.values(), index=index, columns=["self", "cross"])


def strongest_table(weights: np.ndarray, rows: Sequence[str], cols: Sequence[str]) -> pd.DataFrame:
    """Per query row: the key with the largest weight, and that weight."""
    best = weights.argmax(axis=1)
    return pd.DataFrame(
        {"strongest key": [labels(cols)[j] for j in best], "weight": weights.max(axis=1)},
        index=labels(rows),
    )


@st.cache_data(max_entries=8, show_spinner="Timing attention and an RNN on this machine...")
def cost_curves(
    max_t: int, d: int, repeats: int, *, press: int = 0
) -> tuple[cost.CostCurve, cost.CostCurve]:
    """Measured over T = 16, 32, ..., max_t at d, with the RNN; over d (D_SWEEP) at T = 512.

    press : only part of the cache key: each press of the button measures afresh.
    """
    ts = [2**n for n in range(4, max_t.bit_length())]  # 16, 32, ..., max_t (a power of 2)
    over_t = cost.measure(ts, [d] * len(ts), repeats=repeats)
    over_d = cost.measure([D_SWEEP_T] * len(D_SWEEP), D_SWEEP, repeats=repeats, rnn=False)
    return over_t, over_d


def fit_from(x: np.ndarray, y: np.ndarray, start: int) -> cost.Fit:
    """The log-log slope over the points with x >= start (all points if fewer than 2)."""
    keep = x >= start
    return cost.fit_slope(x[keep], y[keep]) if keep.sum() >= 2 else cost.fit_slope(x, y)


def cost_table(c: cost.CostCurve) -> pd.DataFrame:
    """One row per measured size: times in ms, memory in KiB."""
    cols = {
        "T": c.t,
        "d": c.d,
        "attention (ms)": c.seconds * 1e3,
        "weights (KiB)": c.weights_bytes / 1024,
        "all T×T arrays (KiB)": c.trace_bytes / 1024,
    }
    if c.rnn_seconds is not None:
        cols["RNN, T steps (ms)"] = c.rnn_seconds * 1e3
    return pd.DataFrame(cols)


@dataclass(frozen=True, eq=False)
class BlockRun:
    tokens: tuple[str, ...]
    trace: block.BlockTrace
    model_out: np.ndarray  # the model's own hidden state after this layer


@st.cache_data(max_entries=32, show_spinner="Running MiniLM on your sentence...")
def block_run(sentence: str, layer: int) -> BlockRun:
    """MiniLM on the sentence; layer `layer` rebuilt step by step from its input and weights."""
    model = compute.minilm()
    if isinstance(layer, bool) or layer not in range(model.n_layers):
        raise AttentionInputError(f"layer must be from 0 to {model.n_layers - 1}.")
    run = model.run(sentence)
    p = model.layers[layer]
    trace = block.encoder_block(run.hidden_states[layer], p, model.n_heads, model.eps)
    out = run.hidden_states[layer + 1]
    return BlockRun(run.tokens, trace, out)


def stage_spread(trace: block.BlockTrace, tokens: Sequence[str], *, std: bool) -> pd.DataFrame:
    """Each token's mean (or standard deviation) across its features, at every stage."""
    cols = {STAGE_NAMES[s]: block.spread(getattr(trace, s))[int(std)] for s in block.STAGES}
    return pd.DataFrame(cols, index=labels(tokens))


def direction_table(a: np.ndarray, axis: int, names: Sequence[str]) -> pd.DataFrame:
    """Mean and variance along `axis` (1: per row, 0: per column), to 6 decimals."""
    mean, sd = block.spread(a, axis)
    df = pd.DataFrame({"mean": mean, "variance": sd**2}, index=list(names))
    return df.round(6) + 0.0  # no -0.0
