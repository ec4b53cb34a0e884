"""The charts of labs 44-47: counts and costs on log-log axes, and each token's spread through
the transformer block, as charts of ``chart.py``. Numbers come in; figures go out (the
heatmaps, the local band's included, are ``attn_ui.figures.matrix``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from plotly.colors import qualitative

from attn_core.labs.cost import CostCurve, Fit
from attn_lessons.i18n import _
from attn_ui.figures import chart

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd")
TOKEN_COLOURS = qualitative.D3  # one per token's line, ten before any repeats
DASHES = {"solid": "curve", "dash": "dash", "dot": "dot"}  # a curve drawn without its points


def loglog(
    title: str,
    x_title: str,
    y_title: str,
    series: Sequence[tuple],
    ticks=None,
    *,
    mark: tuple[float, str] | None = None,
    colours: Sequence[str] = COLOURS,
) -> dict:
    """Lines on log-log axes; series: (name, x, y) (a line through its points) or (name, x, y,
    dash) (a line only, "solid", "dash" or "dot"); x labelled at `ticks`; `mark` = (x, text):
    a dotted line at the learner's x. A series over fewer x than the first keeps its own."""
    first = np.asarray(series[0][1], dtype=float)
    drawn = []
    for n, (name, x, y, *dash) in enumerate(series):
        x = np.asarray(x, dtype=float)
        own = x.shape != first.shape or not np.array_equal(x, first)
        style = DASHES[dash[0]] if dash else "line"
        drawn.append(
            chart.series(name, y, colours[n % len(colours)], style=style, x=x if own else None)
        )
    return chart.lines(
        first,
        drawn,
        title=title,
        x_title=x_title,
        y_title=y_title,
        log_x=True,
        log_y=True,
        x_ticks=ticks,
        mark=mark,
        height=240,
    )


def fit_line(x, fit: Fit) -> np.ndarray:
    """The fitted power law c x^slope at `x`, to draw beside the measured points."""
    return fit.coefficient * np.asarray(x, dtype=float) ** fit.slope


def stages_figure(spread: pd.DataFrame) -> dict:
    """One line per token (row of `spread`, named by its position and token) across the block's
    stages (its columns).

    The y axis is logarithmic: a few tokens (often [SEP]) grow ten times larger than the rest.
    """
    return chart.bars(
        list(spread.columns),
        [
            chart.series(name, row.to_numpy(), TOKEN_COLOURS[n % len(TOKEN_COLOURS)], style="line")
            for n, (name, row) in enumerate(spread.iterrows())
        ],
        title=_("One line per token, through the layer"),
        x_title=_("stage"),
        y_title=_("standard deviation (log scale)"),
        log_y=True,
        height=300,
    )


def clip_limit(m: np.ndarray) -> float:
    """The colour scale's end for a wide heatmap (its `limit`): the 99th percentile of |m|, so
    that a few outlier features (trained transformers have some) do not wash out every other
    cell."""
    return float(np.percentile(np.abs(m), 99)) or 1.0


def _fitted(symbol: str, x: np.ndarray, start: int, fit: Fit) -> tuple:
    """The fit's dashed line over the points it used (x >= start)."""
    x = x[x >= start]
    name = _("fit: c·{symbol}^{slope}").format(symbol=symbol, slope=f"{fit.slope:.2f}")
    return (name, x, fit_line(x, fit), "dash")


def cost_figures(over_t: CostCurve, over_d: CostCurve, fits: dict[str, Fit], start: dict):
    """Time against T (attention, its fit, the RNN), memory against T, time against d.

    fits : {"t": attention vs T, "d": attention vs d};  start : {"t": T0, "d": d0}, the
    smallest x each fit used.
    """
    t, d = over_t.t, over_d.d
    measured = _("attention (measured)")
    time_t = [
        (measured, t, over_t.seconds),
        _fitted("T", t, start["t"], fits["t"]),
        (_("RNN, T steps (measured)"), t, over_t.rnn_seconds),
    ]
    memory = [
        (_("weights A (T × T)"), t, over_t.weights_bytes),
        (_("every T × T array the trace keeps"), t, over_t.trace_bytes),
    ]
    time_d = [(measured, d, over_d.seconds), _fitted("d", d, start["d"], fits["d"])]
    seconds = _("seconds")
    by_d = _("Time against d (T = {t})").format(t=over_d.t[0])
    return (
        loglog(_("Time against T"), "T", seconds, time_t, ticks=t),
        loglog(_("Memory against T"), "T", _("bytes"), memory, ticks=t),
        loglog(by_d, "d", seconds, time_d, ticks=d),
    )
