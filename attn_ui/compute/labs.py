"""The labs' computation: samples, sweeps, runs and timings from the core, cached and bounded.

No maths here: every number comes from ``attn_core`` (why_scale, similarity, cross, cost,
block). Each cache has a bound, so a class of learners cannot grow the server's memory.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

import attn_core
from attn_core import AttentionInputError, Trace
from attn_core.labs import cost, scaling, similarity
from attn_core.labs.cross import cross_attention
from attn_core.pretrained import bert_layer
from attn_core.text import embed
from attn_lessons import i18n
from attn_lessons.i18n import N_, _
from attn_ui.compute.model import Shown, minilm, minilm_run

SWEEP_D = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)  # why √d: the d of the curves
D_SWEEP = (16, 32, 64, 128, 256, 512)  # cost: time against d, at T = D_SWEEP_T
D_SWEEP_T = 512
FIT_FROM_T = 256  # below, fixed per-call overheads hide the T x T part
FIT_FROM_D = 128  # below, the softmax (no d in it) hides the two matmuls


@st.cache_data(max_entries=64, show_spinner=False)
def scale_sample(d: int, n_keys: int, seed: int) -> scaling.ScaleSample:
    return scaling.sample_scores(d, n_keys, seed=seed)


@st.cache_data(max_entries=32, show_spinner=Shown(N_("Drawing random queries and keys...")))
def scale_sweep(n_keys: int, seed: int) -> scaling.ScaleSweep:
    return scaling.scale_sweep(SWEEP_D, n_keys, seed=seed)


@st.cache_data(max_entries=128, show_spinner=False)
def embedded(text: str, d: int) -> tuple[tuple[str, ...], np.ndarray]:
    """``attn_core.text.embed`` with pretrained-derived rows. Raises its errors unchanged."""
    return embed(text, d)


@st.cache_data(max_entries=16, show_spinner=False)
def catalogue_keys(d: int) -> np.ndarray:
    """(n_videos, d): each catalogue title as the mean of its token rows."""
    return np.stack([similarity.text_vector(v.title, d)[1] for v in similarity.CATALOGUE])


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
        raise AttentionInputError(
            _("Second sentence: {error}").format(error=i18n.words_of(exc))
        ) from exc
    if weights == "similarity":
        w_q = w_k = w_v = np.eye(d_model)  # q = x, k = v = memory: plain dot products
    else:
        w = attn_core.lesson_weights(d_model, d_k, seed=seed)
        w_q, w_k, w_v = w.w_q, w.w_k, w.w_v
    own = attn_core.self_attention(x, w_q, w_k, w_v)
    return CrossRun(tokens_q, tokens_k, own, cross_attention(x, y, w_q, w_k, w_v))


@st.cache_data(
    max_entries=8, show_spinner=Shown(N_("Timing attention and an RNN on this machine..."))
)
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


@dataclass(frozen=True, eq=False)
class BlockRun:
    tokens: tuple[str, ...]
    trace: bert_layer.LayerTrace
    model_out: np.ndarray  # the model's own hidden state after this layer


@st.cache_data(max_entries=32, show_spinner=Shown(N_("Running MiniLM on your sentence...")))
def block_run(sentence: str, layer: int) -> BlockRun:
    """MiniLM on the sentence; layer `layer` rebuilt step by step from its input and weights."""
    model = minilm()
    if isinstance(layer, bool) or layer not in range(model.n_layers):
        raise AttentionInputError(
            _("layer must be from 0 to {last}.").format(last=model.n_layers - 1)
        )
    run = minilm_run(sentence, 128, layer + 1)  # this layer's output is the last one needed
    p = model.layers[layer]
    trace = bert_layer.encoder_layer(run.hidden_states[layer], p, model.n_heads, model.eps)
    out = run.hidden_states[layer + 1]
    return BlockRun(run.tokens, trace, out)
