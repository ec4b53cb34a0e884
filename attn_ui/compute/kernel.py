"""The "Inside the kernel" pages' computation, cached: gradients, saturation, training runs.

No maths here: it calls attn_core. Every cache is bounded.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

from attn_core.by_hand.exercises import Exercise, make_exercise
from attn_core.labs import gradients
from attn_core.training import TrainingRun, train_head
from attn_ui.compute.lessons import lesson_run, real_head
from attn_ui.settings import LessonSettings

SATURATION_D = (4, 16, 64, 256, 1024)


@dataclass(frozen=True, eq=False)
class GradientHead:
    """What the Gradients page trains: the lesson's head, the real one included.

    tokens : T labels   x : (T, d_model)   w_q, w_k : (d_model, d_k)   w_v : (d_model, d_v)
    bias : MiniLM's (b_q, b_k, b_v), each (d_k,), or None (the random and similarity heads)
    """

    tokens: tuple[str, ...]
    x: np.ndarray
    w_q: np.ndarray
    w_k: np.ndarray
    w_v: np.ndarray
    bias: tuple[np.ndarray, np.ndarray, np.ndarray] | None


def gradient_head(s: LessonSettings) -> GradientHead:
    """The head the settings choose, with its x, W_Q, W_K, W_V (and MiniLM's biases: its
    projections are q = x W_Q + b_Q). Raises the lessons' errors (an empty sentence, too
    many tokens) unchanged."""
    run = lesson_run(s)
    if s.weights == "pretrained":
        real, bias = real_head(s.sentence, s.layer, s.head)  # the trace records the W's
        return GradientHead(run.tokens, real.x, real.w_q, real.w_k, real.w_v, bias)
    t = run.trace
    return GradientHead(run.tokens, t.x, t.w_q, t.w_k, t.w_v, None)


@st.cache_data(max_entries=32, show_spinner=False)
def saturation_table(seed: int) -> list[gradients.Saturation]:
    return [gradients.saturation(d, seed=seed) for d in SATURATION_D]


@st.cache_data(max_entries=32, show_spinner=False)
def backward_exercise(seed: int) -> Exercise:
    """The by-hand backward sheet for `seed` (read-only): the worksheet's "backward" variant."""
    return make_exercise(seed, variant="backward")


@st.cache_resource(max_entries=24, show_spinner=False)
def training_run(task: str, seed: int, steps: int, lr: float, positions: bool) -> TrainingRun:
    """``train_head`` per (task, seed, settings), kept per server and shared: its arrays are
    read-only, so no session can change another's run."""
    run = train_head(task, seed=seed, steps=steps, lr=lr, positions=positions)
    for name in ("losses", "right_weight", "w_q", "w_k", "sample", "sample_weights"):
        getattr(run, name).flags.writeable = False
    return run


@st.cache_data(max_entries=64, show_spinner=False)
def evaluation(task: str, seed: int, steps: int, lr: float, positions: bool) -> float:
    return training_run(task, seed, steps, lr, positions).evaluate(seed=1000 + seed)
