"""The charts of the labs 40-43 (why scale, softmax, similarity, additive): curves against d,
grouped bars, histograms, and the softmax lab's curves, as charts of ``chart.py``.

Figures only: every number comes in from ``attn_core``; the heatmaps are
``attn_ui.figures.matrix``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from plotly.colors import qualitative

from attn_core.labs import scaling
from attn_lessons.i18n import _
from attn_ui.figures import chart

UNSCALED, SCALED, CLOSED = "#d62728", "#1f77b4", "#555555"  # red: q·k, blue: q·k / √d
SOFT, HARD = "#2b6cb0", "#dd6b20"  # softmax and argmax
PALETTE = qualitative.D3
D_TICKS = [1, 4, 16, 64, 256, 1024]
# a curve's shape -> how the chart draws it: a smooth curve, a step at each x, points only
SHAPES = {"spline": "curve", "linear": "curve", "hv": "step", "markers": "points"}


def sweep_figure(
    d, series, your_d: int, *, title: str, y_title: str, log_y=False, marks=(), y_range=None
):
    """Lines against d (log axis) with a dotted line at the learner's d.

    series : (name, y, colour, dash, error) tuples; dash None draws simulated points
    (markers and a line) with optional error bars, "dash" or "dot" a closed form.
    marks : (name, y, colour) points at the learner's d, large diamonds, kept out of the legend.
    """
    drawn = [
        chart.series(name, y, colour, style=dash or "line", error=error)
        for name, y, colour, dash, error in series
    ]
    drawn += [
        chart.series(name, [y], colour, style="diamond", x=[your_d], legend=False)
        for name, y, colour in marks
    ]
    return chart.lines(
        d,
        drawn,
        title=title,
        x_title=_("d (log scale)"),
        y_title=y_title,
        log_x=True,
        log_y=log_y,
        x_ticks=D_TICKS,
        y_range=y_range,
        y_from_zero=not log_y,
        mark=(your_d, _("your d = {d}").format(d=your_d)),
        height=240,
    )


def histogram(series, *, title: str, x_title: str) -> dict:
    """Overlaid histograms: (name, values, colour) tuples, in the same bins (`chart.bin_edges`),
    so that the chart and its table count alike."""
    return chart.histogram(series, title=title, x_title=x_title, height=240)


def grouped_bars(
    names: Sequence[str],
    series,
    *,
    title: str,
    value_title: str,
    name_title: str,
    value_range=None,
) -> dict:
    """One group of bars per name: (label, values, colour) tuples, side by side, named in a
    legend; a long name is cut under its bar (the hover and the table keep it whole)."""
    return chart.bars(
        names,
        [chart.series(label, values, colour) for label, values, colour in series],
        title=title,
        x_title=name_title,
        y_title=value_title,
        y_range=value_range,
        legend=True,
        decimals=4,
        height=240,
    )


def lines(
    series, *, title: str, x_title: str, y_title: str, marks=(), log_x=False, y_range=None
) -> dict:
    """Curves: (name, x, y, colour, shape) with shape "spline" or "linear" (a curve), "hv" (a
    step) or "markers" (points); colour None takes the next colour of the palette. Curves of
    one x share it; otherwise each keeps its own.

    marks : (name, x, y, colour) points drawn as large diamonds, kept out of the legend.
    """
    xs = [np.asarray(x, dtype=float) for _name, x, *_rest in series]
    shared = all(x.shape == xs[0].shape and np.array_equal(x, xs[0]) for x in xs)
    drawn = [
        chart.series(
            name,
            y,
            colour or PALETTE[n % len(PALETTE)],
            style=SHAPES[shape],
            x=None if shared else x,
        )
        for n, ((name, _x, y, colour, shape), x) in enumerate(zip(series, xs, strict=True))
    ]
    drawn += [
        chart.series(name, [my], colour, style="diamond", x=[mx], legend=False)
        for name, mx, my, colour in marks
    ]
    return chart.lines(
        xs[0] if shared else None,
        drawn,
        title=title,
        x_title=x_title,
        y_title=y_title,
        log_x=log_x,
        y_range=y_range,
        height=240,
    )


# --- 40, why scale ----------------------------------------------------------------------


def saturation_figure(
    sweep: scaling.ScaleSweep,
    sample: scaling.ScaleSample,
    field: str,
    *,
    title: str,
    y_title: str,
    log_y=False,
) -> dict:
    """One `Saturation` field against d, unscaled (red) and scaled (blue), the learner's d
    marked; the variance gets error bars of 2 sampling errors and its closed forms, d and 1."""
    series = []
    if field == "variance":
        series += [
            (_("closed form: d"), sweep.d, CLOSED, "dash", None),
            (_("closed form: 1"), np.ones(len(sweep.d)), CLOSED, "dot", None),
        ]
    marks = []
    for name, scaled, colour in (("q·k", False, UNSCALED), ("q·k / √d", True, SCALED)):
        error = None
        if field == "variance":
            error = [
                2
                * scaling.variance_standard_error(
                    int(d), sample.n_queries, sample.n_keys, scaled=scaled
                )
                for d in sweep.d
            ]
        simulated = _("{name}, simulated").format(name=name)
        series.append((simulated, sweep.column(field, scaled=scaled), colour, None, error))
        mark = getattr(scaling.saturation(sample, scaled=scaled), field)
        marks.append((_("{name} at your d").format(name=name), mark, colour))
    return sweep_figure(
        sweep.d,
        series,
        sample.d,
        title=title,
        y_title=y_title,
        log_y=log_y,
        marks=marks,
        y_range=(0, 1.05) if field == "max_weight" else None,  # a weight: 0 to 1
    )


def scores_histogram(sample: scaling.ScaleSample) -> dict:
    """The sample's scores, unscaled and scaled, in the same bins."""
    return histogram(
        [("q·k", sample.scores, UNSCALED), ("q·k / √d", sample.scaled, SCALED)],
        title=_("The scores at d = {d}").format(d=sample.d),
        x_title=_("score"),
    )


def row_weights(keys: Sequence[str], unscaled: np.ndarray, scaled: np.ndarray) -> dict:
    """One row's softmax weights without and with the scaling, side by side."""
    return grouped_bars(
        keys,
        [("softmax(q·k)", unscaled, UNSCALED), ("softmax(q·k / √d)", scaled, SCALED)],
        title=_("Weights of query 0"),
        value_title=_("weight"),
        name_title=_("key"),
        value_range=(0, 1.05),
    )


# --- 41, the softmax lab ------------------------------------------------------------------


def selection_bars(names: Sequence[str], soft: np.ndarray, hard: np.ndarray, tau: float) -> dict:
    """Soft (softmax at τ) and hard (argmax) selection on the learner's scores."""
    return grouped_bars(
        names,
        [(f"softmax(s / {tau:g})", soft, SOFT), ("argmax", hard, HARD)],
        title=_("Soft and hard selection at τ = {tau}").format(tau=f"{tau:g}"),
        value_title=_("weight"),
        name_title=_("score"),
        value_range=(0, 1.05),
    )


def temperature_paths(
    names: Sequence[str], taus: np.ndarray, path: np.ndarray, tau: float, soft: np.ndarray
) -> dict:
    """Each weight (path: (n_tau, T)) as τ changes, a diamond at the learner's τ on each."""
    colours = [PALETTE[j % len(PALETTE)] for j in range(len(names))]
    return lines(
        [(n, taus, path[:, j], colours[j], "spline") for j, n in enumerate(names)],
        title=_("Each weight as τ changes"),
        x_title=_("temperature τ (log scale)"),
        y_title=_("weight"),
        log_x=True,
        y_range=(0, 1.02),
        marks=[
            (_("{name} at your τ = {tau}").format(name=n, tau=f"{tau:g}"), tau, w, colours[j])
            for j, (n, w) in enumerate(zip(names, soft, strict=True))
        ],
    )


def nudge_lines(j: int, sweep, score: float, weight: float) -> dict:
    """Score j's soft and hard weight as it moves (`softmax_facts.vary_one`), the learner's
    score marked."""
    soft, hard = _("softmax weight of s{j}").format(j=j), _("argmax weight of s{j}").format(j=j)
    return lines(
        [
            (soft, sweep.values, sweep.soft[:, j], SOFT, "spline"),
            (hard, sweep.values, sweep.hard[:, j], HARD, "hv"),
        ],
        title=_("Weight of s{j} as its score moves (the others fixed)").format(j=j),
        x_title=_("value of s{j}").format(j=j),
        y_title=_("weight"),
        y_range=(-0.02, 1.05),
        marks=[(_("your score"), score, weight, SOFT)],
    )


def sigmoid_lines(grid: np.ndarray, sigmoid: np.ndarray, points, pair, s: float, at: float):
    """The sigmoid over `grid` and softmax({0, s})'s second weight at `points` on it, the
    learner's s (weight `at`) marked."""
    return lines(
        [
            ("sigmoid(s) = 1 / (1 + e^−s)", grid, sigmoid, HARD, "spline"),
            # no .format: the braces are the set {0, s}
            (_("softmax({0, s}), second weight"), points, pair, SOFT, "markers"),
        ],
        title=_("softmax({0, s}) lies on the sigmoid curve"),
        x_title="s",
        y_title=_("weight"),
        y_range=(-0.02, 1.05),
        marks=[(f"s = {s:g}", s, at, "#000000")],
    )


# --- 42 and 43, similarity and additive --------------------------------------------------


def retrieval_bars(titles: Sequence[str], weights: np.ndarray, hard: np.ndarray) -> dict:
    """Which videos come back: each title's softmax weight and the best match."""
    return grouped_bars(
        titles,
        [(_("soft: softmax weight"), weights, SOFT), (_("hard: best match"), hard, HARD)],
        title=_("Which videos come back"),
        value_title=_("share"),
        name_title=_("key: the video's title"),
        value_range=(0, 1.05),
    )


def value_bars(topics: Sequence[str], soft: np.ndarray, hard: np.ndarray) -> dict:
    """What comes back: the weighted mix of values against the best match's value."""
    return grouped_bars(
        topics,
        [
            (_("soft: weighted mix of values"), soft, SOFT),
            (_("hard: value of the best match"), hard, HARD),
        ],
        title=_("What comes back: the value"),
        value_title=_("share of topic"),
        name_title=_("topic"),
        value_range=(0, 1.05),
    )


def score_bars(tokens: Sequence[str], additive: np.ndarray, dot: np.ndarray) -> dict:
    """One target token's additive and scaled dot-product scores over the source tokens."""
    return grouped_bars(
        tokens,
        [(_("additive e_t,i"), additive, HARD), (_("dot product s·h / √d"), dot, SOFT)],
        title=_("Scores over the source tokens"),
        value_title=_("score"),
        name_title=_("source token"),
    )
