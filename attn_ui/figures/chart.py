"""Bar and line charts that read like the maths, drawn by the heatmaps' canvas component.

What a chart shows is decided here; canvas_chart.js draws it (inside the component of
canvas_grid.py, so a page's charts and heatmaps share one renderer and one bundle):

- bars are positions 0..n-1 (a repeated word keeps its own bar), labelled with the tokens
  or feature names as text (drawn as text: "<b>" stays "<b>");
- a masked value (-inf) is a flat grey bar marked −∞, never a missing bar;
- stacked bars add up: positive shares stack up from 0, negative ones down, and a
  "diamond" series marks each stack's sum;
- lines run against a numeric x axis, linear or logarithmic; a dotted vertical line can
  mark the learner's own setting;
- the hover, and the arrow keys on a focused chart, read out each value (a live region
  for screen readers); a PNG link saves the chart.

Why not Plotly, which drew them before: a step page's first Plotly chart loads Plotly's
4.7 MB bundle, and Streamlit remounts a Plotly chart whose data changed, so every new
sentence drew the charts from scratch. With these charts on canvas, Scaling, Softmax and
Weighted sum open and answer as fast as the other step pages (bench/bench_pages.py; the
figures are in docs/benchmarks.md).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

BAR = "#2b6cb0"
INK = "#262730"


def series(
    name: str, values, colour: str = BAR, *, style: str = "bar", text: Sequence[str] | None = None
) -> dict:
    """One series of a chart: a name, a value per position (-inf: masked; drawn as a flat
    grey bar marked −∞), a colour and a style: "bar", "line" (a line through marked
    points), "dash" (a dashed line, no points) or "diamond" (a large point per position).
    text: what a bar says above it (bars only; drawn when there is room)."""
    v = np.asarray(values, dtype=float)
    if np.isnan(v).any() or np.isposinf(v).any():
        raise ValueError(f"the series {name!r} has a value that is not a number")
    out = {
        "name": str(name),
        "values": [None if math.isinf(x) else float(x) for x in v],
        "colour": colour,
        "style": style,
    }
    if text is not None:
        out["text"] = [str(t) for t in text]
    return out


def _check(series_list: list[dict], n: int) -> None:
    if not series_list:
        raise ValueError("a chart needs at least one series")
    for s in series_list:
        if len(s["values"]) != n:
            raise ValueError(f"the series {s['name']!r} has {len(s['values'])} values, not {n}")


def bars(
    labels: Sequence[str],
    series_list: list[dict],
    *,
    title: str,
    x_title: str,
    y_title: str,
    y_range: tuple[float, float] | None = None,
    stacked: bool = False,
    legend: bool = False,
    decimals: int = 3,
    height: int = 220,
) -> dict:
    """Bars at positions 0..n-1, labelled with `labels`; several "bar" series side by side,
    or stacked (`stacked`, positive shares up and negative down); "diamond" series are drawn
    over the bars. height: of the plot area in px; legend: name each series below; decimals:
    of the values the hover reads."""
    labels = [str(x) for x in labels]
    _check(series_list, len(labels))
    return {
        "chart": "bars",
        "title": title,
        "x": {"title": x_title, "labels": labels},
        "y": {"title": y_title, "range": list(y_range) if y_range else None, "log": False},
        "series": series_list,
        "stacked": stacked,
        "legend": legend,
        "decimals": decimals,
        "height": height,
    }


def lines(
    x: Sequence[float],
    series_list: list[dict],
    *,
    title: str,
    x_title: str,
    y_title: str,
    log_x: bool = False,
    log_y: bool = False,
    x_ticks: Sequence[float] | None = None,
    y_range: tuple[float, float] | None = None,
    mark: tuple[float, str] | None = None,
    height: int = 200,
) -> dict:
    """Lines against the numbers `x` (a log axis with `log_x`; ticks at `x_ticks` when given,
    else at the powers of 10 on a log axis),
    one per series, named in a legend below; `mark` = (x, text): a dotted vertical line at
    the learner's own x, with its text. The hover reads values to 4 significant digits (a
    curve runs from 0.001 to 512)."""
    x = [float(v) for v in x]
    _check(series_list, len(x))
    if (log_x and min(x) <= 0) or (
        log_y and any(v is not None and v <= 0 for s in series_list for v in s["values"])
    ):
        raise ValueError("a log axis needs positive values")
    if log_x and x_ticks is None:  # whole powers of 10 (a 1-2-5 step of log10 x is not)
        x_ticks = [
            10.0**k for k in range(math.ceil(math.log10(min(x))), 1 + int(math.log10(max(x))))
        ]
    return {
        "chart": "lines",
        "title": title,
        "x": {
            "title": x_title,
            "values": x,
            "log": log_x,
            "ticks": [float(t) for t in x_ticks] if x_ticks else None,
        },
        "y": {"title": y_title, "range": list(y_range) if y_range else None, "log": log_y},
        "series": series_list,
        "stacked": False,
        "legend": True,
        "mark": {"x": float(mark[0]), "text": mark[1]} if mark else None,
        "height": height,
    }
