"""The step pages' computation: the lesson settings -> the core's traces, cached and shared.

No maths here: it calls attn_core.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, is_dataclass
from functools import lru_cache

import numpy as np
import streamlit as st

import attn_core
from attn_core import MultiHeadTrace, Trace
from attn_core.text import MAX_TOKENS, embed
from attn_lessons.i18n import _
from attn_ui.compute.model import minilm, minilm_run
from attn_ui.settings import LessonSettings


@dataclass(frozen=True, eq=False)
class LessonRun:
    """tokens : T labels   x : (T, d_model)   trace : the single head   multi : all heads"""

    tokens: tuple[str, ...]
    x: np.ndarray
    trace: Trace
    multi: MultiHeadTrace | None


def lesson_mask(s: LessonSettings, t: int) -> np.ndarray | None:
    """The boolean (T, T) mask the settings ask for, or None."""
    if s.mask == "causal":
        return attn_core.causal_mask(t)
    if s.mask == "padding":
        return attn_core.padding_mask(max(t - s.n_pad, 0), t)
    if s.mask == "window":
        return attn_core.window_mask(t, s.window)
    return None


def _toy_weights(s: LessonSettings, n_heads: int) -> attn_core.Weights:
    if s.weights == "similarity":
        eye = np.eye(s.d_model)  # Q = K = V = X: scores are plain similarities
        return attn_core.Weights(eye, eye, eye, eye)
    return attn_core.lesson_weights(s.d_model, s.d_k, n_heads=n_heads, seed=s.seed)


def _pretrained_run(s: LessonSettings) -> LessonRun:
    model = minilm()
    # + [CLS] and [SEP]; the layers below the head's only: its input is all it reads
    run = minilm_run(s.sentence, MAX_TOKENS + 2, s.layer)
    if run.truncated:
        raise attn_core.AttentionInputError(
            _(
                "Your sentence has {n} tokens; the lessons show at most {most}. Shorten it "
                "(the Model explorer page takes up to 126)."
            ).format(n=run.n_tokens_original - 2, most=MAX_TOKENS)
        )
    real = model.head_trace(run, s.layer, s.head)
    t = attn_core.attention(
        real.q, real.k, real.v, mask=lesson_mask(s, len(run.tokens)), temperature=s.temperature
    )
    return LessonRun(tuple(run.tokens), real.x, t, None)


@lru_cache(maxsize=256)
def lesson_run(s: LessonSettings, multi: bool = False) -> LessonRun:
    """Everything a step page shows for these settings. Raises the core's errors unchanged.

    Kept per process for the 256 latest settings, and shared: its arrays are read-only.
    The settings are a frozen dataclass, so the key costs a tuple hash. st.cache_data
    hashed them with its own hasher and pickled the result: about 2 ms per new sentence
    in a cProfile of the overview's rerun, for a computation of 0.4 ms (32 tokens)."""
    return _read_only(_lesson_run(s, multi))


def _read_only(obj):
    """`obj` with every array inside it (dataclasses, tuples) made read-only."""
    if isinstance(obj, np.ndarray):
        obj.flags.writeable = False
    elif isinstance(obj, tuple | list):
        for item in obj:
            _read_only(item)
    elif is_dataclass(obj):
        for f in fields(obj):
            _read_only(getattr(obj, f.name))
    return obj


def _lesson_run(s: LessonSettings, multi: bool) -> LessonRun:
    if s.weights == "pretrained":
        return _pretrained_run(s)
    tokens, x = embed(s.sentence, s.d_model, source="pretrained")
    mask = lesson_mask(s, len(tokens))
    n_heads = s.n_heads if multi else 1
    w = _toy_weights(s, n_heads)
    if multi and s.weights == "similarity" and s.d_model % n_heads:
        raise attn_core.ShapeError(
            _(
                "With similarity weights each head takes d_model / heads features: "
                "{d_model} features do not split into {heads} heads. Pick another number."
            ).format(d_model=s.d_model, heads=n_heads)
        )
    d_k = w.w_q.shape[1] // n_heads
    trace = attn_core.self_attention(  # head 0 alone: what the single-head pages show
        x, w.w_q[:, :d_k], w.w_k[:, :d_k], w.w_v[:, :d_k], mask=mask, temperature=s.temperature
    )
    if not multi:
        return LessonRun(tuple(tokens), x, trace, None)
    mh = attn_core.multi_head_attention(x, w.w_q, w.w_k, w.w_v, w.w_o, n_heads, mask=mask)
    return LessonRun(tuple(tokens), x, trace, mh)


@st.cache_data(max_entries=64, show_spinner=False)
def real_head(sentence: str, layer: int, head: int) -> tuple[Trace, tuple[np.ndarray, ...]]:
    """MiniLM's head with its W_Q, W_K, W_V recorded, and its biases (b_Q, b_K, b_V)."""
    model = minilm()
    run = minilm_run(sentence, 128, layer)  # the layers below the head's only
    return model.head_trace(run, layer, head), model.head_bias(layer, head)


def with_d_v(x: np.ndarray, s: LessonSettings, d_v: int) -> Trace:
    """The lesson's random head with values d_v wide; W_Q and W_K are the usual ones."""
    w = attn_core.lesson_weights(s.d_model, s.d_k, d_v, seed=s.seed)
    return attn_core.self_attention(x, w.w_q, w.w_k, w.w_v, temperature=s.temperature)


def preset_mask(s: LessonSettings, t: int) -> np.ndarray:
    """The sidebar's mask as a (T, T) boolean grid; no mask is a grid of True."""
    mask = lesson_mask(s, t)
    return attn_core.window_mask(t, t) if mask is None else mask  # width T: global


def masked_trace(t: Trace, mask: np.ndarray | None, temperature: float) -> Trace:
    """The same q, k, v and scale as `t`, attended under another mask."""
    return attn_core.attention(t.q, t.k, t.v, mask=mask, scale=t.scale, temperature=temperature)
