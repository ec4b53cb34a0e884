"""Bar charts for one row of a matrix: bars at positions, token strings only as labels.

Canvas charts (`chart.py`, drawn by canvas_chart.js): a repeated word keeps its own bar,
and a label is drawn as text, never read as HTML.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from plotly.colors import qualitative

from attn_lessons.i18n import _
from attn_ui.figures import chart
from attn_ui.figures.chart import BAR, INK

KEY_COLOURS = qualitative.Dark24  # one colour per key of a stacked bar, 24 before any repeats
LEGEND_KEYS = 10  # a stacked chart names its keys in a legend up to this many; beyond, the hover


def row_bars(
    values: np.ndarray,
    tokens: Sequence[str],
    *,
    title: str,
    y_title: str,
    x_title: str | None = None,
    y_range: tuple[float, float] | None = None,
) -> dict:
    """One bar per token, its value written above it when there is room; -inf (a masked
    score) is a flat grey bar marked −∞. x_title: "key" unless given."""
    values = np.asarray(values, dtype=float)
    text = [f"{v:.2f}" if np.isfinite(v) else "−∞" for v in values]
    return chart.bars(
        tokens,
        [chart.series(y_title, values, BAR, text=text)],
        title=title,
        x_title=_("key") if x_title is None else x_title,
        y_title=y_title,
        y_range=y_range,
        decimals=4,
    )


def stacked_parts(
    parts: np.ndarray,
    tokens: Sequence[str],
    features: Sequence[str],
    total: np.ndarray,
    *,
    title: str,
) -> dict:
    """parts (T_k, d_v): for each feature, the shares a_j v_j stacked (positive up, negative
    down), and their sum, the output row, as a diamond.

    A legend names the keys up to LEGEND_KEYS of them; beyond, the hover (and the arrow keys)
    name each share's key. Every key keeps a colour of its own up to 24 keys."""
    legend = len(tokens) <= LEGEND_KEYS
    if not legend:
        title = _("{title} (◆ = their sum)").format(title=title)
    shares = [
        chart.series(f"{j} {name}", parts[j], KEY_COLOURS[j % len(KEY_COLOURS)])
        for j, name in enumerate(tokens)
    ]
    the_sum = chart.series(_("sum = output row"), total, INK, style="diamond")
    return chart.bars(
        features,
        [*shares, the_sum],
        title=title,
        x_title=_("feature of V"),
        y_title="a_j × v_j",
        stacked=True,
        legend=legend,
        height=260,
    )
