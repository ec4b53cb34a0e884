"""The RoPE page's charts: each pair's speed and its angle at a position, one pair of q turning
round its circle, and the score against the distance m − n. Numbers come in from
``attn_core.labs.rope`` (and the pairs table of ``decoder_views``); charts of ``chart.py``
go out."""

from __future__ import annotations

import numpy as np
import pandas as pd

from attn_core.labs import rope
from attn_lessons.i18n import _
from attn_ui.figures import chart

SCORE, CIRCLE = "#1f77b4", "#c7c9d1"


def speed_bars(pairs: pd.DataFrame) -> dict:
    """Radians per position of each pair (the pairs table, its English headings), on a log
    axis."""
    return chart.bars(
        [str(i) for i in pairs["pair i"]],
        [chart.series("θ_i", pairs["radians per position"], SCORE)],
        title=_("Radians per position, by pair (log)"),
        x_title=_("pair i"),
        y_title="θ_i",
        log_y=True,
        decimals=6,
    )


def angle_bars(pairs: pd.DataFrame, position: int) -> dict:
    """Each pair's angle at `position`, in degrees mod 360 (the pairs table, its English
    headings)."""
    return chart.bars(
        [str(i) for i in pairs["pair i"]],
        [chart.series(_("degrees"), pairs[f"angle at {position}, mod 360°"], SCORE)],
        title=_("Angle of each pair at m = {m}").format(m=position),
        x_title=_("pair i"),
        y_title=_("degrees, mod 360"),
        y_range=(0, 360),
        decimals=1,
    )


def pair_turning(q: np.ndarray, pair: int, frequency: float, turns: int) -> dict:
    """Pair `pair` of q, (q_2i, q_2i+1), rotated to positions 0..`turns`, labelled with the
    position, on the circle it never leaves."""
    xy = q[2 * pair : 2 * pair + 2]
    track = rope.pair_track(xy, range(turns + 1), frequency)  # (turns + 1, 2)
    circle = rope.pair_track([float(np.hypot(*xy)), 0.0], np.linspace(0, 2 * np.pi, 73), 1.0)
    a, b = f"q_{2 * pair}", f"q_{2 * pair + 1}"
    return chart.plane(
        [
            chart.series(_("circle"), circle[:, 1], CIRCLE, style="curve", x=circle[:, 0]),
            chart.series(
                _("({a}, {b}) at positions 0..{turns}").format(a=a, b=b, turns=turns),
                track[:, 1],
                SCORE,
                style="points",
                x=track[:, 0],
                text=[str(p) for p in range(turns + 1)],
            ),
        ],
        title=_("Pair {pair}: {frequency} rad per position, a turn every {period}").format(
            pair=pair, frequency=f"{frequency:.3g}", period=f"{2 * np.pi / frequency:,.1f}"
        ),
        x_title=a,
        y_title=b,
        point_title=_("position"),
    )


def score_by_distance(distances: np.ndarray, scores: np.ndarray, at: int) -> dict:
    """q_m · k_n against m − n, the learner's distance marked."""
    return chart.lines(
        distances,
        [chart.series("q_m · k_n", scores, SCORE, style="line")],
        title=_("Score against the distance m − n"),
        x_title="m − n",
        y_title="q_m · k_n",
        mark=(at, f"m − n = {at}"),
        height=240,
    )
