"""Bar, line and histogram charts, x-y planes and a head's weights as lines, drawn by the
heatmaps' canvas component: every chart of the app.

What a chart shows is decided here; canvas_chart.js draws it (canvas_links.js the lines of
`links`), inside the component of canvas_grid.py, so a page's charts and heatmaps share one
renderer and one bundle:

- bars are positions 0..n-1 (a repeated word keeps its own bar), labelled with the tokens
  or feature names as text (drawn as text: "<b>" stays "<b>");
- a masked value (-inf) is a flat grey bar marked −∞, never a missing bar;
- stacked bars add up: positive shares stack up from 0, negative ones down, and a
  "diamond" series marks each stack's sum;
- lines run against a numeric x axis, linear or logarithmic; a dotted vertical line can
  mark the learner's own setting; a series may have x values of its own (a fit over some
  of the x, a diamond at the learner's point), error bars, and labels on its points;
- a histogram counts samples in equal bins (`bin_edges`), its series overlaid;
- a plane (`plane`) draws paths and points in x and y with a unit as long both ways;
- the hover, and the arrow keys on a focused chart, read out each value (a live region
  for screen readers); a PNG link saves the chart.

Why not Plotly, which drew them before: a page's first Plotly chart loads Plotly's 4.7 MB
bundle, Streamlit remounts a Plotly chart whose data changed, so every new sentence drew
the charts from scratch, and a Plotly chart reads nothing out to a screen reader. With these
charts on canvas, Scaling, Softmax and Weighted sum open and answer as fast as the other
step pages (bench/bench_pages.py; the figures are in docs/benchmarks.md), and the labs'
charts are read with the keyboard like the heatmaps.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from attn_lessons.i18n import N_, _, ngettext
from attn_ui.figures.heatmap import encode

BAR = "#2b6cb0"
INK = "#262730"
# "line": a line through marked points; "curve", "dash", "dot": a solid, dashed or dotted
# line; "step": a step at each x; "points": points only; "diamond": a large point each
STYLES = ("bar", "line", "curve", "dash", "dot", "step", "points", "diamond")
HISTOGRAM_BINS = 60
# What a screen reader calls a chart (its aria-roledescription), by `kind`
KINDS = {
    "histogram": N_("histogram"),
    "x-y plane": N_("x-y plane"),
    "bar chart": N_("bar chart"),
    "line chart": N_("line chart"),
}


def _numbers(name: str, values, what: str) -> np.ndarray:
    v = np.asarray(values, dtype=float).ravel()
    if not np.isfinite(v).all():
        raise ValueError(f"the series {name!r} has {what} that is not a number")
    return v


def series(
    name: str,
    values,
    colour: str = BAR,
    *,
    style: str = "bar",
    text: Sequence[str] | None = None,
    x=None,
    error=None,
    legend: bool = True,
) -> dict:
    """One series of a chart: a name, a value per position (-inf: masked; drawn as a flat
    grey bar marked −∞), a colour and a style (STYLES).

    text: what a bar says above it, or a point's label (drawn when there is room);
    x: the series' own x values, in a line chart whose series differ in their x (a fit over
    some of them, a mark at the learner's point, a path in a plane);
    error: each value's error bar, ± this much; legend=False: not named in the legend."""
    if style not in STYLES:
        raise ValueError(f"a series is drawn as one of {STYLES}, not {style!r}")
    v = np.asarray(values, dtype=float).ravel()
    if np.isnan(v).any() or np.isposinf(v).any():
        raise ValueError(f"the series {name!r} has a value that is not a number")
    out = {
        "name": str(name),
        "values": [None if math.isinf(x) else float(x) for x in v],
        "colour": colour,
        "style": style,
    }
    extra = {"text": text, "x": x, "error": error}
    for field, given in extra.items():
        if given is not None and len(given) != len(v):
            raise ValueError(f"the series {name!r} has {len(given)} {field} for {len(v)} values")
    if text is not None:
        out["text"] = [str(t) for t in text]
    if x is not None:
        out["x"] = _numbers(name, x, "an x").tolist()
    if error is not None:
        e = _numbers(name, error, "an error bar")
        if (e < 0).any():
            raise ValueError(f"the series {name!r} has a negative error bar")
        out["error"] = e.tolist()
    if not legend:
        out["legend"] = False
    return out


def _check(series_list: list[dict], n: int) -> None:
    """Every series has a value per position (one of its own x, if it has them)."""
    if not series_list:
        raise ValueError("a chart needs at least one series")
    for s in series_list:
        if "x" not in s and len(s["values"]) != n:
            raise ValueError(f"the series {s['name']!r} has {len(s['values'])} values, not {n}")


def bars(
    labels: Sequence[str],
    series_list: list[dict],
    *,
    title: str,
    x_title: str,
    y_title: str,
    y_range: tuple[float, float] | None = None,
    log_y: bool = False,
    stacked: bool = False,
    legend: bool = False,
    decimals: int = 3,
    height: int = 220,
) -> dict:
    """Bars at positions 0..n-1, labelled with `labels`; several "bar" series side by side,
    or stacked (`stacked`, positive shares up and negative down); "diamond" and line series
    are drawn over the bars (or alone: lines across named positions). height: of the plot
    area in px; legend: name each series below; decimals: of the values the hover reads."""
    labels = [str(x) for x in labels]
    _check(series_list, len(labels))
    if any("x" in s for s in series_list):
        raise ValueError("bars are at their positions: a series of its own x needs `lines`")
    if log_y and any(v is not None and v <= 0 for s in series_list for v in s["values"]):
        raise ValueError("a log axis needs positive values")
    return {
        "chart": "bars",
        "title": title,
        "x": {"title": x_title, "labels": labels},
        "y": {"title": y_title, "range": list(y_range) if y_range else None, "log": log_y},
        "series": series_list,
        "stacked": stacked,
        "legend": legend,
        "decimals": decimals,
        "height": height,
    }


def lines(
    x: Sequence[float] | None,
    series_list: list[dict],
    *,
    title: str,
    x_title: str,
    y_title: str,
    log_x: bool = False,
    log_y: bool = False,
    x_ticks: Sequence[float] | None = None,
    y_range: tuple[float, float] | None = None,
    y_from_zero: bool = False,
    mark: tuple[float, str] | None = None,
    height: int = 200,
) -> dict:
    """Lines against the numbers `x` (a log axis with `log_x`; ticks at `x_ticks` when given,
    else at the powers of 10 on a log axis), one per series, named in a legend below; a
    series with x values of its own (`series(x=...)`) is drawn at them (`x` may then be
    None, when every series has its own). `mark` = (x, text): a dotted vertical line at the
    learner's own x, with its text; `y_from_zero`: the value axis starts at 0 (a weight, a
    norm), else it hugs the values. The hover reads values to 4 significant digits (a curve
    runs from 0.001 to 512)."""
    x = [] if x is None else [float(v) for v in x]
    _check(series_list, len(x))
    every_x = x + [v for s in series_list for v in s.get("x", [])]
    if not every_x:
        raise ValueError("a line chart needs x values")
    if (log_x and min(every_x) <= 0) or (
        log_y and any(v is not None and v <= 0 for s in series_list for v in s["values"])
    ):
        raise ValueError("a log axis needs positive values")
    if log_x and x_ticks is None:  # whole powers of 10 (a 1-2-5 step of log10 x is not)
        lo, hi = min(every_x), max(every_x)
        x_ticks = [10.0**k for k in range(math.ceil(math.log10(lo)), 1 + int(math.log10(hi)))]
    return {
        "chart": "lines",
        "title": title,
        "x": {
            "title": x_title,
            "values": x,
            "log": log_x,
            "ticks": None if x_ticks is None else [float(t) for t in x_ticks],
        },
        "y": {
            "title": y_title,
            "range": list(y_range) if y_range else None,
            "log": log_y,
            "zero": y_from_zero,
        },
        "series": series_list,
        "stacked": False,
        "legend": True,
        "mark": {"x": float(mark[0]), "text": mark[1]} if mark else None,
        "height": height,
    }


def bin_edges(values: Sequence[np.ndarray], n: int = HISTOGRAM_BINS) -> np.ndarray:
    """`n` equal bins over all the values, each [left, right), the largest value inside the
    last one: the edges a histogram draws and its table counts with."""
    lo = min(float(np.min(v)) for v in values)
    hi = max(float(np.max(v)) for v in values)
    size = (hi - lo) / n * (1 + 1e-9) or 1.0
    return lo + size * np.arange(n + 1)


def histogram(
    samples: Sequence[tuple[str, np.ndarray, str]],
    *,
    title: str,
    x_title: str,
    bins: int = HISTOGRAM_BINS,
    height: int = 220,
) -> dict:
    """Overlaid histograms of (name, values, colour) samples, counted in the same `bins` equal
    bins over all of them (`bin_edges`): one bar per bin and sample, from edge to edge."""
    flat = [_numbers(name, v, "a sample") for name, v, _colour in samples]
    if not samples or not all(v.size for v in flat):
        raise ValueError("a histogram needs samples to count")
    edges = bin_edges(flat, bins)
    counts = [
        series(name, np.histogram(v, bins=edges)[0], colour)
        for (name, _values, colour), v in zip(samples, flat, strict=True)
    ]
    return {
        "chart": "histogram",
        "title": title,
        "x": {"title": x_title, "edges": edges.tolist(), "log": False, "ticks": None},
        "y": {"title": _("count"), "range": None, "log": False},
        "series": counts,
        "stacked": False,
        "legend": True,
        "height": height,
    }


def plane(
    series_list: list[dict],
    *,
    title: str,
    x_title: str,
    y_title: str,
    point_title: str | None = None,
    height: int = 320,
) -> dict:
    """Paths and points in an x-y plane (every series has its own x, `series(x=...)`), a unit as
    long across as up, the origin in the middle: a circle looks round. A point's label is its
    series' text; the hover names it "`point_title` <label>" ("point" unless given)."""
    if not series_list or any("x" not in s for s in series_list):
        raise ValueError("every series of a plane needs its own x")
    reach = max(abs(v) for s in series_list for v in (*s["x"], *s["values"]) if v is not None)
    end = 1.08 * reach or 1.0
    return {
        "chart": "lines",
        "title": title,
        "x": {"title": x_title, "values": [], "log": False, "ticks": None, "range": [-end, end]},
        "y": {"title": y_title, "range": [-end, end], "log": False},
        "series": series_list,
        "stacked": False,
        "legend": True,
        "mark": None,
        "equal": True,
        "pointTitle": _("point") if point_title is None else point_title,
        "height": height,
    }


def links(
    weights: np.ndarray, tokens: Sequence[str], query: int | None, *, title: str, floor: float
) -> dict:
    """(T, T) weights as lines from each query (left) to each key (right), as strong as the
    weight; weights under `floor` get none; only `query`'s lines when it is given."""
    w = np.asarray(weights)
    if w.shape != (len(tokens), len(tokens)) or not np.isfinite(w.astype(float)).all():
        raise ValueError("the lines need a square matrix of weights, one row per token")
    return {
        "chart": "links",
        "title": title,
        "tokens": [str(t) for t in tokens],
        "weights": encode(w),
        "query": query,
        "floor": float(floor),
    }


def kind(c: dict) -> str:
    """What a screen reader calls the chart `c` (a key of KINDS; canvas_chart.js `kindOf`)."""
    if c["chart"] == "histogram":
        return "histogram"
    if c.get("equal"):
        return "x-y plane"
    return "bar chart" if any(s["style"] == "bar" for s in c["series"]) else "line chart"


def _alone(c: dict) -> bool:
    """Whether each series is read on its own (js/chart_layout.js `alone`)."""
    return c["chart"] == "lines" and any("x" in s for s in c["series"])


def spoken(c: dict) -> dict[str, str]:
    """What a screen reader says of the chart `c`, in the page's language: its kind
    (aria-roledescription) and how to read it (aria-description). The browser's script has the
    same words in English (canvas_chart.js, canvas_links.js) for a chart sent without them."""
    if c["chart"] == "links":
        n = len(c["tokens"])
        # English says "queries" even of one: the same words as before
        how = ngettext(
            "Each of {n} queries joined to the keys it weighs, by lines as strong as the weights. "
            "The up and down arrow keys move from query to query and the left and right keys "
            "from key to key, reading each weight.",
            "Each of {n} queries joined to the keys it weighs, by lines as strong as the weights. "
            "The up and down arrow keys move from query to query and the left and right keys "
            "from key to key, reading each weight.",
            n,
        )
        return {"role": _("lines from queries to keys"), "description": how.format(n=n)}
    n, what = len(c["series"]), kind(c)
    fields = {"n": n, "x_title": c["x"]["title"]}
    if what == "histogram":
        first = ngettext(
            "A histogram of {n} series over {x_title}.",
            "A histogram of {n} series over {x_title}.",
            n,
        )
    elif what == "x-y plane":
        first = ngettext(
            "A x-y plane of {n} series over {x_title}.",
            "A x-y plane of {n} series over {x_title}.",
            n,
        )
    elif what == "bar chart":
        first = ngettext(
            "A bar chart of {n} series over {x_title}.",
            "A bar chart of {n} series over {x_title}.",
            n,
        )
    else:
        first = ngettext(
            "A line chart of {n} series over {x_title}.",
            "A line chart of {n} series over {x_title}.",
            n,
        )
    if _alone(c):
        keys = _(
            "The left and right arrow keys move along a series and the up and down keys from one "
            "series to the next, reading each value; the numbers are also in a table on this page."
        )
    else:
        keys = _(
            "The left and right arrow keys move along it and the up and down keys from one series "
            "to the next, reading each value; the numbers are also in a table on this page."
        )
    return {"role": _(KINDS[what]), "description": f"{first.format(**fields)} {keys}"}
