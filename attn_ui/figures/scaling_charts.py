"""The live 'why scale?' figures: random queries and keys measured over d_k = 1 .. 512."""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from attn_core.labs.scaling import ScaleSweep, scale_sweep
from attn_lessons.i18n import N_, _
from attn_ui.compute.model import Shown
from attn_ui.figures import chart

D_KS = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512)
D_TICKS = (1, 4, 16, 64, 256, 512)
N_SCORES = 8000  # scores per point, as the page says
UNSCALED, SCALED, GREY = "#d62728", "#1f77b4", "#6b6e7a"  # red: q·k; blue: q·k / √d_k
# field of `Saturation` -> the figure's title, its table's heading and its value axis
FIELDS = {
    "variance": N_("Variance of the scores"),
    "max_weight": N_("Largest weight in a row"),
    "entropy": N_("Entropy of a row (uniform: ln {n_keys})"),
    "grad_norm": N_("Softmax gradient size"),
}
HEADINGS = {
    "variance": N_("Variance of the scores"),
    "max_weight": N_("Largest weight in a row"),
    "entropy": N_("Entropy of a row"),
    "grad_norm": N_("Softmax gradient size"),
}
AXES = {
    "variance": N_("variance"),
    "max_weight": N_("max weight"),
    "entropy": N_("entropy"),
    "grad_norm": N_("grad norm"),
}


@st.cache_data(max_entries=80, show_spinner=Shown(N_("Drawing random queries and keys...")))
def curve(n_keys: int) -> ScaleSweep:
    """The seeded simulation for rows of `n_keys` keys (one per distinct sentence length)."""
    return scale_sweep(D_KS, n_keys, n_scores=N_SCORES)


def _figure(c: ScaleSweep, field: str, your_d_k: int, *, extra=(), **axes) -> dict:
    series = [
        chart.series(label, c.column(field, scaled=scaled), colour, style="line")
        for scaled, colour, label in ((False, UNSCALED, "q·k"), (True, SCALED, "q·k / √d_k"))
    ]
    return chart.lines(
        c.d,
        [*series, *extra],
        title=_(FIELDS[field]).format(n_keys=c.n_keys),
        x_title="d_k",
        y_title=_(AXES[field]),
        log_x=True,
        x_ticks=D_TICKS,
        mark=(your_d_k, _("your d_k = {d_k}").format(d_k=your_d_k)),
        **axes,
    )


def figures(c: ScaleSweep, your_d_k: int) -> list[dict]:
    """Variance of the scores (against d_k itself, dashed); the softmax's largest weight,
    entropy and gradient size."""
    return [
        _figure(
            c,
            "variance",
            your_d_k,
            extra=[chart.series("d_k", c.d, GREY, style="dash")],
            log_y=True,
        ),
        _figure(c, "max_weight", your_d_k, y_range=(0, 1.02)),
        _figure(c, "entropy", your_d_k, y_range=(0, math.log(c.n_keys) * 1.05)),
        _figure(c, "grad_norm", your_d_k),
    ]


def table(c: ScaleSweep) -> pd.DataFrame:
    """The curves' numbers: one row per d_k, each field unscaled and scaled."""
    columns = {
        f"{_(HEADINGS[field])}, {label}": c.column(field, scaled=scaled)
        for field in FIELDS
        for scaled, label in ((False, "q·k"), (True, "q·k / √d_k"))
    }
    return pd.DataFrame(columns, index=pd.Index(c.d, name="d_k"))
