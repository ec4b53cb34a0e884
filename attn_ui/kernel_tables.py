"""Tables of the kernel pages: how far one gradient step moves each weight matrix, the
gradient of a saturated softmax against d (Gradients), and where a trained head looks on the
learner's sequence (Train a head). Numbers come in from ``attn_core``; DataFrames go out."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import streamlit as st

from attn_core.backward import Grads
from attn_core.labs import gradients
from attn_lessons.i18n import N_, _
from attn_ui.tables import labels

SATURATION = {  # column (translated where drawn) -> the field of `gradients.Saturation` it holds
    N_("typical max |dS| of a row, scaled"): "row_ds_scaled",
    N_("typical max |dS| of a row, unscaled"): "row_ds_unscaled",
    N_("mean |dS|, scaled"): "mean_ds_scaled",
    N_("mean |dS|, unscaled"): "mean_ds_unscaled",
    N_("largest weight, unscaled"): "max_weight_unscaled",
}


def step_sizes(grads: Grads, lr: float) -> pd.DataFrame:
    """Each weight matrix's largest |gradient| and the largest change a step of `lr` makes."""
    largest = [float(np.abs(w).max()) for w in (grads.dw_q, grads.dw_k, grads.dw_v)]
    return pd.DataFrame(
        {
            _("largest |dW|"): largest,
            _("largest change, lr · |dW|"): [lr * x for x in largest],
        },
        index=pd.Index(["W_Q", "W_K", "W_V"], name=_("matrix")),
    )


def saturation(rows: Sequence[gradients.Saturation]) -> pd.DataFrame:
    """One row per d: the scaled and unscaled softmax's gradient sizes, and the largest weight."""
    table = {_(col): [getattr(x, field) for x in rows] for col, field in SATURATION.items()}
    return pd.DataFrame(table, index=pd.Index([x.d for x in rows], name="d"))


def three_digits(table: pd.DataFrame) -> dict:
    """Column settings that show every number to 3 significant digits (the unscaled gradients
    shrink to 1e-6 and less: "0.000003" would hide them)."""
    return {c: st.column_config.NumberColumn(c, format="%.3g") for c in table.columns}


def found(weights: np.ndarray, letters: Sequence[str], right: np.ndarray) -> pd.DataFrame:
    """Where each query of the learner's sequence looks most, and its weight on the right key
    (`right`: the right key of each query)."""
    looks = weights.argmax(axis=1)
    rows = np.arange(len(letters))
    named = labels(letters)
    return pd.DataFrame(
        {
            _("looks most at"): [named[j] for j in looks],
            _("its weight"): weights[rows, looks],
            _("right key"): [named[j] for j in right],
            _("weight on the right key"): weights[rows, right],
        },
        index=pd.Index(named, name=_("query")),
    )
