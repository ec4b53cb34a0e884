"""The figures of the kernel pages: the backward pass's gradients two by two and a row of A
before and after one gradient step (Gradients), and the loss and the weight on the right key
as a head trains (Train a head). Numbers come in from ``attn_core.labs.gradients`` and
``attn_core.training``; heatmaps and charts of ``chart.py`` go out."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import streamlit as st

from attn_core.backward import Grads
from attn_lessons.i18n import _
from attn_ui.figures import plots
from attn_ui.figures.matrix import matrix


def step_row(tokens: Sequence[str], row: int, before: np.ndarray, after: np.ndarray) -> dict:
    """Row `row` of A (its weights `before` and `after` the step), bars side by side."""
    return plots.grouped_bars(
        tokens,
        [
            (_("before the step"), before, plots.UNSCALED),
            (_("after the step"), after, plots.SCALED),
        ],
        title=_("Row i of A: where token {token} looks").format(token=tokens[row]),
        value_title=_("weight"),
        name_title=_("key"),
        value_range=(0, 1.05),
    )


def training(losses: np.ndarray, right_weight: np.ndarray, shown: int) -> dict:
    """The loss and the weight on the right key at each step (a log axis of steps), the loss
    after the step `shown` (0-based) marked."""
    steps = np.arange(1, len(losses) + 1)
    return plots.lines(
        [
            (_("loss"), steps, losses, plots.UNSCALED, "spline"),
            (_("weight on the right key"), steps, right_weight, plots.SCALED, "spline"),
        ],
        title=_("Loss and weight on the right key, per step"),
        x_title=_("step (log scale)"),
        y_title=_("value"),
        marks=[(_("step {n}").format(n=shown + 1), shown + 1, losses[shown], plots.UNSCALED)],
        log_x=True,
    )


def gradient_pairs(g: Grads, tok, feats, d_k, d_v) -> list[tuple[tuple, tuple]]:
    """The backward pass's gradients two by two, in the order the chain rule reaches them:
    each (matrix, row labels, column labels, title, row title, column title)."""
    token, feature, of_x = _("token"), _("feature"), _("feature of x")
    query, key = _("query"), _("key")
    return [
        (
            (g.d_output, tok, d_v, "dZ = dL/dZ", token, feature),
            (g.dv, tok, d_v, "dV = Aᵀ dZ", token, feature),
        ),
        (
            (g.d_weights, tok, tok, "dA = dZ Vᵀ", query, key),
            (g.d_scaled, tok, tok, "dS = A ⊙ (dA − rowsum)", query, key),
        ),
        (
            (g.dq, tok, d_k, "dQ = dS K / √d_k", token, feature),
            (g.dk, tok, d_k, "dK = dSᵀ Q / √d_k", token, feature),
        ),
        (
            (g.dw_q, feats, d_k, "dW_Q = Xᵀ dQ", of_x, feature),
            (g.dw_k, feats, d_k, "dW_K = Xᵀ dK", of_x, feature),
        ),
    ]


def gradient_pair(pair: tuple[tuple, tuple], n: int, **common) -> None:
    """Two gradients of `gradient_pairs` side by side, heatmaps with their numbers."""
    for col, (m, rows, names, title, r_title, c_title) in zip(st.columns(2), pair, strict=True):
        with col:
            matrix(
                m,
                rows,
                names,
                name=title,
                row_title=r_title,
                col_title=c_title,
                key=f"grads_m{n}_{title[:5]}",
                **common,
            )
