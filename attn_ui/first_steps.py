"""Helpers for the step pages 1-4: token tables, written-out dot products, the real head's
weights, and the scaling comparison. Formatting only: every number comes from attn_core."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import streamlit as st

import attn_core
from attn_core import Trace
from attn_core.stats import Repeat, SoftmaxSummary, dot_terms
from attn_ui import views
from attn_ui.compute import minilm
from attn_ui.controls import LessonSettings

SPECIAL = frozenset({"[CLS]", "[SEP]", "[UNK]", "[PAD]", "[MASK]"})
HOVER_FULL_TERMS = 16  # hover lists every product up to this d_k, else the first ...
HOVER_SOME_TERMS = 8  # ... this many, so a 64 x 64 grid stays light
TERMS_PER_LINE = 4


def factor(v: float, decimals: int = 2) -> str:
    """'0.50', '(−0.30)': a number as written inside a sum of products."""
    text = f"{v:.{decimals}f}"
    if float(text) == 0:
        return f"{0:.{decimals}f}"  # no '-0.00'
    return f"({text.replace('-', '−')})" if v < 0 else text


def total(v: float, decimals: int = 2) -> str:
    return factor(v, decimals).strip("()")


def dot_sum(q_row, k_row, score: float, *, max_terms: int | None = None, newline="\n") -> str:
    """'0.50×1.20 + (−0.30)×0.40 + … = 0.48', four products per line."""
    terms = [f"{factor(a)}×{factor(b)}" for a, b in zip(q_row, k_row, strict=True)]
    if max_terms is not None and len(terms) > max_terms:
        terms = [*terms[:max_terms], f"… ({len(terms) - max_terms} more products)"]
    lines = [
        " + ".join(terms[i : i + TERMS_PER_LINE]) for i in range(0, len(terms), TERMS_PER_LINE)
    ]
    return f"{newline}+ ".join(lines) + f" = {total(score)}"


def dot_hover(q: np.ndarray, k: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """(T_q, T_k) hover text for S = Q Kᵀ: each cell's sum of products, four to a line."""
    d_k = q.shape[1]
    short = None if d_k <= HOVER_FULL_TERMS else HOVER_SOME_TERMS
    out = np.empty(scores.shape, dtype=object)
    for i in range(q.shape[0]):
        for j in range(k.shape[0]):
            out[i, j] = f"q{i}·k{j} = " + dot_sum(q[i], k[j], scores[i, j], max_terms=short)
    return out


def dot_table(q: np.ndarray, k: np.ndarray, i: int, j: int) -> pd.DataFrame:
    """One score worked out: a row per feature with q_i, k_j and their product."""
    products = dot_terms(q[i : i + 1], k[j : j + 1])[0, 0]  # (d_k,)
    return pd.DataFrame(
        {f"q{i}": q[i], f"k{j}": k[j], f"q{i} × k{j}": products},
        index=[f"f{f}" for f in range(q.shape[1])],
    )


def token_kind(token: str) -> str:
    if token in SPECIAL:
        return "special token"
    if token.startswith("##") and len(token) > 2:
        return "piece: continues the word before"
    return "a word, or the first piece of one"


def token_table(tokens: Sequence[str]) -> pd.DataFrame:
    """Row number, token and what kind of token it is; the text is data, never markup."""
    return pd.DataFrame(
        {"token": list(tokens), "kind": [token_kind(t) for t in tokens]},
        index=pd.RangeIndex(len(tokens), name="row"),
    )


def repeats_table(repeats: Sequence[Repeat]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "token": [r.token for r in repeats],
            "rows of X": [", ".join(map(str, r.positions)) for r in repeats],
            "identical vectors": ["yes" if r.identical else "no" for r in repeats],
        }
    )


@st.cache_data(max_entries=64, show_spinner=False)
def real_head(sentence: str, layer: int, head: int) -> tuple[Trace, tuple[np.ndarray, ...]]:
    """MiniLM's head with its W_Q, W_K, W_V recorded, and its biases (b_Q, b_K, b_V)."""
    model = minilm()
    return model.head_trace(model.run(sentence), layer, head), model.head_bias(layer, head)


def summary_table(unscaled: SoftmaxSummary, scaled: SoftmaxSummary, t_k: int) -> pd.DataFrame:
    """The learner's head without and with 1/sqrt(d_k), side by side."""
    names = {
        "spread": "score spread (std)",
        "max_weight": "largest weight",
        "entropy": f"entropy (max {np.log(t_k):.2f})",
        "grad": "gradient size",
    }
    return pd.DataFrame(
        {
            "unscaled": [getattr(unscaled, n) for n in names],
            "÷ √d_k": [getattr(scaled, n) for n in names],
        },
        index=list(names.values()),
    )


def with_d_v(x: np.ndarray, s: LessonSettings, d_v: int) -> Trace:
    """The lesson's random head with values d_v wide; W_Q and W_K are the usual ones."""
    w = attn_core.lesson_weights(s.d_model, s.d_k, d_v, seed=s.seed)
    return attn_core.self_attention(x, w.w_q, w.w_k, w.w_v, temperature=s.temperature)


def shapes_table(named: dict[str, np.ndarray]) -> pd.DataFrame:
    """'rows × columns' of each named matrix."""
    return pd.DataFrame(
        {"rows × columns": [" × ".join(map(str, a.shape)) for a in named.values()]},
        index=list(named),
    )


def pick_token(tokens: Sequence[str], *, label: str, key: str, default: int = 0) -> int:
    """A token chosen by its row number, so both copies of a repeated word can be picked."""
    if st.session_state.get(key) not in range(len(tokens)):  # the sentence got shorter
        st.session_state[key] = min(default, len(tokens) - 1)
    return st.selectbox(
        label, range(len(tokens)), format_func=lambda i: f"{i}: {tokens[i]}", key=key
    )


def matrices_in_a_row(
    mats: dict[str, np.ndarray], rows, cols: list, *, by_hand: list[str], key: str, **kw
) -> None:
    """`views.matrix` for each named matrix, side by side (stacked on a phone)."""
    parts = zip(st.columns(len(mats)), mats.items(), cols, by_hand, strict=True)
    for n, (col, (name, m), c, hand) in enumerate(parts):
        with col:
            views.matrix(m, rows, c, name=name, by_hand_name=hand, key=f"{key}{n}", **kw)
