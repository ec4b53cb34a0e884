"""Helpers for the step pages 5-8 (softmax, weighted sum, masking, multi-head).

Matrices, charts, tables, the token picker and the token warnings; the masking page's mask
grid is in ``attn_ui.masking``. Widgets and tables only: every number comes from
``attn_core`` (the trace or ``attn_core.explain``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import streamlit as st

from attn_core import explain
from attn_ui import canvas_grid, heatmap, views
from attn_ui.controls import LessonSettings
from attn_ui.views import labels


def table_height(n_rows: int) -> int | str:
    """Show every row of a short table; scroll a long one (64 tokens would be 2,000+ px)."""
    return "content" if n_rows <= 20 else 600


def square(
    m: np.ndarray,
    tokens,
    s: LessonSettings,
    *,
    name: str,
    key: str,
    by_hand: str | None = None,
    kind: str = "signed",
) -> None:
    """A (T, T) matrix, queries by keys, in the learner's layout and with their number setting."""
    views.matrix(
        m,
        tokens,
        tokens,
        name=name,
        by_hand_name=by_hand,
        kind=kind,
        key=key,
        columns=s.columns,
        show_numbers=s.show_numbers,
    )


def per_token(
    m: np.ndarray,
    tokens,
    cols,
    s: LessonSettings,
    *,
    name: str,
    key: str,
    by_hand: str | None = None,
    row_title: str = "token",
    col_title: str = "feature",
) -> None:
    """A matrix with one row per token (or any rows: `tokens` are just labels) and named columns."""
    views.matrix(
        m,
        tokens,
        cols,
        name=name,
        by_hand_name=by_hand,
        row_title=row_title,
        col_title=col_title,
        key=key,
        columns=s.columns,
        show_numbers=s.show_numbers,
    )


def heads_grid(weights: Sequence[np.ndarray], tokens, s: LessonSettings) -> None:
    """Small multiples: every head's (T, T) weights, 4 to a row (2 for longer sentences)."""
    per_row = min(len(weights), 4 if len(tokens) <= 6 else 2)  # long sentences need width
    for first in range(0, len(weights), per_row):
        heads = range(first, min(first + per_row, len(weights)))
        for h, col in zip(heads, st.columns(per_row), strict=False):  # the last row may be short
            with col:
                name = f"head {h}: A_{h}"
                square(weights[h], tokens, s, name=name, kind="weights", key=f"mh_a{h}")


def head_features(n_heads: int, d_v: int) -> list[str]:
    """Column names of the concatenated heads: h0·v0, h0·v1, ..., h1·v0, ..."""
    return [f"h{h}·v{j}" for h in range(n_heads) for j in range(d_v)]


def sweep_chart(sweep, taus, tau: float, tokens, *, title: str, s: LessonSettings, key: str):
    """One row's weights at several temperatures, one heatmap row per temperature."""
    rows = [f"τ = {x:g}" + ("  (yours)" if x == tau else "") for x in taus]
    fig = heatmap.figure(
        sweep,
        rows,
        tokens,
        title=title,
        kind="weights",
        row_title="temperature",
        col_title="key",
        show_numbers=s.show_numbers,
    )
    canvas_grid.figure(fig, key=key)


def pick_token(tokens: Sequence[str], *, label: str, key: str, default: int = 1) -> int:
    """A token chosen by position (so a repeated word is still two choices)."""
    names = labels(tokens)
    return st.selectbox(
        label,
        range(len(tokens)),
        index=min(default, len(tokens) - 1),
        format_func=names.__getitem__,
        key=key,
    )


def sums_table(sums: dict[str, np.ndarray], tokens: Sequence[str], *, key: str) -> None:
    """Sums side by side, one row per token, to 4 decimals."""
    df = pd.DataFrame(sums, index=labels(tokens)).round(4)
    st.dataframe(df, key=key, height=table_height(len(df)))


def softmax_table(steps: explain.SoftmaxSteps, tokens: Sequence[str], *, key: str) -> None:
    """The softmax of one row, one line per key, -inf spelled out as masked."""
    cols = {
        "score s": steps.scores,
        "s/τ": steps.divided,
        "s/τ − max": steps.shifted,
        "exp(s/τ − max)": steps.exps,
        "weight": steps.weights,
    }
    df = pd.DataFrame(cols, index=labels(tokens)).round(4)
    st.dataframe(df.replace(-np.inf, "−∞ (masked)"), key=key, height=table_height(len(df)))


def parts_table(
    parts: np.ndarray, weights_row: np.ndarray, z_row: np.ndarray, tokens, features, *, key: str
) -> None:
    """Rows a_j v_j per key (the weight in the label), then their sum and the engine's row."""
    names = [f"{n}   (a = {a:.3f})" for n, a in zip(labels(tokens), weights_row, strict=True)]
    df = pd.DataFrame(parts, index=names, columns=list(features))
    df.loc["sum of the rows above"] = explain.row_sums(parts.T)  # sum over the keys
    df.loc["Z row (the engine)"] = z_row
    st.dataframe(df.round(4), key=key, height=table_height(len(df)))


def warn_tokens(tokens: Sequence[str]) -> None:
    """Say in words when the sentence is too short to show much, or holds unknown characters."""
    if len(tokens) == 1:
        st.warning(
            "Your sentence is a single token. It can only attend to itself, so its one weight "
            "is 1. Type a few more words to see attention choose.",
            icon=":material/info:",
        )
    unknown = list(tokens).count("[UNK]")
    if unknown:
        st.warning(
            f"{unknown} of the {len(tokens)} tokens are [UNK]: the tokenizer does not know those "
            "characters (emoji, some scripts), so they all get the same vector.",
            icon=":material/info:",
        )
