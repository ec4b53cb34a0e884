"""Tables of the labs: measured saturation, soft against hard selection, sigmoid, search
results, the cost of a score, timings, the transformer block's stages.

Small DataFrames from the core's results; no maths here beyond labels (s / τ, 1 − σ(s)).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from attn_core.labs import cost, normalisation, scaling, similarity, softmax_facts
from attn_core.labs.additive import ScoreCost
from attn_core.pretrained import bert_layer
from attn_lessons.i18n import N_, _
from attn_ui import formats
from attn_ui.tables import labels

SATURATION_ROWS = {  # row (translated where drawn) -> the field of the core's result
    N_("variance (simulated)"): "variance",
    N_("variance (closed form)"): "closed_form",
    N_("largest weight"): "max_weight",
    N_("entropy (nats)"): "entropy",
    N_("gradient size ‖J‖"): "grad_norm",
    N_("largest |J| entry"): "grad_max",
}
# a stage of the block (the core's name) -> its label, translated where drawn: `stage_name`
STAGE_NAMES = {
    "x": N_("x (input)"),
    "attn": N_("attention"),
    "res_1": N_("x + attention"),
    "norm_1": N_("LN 1 (no γ, β)"),
    "ln_1": N_("LN 1 = h"),
    "ffn": "FFN(h)",
    "res_2": "h + FFN(h)",
    "norm_2": N_("LN 2 (no γ, β)"),
    "out": N_("LN 2 = output"),
}
# the core's topics (similarity.TOPICS, data) as the page names them
TOPIC_WORDS = {
    "food": N_("food"),
    "animals": N_("animals"),
    "coding": N_("coding"),
    "sport": N_("sport"),
    "music": N_("music"),
    "travel": N_("travel"),
    "health": N_("health"),
    "history": N_("history"),
}


def stage_name(stage: str) -> str:
    """A stage's label in the page's language (for a `format_func`)."""
    return _(STAGE_NAMES[stage])


def topic_word(topic: str) -> str:
    """A topic of the catalogue in the page's language."""
    return _(TOPIC_WORDS[topic]) if topic in TOPIC_WORDS else topic


def saturation_table(sample: scaling.ScaleSample) -> pd.DataFrame:
    """The learner's d, measured: one column without and one with the scale."""
    cols = {}
    for name, scaled in (("q·k", False), ("q·k / √d", True)):
        sat = scaling.saturation(sample, scaled=scaled)
        values = [getattr(sat, field) for field in SATURATION_ROWS.values()]
        se = scaling.variance_standard_error(
            sample.d, sample.n_queries, sample.n_keys, scaled=scaled
        )
        cols[name] = [*values, se]
    index = [*map(_, SATURATION_ROWS), _("sampling error of the variance (1 sd)")]
    return pd.DataFrame(cols, index=pd.Index(index, name=_("measure")))


def selection_table(scores: np.ndarray, tau: float, soft: np.ndarray, hard: np.ndarray):
    """One row per score: the score, score / tau, its softmax weight and its argmax weight."""
    return pd.DataFrame(
        {_("score s"): scores, f"s / {tau:g}": scores / tau, "softmax": soft, "argmax": hard},
        index=pd.Index([f"s{j}" for j in range(len(scores))], name=_("score")),
    )


def sigmoid_table(s: float) -> pd.DataFrame:
    """softmax({0, s}) next to sigmoid(s) and 1 - sigmoid(s), to 4 decimals and in full."""
    pair, sig = softmax_facts.softmax_pair(s), float(softmax_facts.sigmoid(s))
    rows = {
        _("softmax({0, s}) first weight"): pair[0],
        "1 − sigmoid(s)": 1.0 - sig,
        _("softmax({0, s}) second weight"): pair[1],
        "sigmoid(s)": sig,
    }
    return pd.DataFrame(
        {_("rounded"): [round(v, 4) for v in rows.values()], _("value"): list(rows.values())},
        index=list(rows),
    ).rename_axis(f"s = {s:g}")


def topic_text(values: np.ndarray) -> str:
    """'travel 70 %, food 30 %': a value row in words."""
    parts = [(v, t) for v, t in zip(values, similarity.TOPICS, strict=True) if v > 0]
    return ", ".join(f"{topic_word(t)} {v:.0%}" for v, t in sorted(parts, reverse=True))


def retrieval_table(r: similarity.RetrievalTrace) -> pd.DataFrame:
    """One row per video: its title (the key), value, score and weight."""
    return pd.DataFrame(
        {
            # i18n: the titles are not translated: they are the keys the query is compared with
            _("key: title"): [v.title for v in similarity.CATALOGUE],
            _("value: topics"): [topic_text(v) for v in r.values],
            _("score: cosine"): r.scores,
            _("weight"): r.weights,
            _("best match"): [_("◀ best") if i == r.best else "" for i in range(len(r.scores))],
        }
    )


def dot_cos_table(t: similarity.SimilarityTrace, tokens: Sequence[str], i: int, j: int):
    """Two tokens' dot product taken apart: dot = |x_i| |x_j| cos."""
    names = labels(tokens)
    rows = {
        _("|x| of {token}").format(token=names[i]): t.norms[i],
        _("|x| of {token}").format(token=names[j]): t.norms[j],
        _("cosine"): t.cosines[i, j],
        _("|x_i| |x_j| cosine"): t.norms[i] * t.norms[j] * t.cosines[i, j],
        _("dot product x_i · x_j"): t.dots[i, j],
    }
    return pd.DataFrame(
        {_("value"): list(rows.values())}, index=pd.Index(list(rows), name=_("measure"))
    )


def score_cost_table(c: ScoreCost, t_t: int, t_s: int, d: int, d_a: int) -> pd.DataFrame:
    """Multiply-adds, tanh evaluations and stored numbers of the dot-product and the additive
    score, as formulas and as numbers for the current sizes."""
    return pd.DataFrame(
        {
            _("multiply-adds"): [c.dot, c.additive, c.additive_naive],
            _("formula"): ["T_t·T_s·d", "d_a·(T_t·d + T_s·d + T_t·T_s)", "T_t·T_s·d_a·(2d + 1)"],
            "tanh": [0, c.tanh, c.tanh],
            _("numbers kept per score grid"): [
                c.stored_dot,
                c.stored_additive,
                c.stored_additive,
            ],
        },
        index=[
            _("dot product s·h (one matmul)"),
            _("additive, W₁s and W₂h computed once"),
            _("additive, recomputed for every pair"),
        ],
    ).rename_axis(f"T_t = {t_t}, T_s = {t_s}, d = {d}, d_a = {d_a}")


def timing_table(c: cost.CostCurve) -> pd.DataFrame:
    """One row per measured size: times in ms, memory in kB (``formats.KB``, 1,000 bytes)."""
    cols = {
        "T": c.t,
        "d": c.d,
        _("attention (ms)"): c.seconds * 1e3,
        _("weights (kB)"): c.weights_bytes / formats.KB,
        _("all T×T arrays (kB)"): c.trace_bytes / formats.KB,
    }
    if c.rnn_seconds is not None:
        cols[_("RNN, T steps (ms)")] = c.rnn_seconds * 1e3
    return pd.DataFrame(cols)


def strongest_table(weights: np.ndarray, rows: Sequence[str], cols: Sequence[str]) -> pd.DataFrame:
    """Per query row: the key with the largest weight, and that weight."""
    best = weights.argmax(axis=1)
    return pd.DataFrame(
        {_("strongest key"): [labels(cols)[j] for j in best], _("weight"): weights.max(axis=1)},
        index=pd.Index(labels(rows), name=_("query")),
    )


def stage_spread(trace: bert_layer.LayerTrace, tokens: Sequence[str], *, std: bool) -> pd.DataFrame:
    """Each token's mean (or standard deviation) across its features, at every stage."""
    cols = {
        stage_name(s): normalisation.spread(getattr(trace, s))[int(std)] for s in bert_layer.STAGES
    }
    return pd.DataFrame(cols, index=pd.Index(labels(tokens), name=_("token")))


def direction_table(a: np.ndarray, axis: int, names: Sequence[str]) -> pd.DataFrame:
    """Mean and variance along `axis` (1: per row, 0: per column), to 6 decimals."""
    mean, sd = normalisation.spread(a, axis)
    name = _("token") if axis == 1 else _("feature")  # axis 1: each row's numbers, a token's
    df = pd.DataFrame(
        {_("mean"): mean, _("variance"): sd**2}, index=pd.Index(list(names), name=name)
    )
    return df.round(6) + 0.0  # no -0.0
