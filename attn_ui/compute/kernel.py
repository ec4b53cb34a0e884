"""The "Inside the kernel" pages' computation, cached: gradients, saturation, training runs.

No maths here: it calls attn_core. Every cache is bounded.
"""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from attn_core.by_hand.exercises import Exercise, make_exercise
from attn_core.labs import gradients
from attn_core.training import TrainingRun, train_head
from attn_ui.compute.lessons import LessonRun, lesson_run
from attn_ui.controls import LessonSettings

SATURATION_D = (4, 16, 64, 256, 1024)


def gradient_run(s: LessonSettings) -> LessonRun:
    """The lesson's head with its x and weights: the pretrained head becomes the random one
    (its x and W_Q are MiniLM's 384 features wide; the page says so)."""
    return lesson_run(replace(s, weights="random") if s.weights == "pretrained" else s)


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
