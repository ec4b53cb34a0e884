"""Data and tables for the labs 40-43: why scale, softmax, similarity, additive attention.

Cached calls into ``attn_core`` and small DataFrames; the figures are in
``attn_ui.labs_a_charts``. No maths here beyond labels (s / τ, 1 − σ(s)).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import streamlit as st

from attn_core import AttentionInputError, similarity, softmax_facts, why_scale
from attn_core.alignment import ScoreCost
from attn_core.text import embed
from attn_ui import labs_a_charts as charts
from attn_ui import views
from attn_ui.views import labels

KEYS = (2, 4, 8, 16, 32, 64)
SWEEP_D = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)


@st.cache_data(max_entries=64, show_spinner=False)
def scale_sample(d: int, n_keys: int, seed: int) -> why_scale.ScaleSample:
    return why_scale.sample_scores(d, n_keys, seed=seed)


@st.cache_data(max_entries=32, show_spinner="Drawing random queries and keys...")
def scale_sweep(n_keys: int, seed: int) -> why_scale.ScaleSweep:
    return why_scale.scale_sweep(SWEEP_D, n_keys, seed=seed)


SATURATION_ROWS = {
    "variance (simulated)": "variance",
    "variance (closed form)": "closed_form",
    "largest weight": "max_weight",
    "entropy (nats)": "entropy",
    "gradient size ‖J‖": "grad_norm",
    "largest |J| entry": "grad_max",
}


def saturation_table(sample: why_scale.ScaleSample) -> pd.DataFrame:
    """The learner's d, measured: one column without and one with the scale."""
    cols = {}
    for name, scaled in (("q·k", False), ("q·k / √d", True)):
        sat = why_scale.saturation(sample, scaled=scaled)
        values = [getattr(sat, field) for field in SATURATION_ROWS.values()]
        se = why_scale.variance_standard_error(
            sample.d, sample.n_queries, sample.n_keys, scaled=scaled
        )
        cols[name] = [*values, se]
    index = [*SATURATION_ROWS, "sampling error of the variance (1 sd)"]
    return pd.DataFrame(cols, index=index)


def saturation_chart(
    sweep: why_scale.ScaleSweep,
    sample: why_scale.ScaleSample,
    field: str,
    *,
    title: str,
    y_title: str,
    log_y=False,
    closed=(),
) -> None:
    """One `Saturation` field against d, unscaled (red) and scaled (blue), the learner's d
    marked; the variance gets error bars of 2 sampling errors."""
    series, marks = [*closed], []
    for name, scaled, colour in (
        ("q·k", False, charts.UNSCALED),
        ("q·k / √d", True, charts.SCALED),
    ):
        error = None
        if field == "variance":
            error = [
                2
                * why_scale.variance_standard_error(
                    int(d), sample.n_queries, sample.n_keys, scaled=scaled
                )
                for d in sweep.d
            ]
        series.append(
            (f"{name}, simulated", sweep.column(field, scaled=scaled), colour, None, error)
        )
        mark = getattr(why_scale.saturation(sample, scaled=scaled), field)
        marks.append((f"{name} at your d", mark, colour))
    fig = charts.sweep_figure(
        sweep.d, series, sample.d, title=title, y_title=y_title, log_y=log_y, marks=marks
    )
    views.chart(fig, f"why_scale_{field}")


def selection_table(scores: np.ndarray, tau: float, soft: np.ndarray, hard: np.ndarray):
    """One row per score: the score, score / tau, its softmax weight and its argmax weight."""
    return pd.DataFrame(
        {"score s": scores, f"s / {tau:g}": scores / tau, "softmax": soft, "argmax": hard},
        index=[f"s{j}" for j in range(len(scores))],
    )


def sigmoid_table(s: float) -> pd.DataFrame:
    """softmax({0, s}) next to sigmoid(s) and 1 - sigmoid(s), to 4 decimals and in full."""
    pair, sig = softmax_facts.softmax_pair(s), float(softmax_facts.sigmoid(s))
    rows = {
        "softmax({0, s}) first weight": pair[0],
        "1 − sigmoid(s)": 1.0 - sig,
        "softmax({0, s}) second weight": pair[1],
        "sigmoid(s)": sig,
    }
    return pd.DataFrame(
        {"rounded": [round(v, 4) for v in rows.values()], "value": list(rows.values())},
        index=list(rows),
    ).rename_axis(f"s = {s:g}")


@st.cache_data(max_entries=128, show_spinner=False)
def embedded(text: str, d: int) -> tuple[tuple[str, ...], np.ndarray]:
    """``attn_core.text.embed`` with pretrained-derived rows. Raises its errors unchanged."""
    return embed(text, d)


def error(where: str, exc: Exception) -> None:
    """A learner-caused error, saying which input it is about."""
    st.error(f"{where}: {exc}", icon=":material/error:")


def embedded_or_stop(where: str, text: str, d: int) -> tuple[tuple[str, ...], np.ndarray]:
    """`embedded`, or an error naming `where` and the end of this page run."""
    try:
        return embedded(text, d)
    except AttentionInputError as exc:
        error(where, exc)
        st.stop()


@st.cache_data(max_entries=16, show_spinner=False)
def catalogue_keys(d: int) -> np.ndarray:
    """(n_videos, d): each catalogue title as the mean of its token rows."""
    return np.stack([similarity.text_vector(v.title, d)[1] for v in similarity.CATALOGUE])


def topic_text(values: np.ndarray) -> str:
    """'travel 70 %, food 30 %': a value row in words."""
    parts = [(v, t) for v, t in zip(values, similarity.TOPICS, strict=True) if v > 0]
    return ", ".join(f"{t} {v:.0%}" for v, t in sorted(parts, reverse=True))


def retrieval_table(r: similarity.RetrievalTrace) -> pd.DataFrame:
    """One row per video: its title (the key), value, score and weight."""
    return pd.DataFrame(
        {
            "key: title": [v.title for v in similarity.CATALOGUE],
            "value: topics": [topic_text(v) for v in r.values],
            "score: cosine": r.scores,
            "weight": r.weights,
            "best match": ["◀ best" if i == r.best else "" for i in range(len(r.scores))],
        }
    )


def dot_cos_table(t: similarity.SimilarityTrace, tokens: Sequence[str], i: int, j: int):
    """Two tokens' dot product taken apart: dot = |x_i| |x_j| cos."""
    names = labels(tokens)
    rows = {
        f"|x| of {names[i]}": t.norms[i],
        f"|x| of {names[j]}": t.norms[j],
        "cosine": t.cosines[i, j],
        "|x_i| |x_j| cosine": t.norms[i] * t.norms[j] * t.cosines[i, j],
        "dot product x_i · x_j": t.dots[i, j],
    }
    return pd.DataFrame({"value": list(rows.values())}, index=list(rows))


def cost_table(c: ScoreCost, t_t: int, t_s: int, d: int, d_a: int) -> pd.DataFrame:
    """Multiply-adds, tanh evaluations and stored numbers of both scores, as formulas and
    as numbers for the current sizes."""
    return pd.DataFrame(
        {
            "multiply-adds": [c.dot, c.additive, c.additive_naive],
            "formula": ["T_t·T_s·d", "d_a·(T_t·d + T_s·d + T_t·T_s)", "T_t·T_s·d_a·(2d + 1)"],
            "tanh": [0, c.tanh, c.tanh],
            "numbers kept per score grid": [c.stored_dot, c.stored_additive, c.stored_additive],
        },
        index=[
            "dot product s·h (one matmul)",
            "additive, W₁s and W₂h computed once",
            "additive, recomputed for every pair",
        ],
    ).rename_axis(f"T_t = {t_t}, T_s = {t_s}, d = {d}, d_a = {d_a}")


def cost_sentence(c: ScoreCost) -> str:
    """The cost table in one sentence (numbers only: no text from the learner)."""
    return (
        f"For these sizes the additive score needs **{c.additive / c.dot:.2g}×** the "
        f"multiply-adds of the dot product, plus **{c.tanh:,}** tanh evaluations, and keeps "
        f"**{c.stored_additive:,}** hidden values for training instead of **{c.stored_dot:,}** "
        "scores. The dot product is one matrix product, the operation GPUs and BLAS libraries "
        "are built to run fastest."
    )
