"""Plotly figures for the labs 40-43: curves against d, grouped bars, histograms.

Figures only: every number comes from ``attn_core``. Axes that name tokens or titles are
indexed by position with escaped tick labels (Plotly merges repeated categories and renders
a subset of HTML); the heatmaps are ``attn_ui.figures.matrix``.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.colors import qualitative

from attn_ui.figures.heatmap_axes import safe_label, tick_labels

UNSCALED, SCALED, CLOSED = "#d62728", "#1f77b4", "#555555"  # red: q·k, blue: q·k / √d
SOFT, HARD = "#2b6cb0", "#dd6b20"  # softmax and argmax
PALETTE = qualitative.D3
D_TICKS = [1, 4, 16, 64, 256, 1024]


def _layout(fig: go.Figure, title: str, height: int = 340, **axes) -> go.Figure:
    """Title at the top left, the legend at the bottom of the figure (below the axis titles,
    however many rows it takes on a phone), the plot in between."""
    fig.update_layout(
        title={"text": safe_label(title), "x": 0, "font": {"size": 15}},
        margin={"l": 10, "r": 10, "t": 40, "b": 10},
        height=height,
        legend={"orientation": "h", "x": 0, "y": 0, "yref": "container", "yanchor": "bottom"},
        **axes,
    )
    return fig


def short(name: str, limit: int = 24) -> str:
    """A tick label of at most `limit` characters; the hover text keeps the whole name."""
    return name if len(name) <= limit else name[: limit - 1].rstrip() + "…"


def position_axis(names: Sequence[str], title: str, *, vertical: bool = False) -> dict:
    """An axis of positions 0..n-1 labelled with the (escaped) names; on a vertical axis
    long names are shortened, so the bars keep their room on a phone."""
    axis = {
        "tickmode": "array",
        "tickvals": list(range(len(names))),
        "ticktext": tick_labels([short(n) for n in names] if vertical else names),
        "title": title,
        "automargin": True,
    }
    if vertical:
        return axis | {"autorange": "reversed"}  # the first name on top, as in a table
    long = len(names) > 8 or max(len(n) for n in names) > 12 or sum(map(len, names)) > 40
    return axis | {"tickangle": -45 if long else 0}


def sweep_figure(d, series, your_d: int, *, title: str, y_title: str, log_y=False, marks=()):
    """Lines against d (log axis) with a dotted line at the learner's d.

    series : (name, y, colour, dash, error) tuples; dash None draws simulated points
    (markers and a thin line) with optional error bars, a dash name draws a closed form.
    marks : (name, y, colour) points at the learner's d, large diamonds named on hover only.
    """
    fig = go.Figure()
    for name, y, colour, dash, error in series:
        simulated = dash is None
        fig.add_scatter(
            x=np.asarray(d),
            y=np.asarray(y),
            name=name,
            mode="lines+markers" if simulated else "lines",
            line={"color": colour, "width": 1 if simulated else 2, "dash": dash or "solid"},
            error_y=None if error is None else {"array": np.asarray(error), "thickness": 1},
            hovertemplate=f"{name}<br>d = %{{x}}: %{{y:.4g}}<extra></extra>",
        )
    for name, y, colour in marks:
        fig.add_scatter(
            x=[your_d],
            y=[y],
            name=name,
            mode="markers",
            showlegend=False,
            marker={"color": colour, "size": 12, "symbol": "diamond", "line": {"width": 1}},
            hovertemplate=f"{name}<br>d = %{{x}}: %{{y:.4g}}<extra></extra>",
        )
    fig.add_vline(x=your_d, line={"dash": "dot", "color": CLOSED})
    axis_y = {"title": y_title}
    axis_y |= {"type": "log", "dtick": 1} if log_y else {"rangemode": "tozero"}
    axis_x = {"type": "log", "title": "d (log scale)", "tickvals": D_TICKS}
    return _layout(fig, title, xaxis=axis_x, yaxis=axis_y)


HISTOGRAM_BINS = 60


def bin_edges(values: Sequence[np.ndarray], n: int = HISTOGRAM_BINS) -> np.ndarray:
    """`n` equal bins over all the values, each [left, right), the largest value inside the
    last one: the edges a histogram draws and its table counts with."""
    lo = min(float(np.min(v)) for v in values)
    hi = max(float(np.max(v)) for v in values)
    size = (hi - lo) / n * (1 + 1e-9) or 1.0
    return lo + size * np.arange(n + 1)


def histogram(series, *, title: str, x_title: str) -> go.Figure:
    """Overlaid histograms: (name, values, colour) tuples, in the same HISTOGRAM_BINS bins
    (`bin_edges`), so that the chart and its table (`numbers_table`) count alike."""
    edges = bin_edges([np.ravel(v) for _, v, _ in series])
    bins = {"start": float(edges[0]), "end": float(edges[-1]), "size": float(edges[1] - edges[0])}
    fig = go.Figure()
    for name, values, colour in series:
        fig.add_histogram(
            x=np.ravel(values), name=name, marker_color=colour, opacity=0.6, xbins=bins
        )
    fig.update_layout(barmode="overlay")
    return _layout(fig, title, xaxis={"title": x_title}, yaxis={"title": "count"})


def grouped_bars(
    names: Sequence[str],
    series,
    *,
    title: str,
    value_title: str,
    name_title: str,
    value_range=None,
    height: int = 340,
    horizontal: bool = False,
) -> go.Figure:
    """One group of bars per name: (label, values, colour) tuples.

    horizontal=True puts the names on the y axis, for long names such as titles.
    """
    fig = go.Figure()
    labels, pos = tick_labels(names), list(range(len(names)))
    for label, values, colour in series:
        v = np.asarray(values, dtype=float)
        fig.add_bar(
            x=v if horizontal else pos,
            y=pos if horizontal else v,
            name=label,
            orientation="h" if horizontal else "v",
            marker_color=colour,
            customdata=labels,
            hovertemplate=f"{label}<br>%{{customdata}}: %{{{'x' if horizontal else 'y'}:.4f}}"
            "<extra></extra>",
        )
    fig.update_layout(barmode="group", bargap=0.2)
    values = {"title": value_title, **({"range": list(value_range)} if value_range else {})}
    names_axis = position_axis(names, name_title, vertical=horizontal)
    if horizontal:
        return _layout(fig, title, height, xaxis=values, yaxis=names_axis)
    return _layout(fig, title, height, xaxis=names_axis, yaxis=values)


def lines(
    series, *, title: str, x_title: str, y_title: str, marks=(), log_x=False, y_range=None
) -> go.Figure:
    """Curves: (name, x, y, colour, shape) with shape "spline", "hv" (a step) or "markers";
    colour None takes the next colour of the palette.

    marks : (name, x, y, colour) points drawn as large diamonds, named on hover only.
    """
    fig = go.Figure()
    for n, (name, x, y, colour, shape) in enumerate(series):
        colour = colour or PALETTE[n % len(PALETTE)]
        fig.add_scatter(
            x=np.asarray(x),
            y=np.asarray(y),
            name=name,
            mode="markers" if shape == "markers" else "lines",
            line={"color": colour, "shape": "linear" if shape == "markers" else shape},
            marker={"color": colour, "size": 7},
            hovertemplate=f"{safe_label(name)}<br>%{{x:.3g}}: %{{y:.4f}}<extra></extra>",
        )
    for name, mx, my, colour in marks:
        fig.add_scatter(
            x=[mx],
            y=[my],
            name=name,
            mode="markers",
            showlegend=False,
            hovertemplate=f"{name}: %{{y:.4f}}<extra></extra>",
            marker={
                "color": colour,
                "size": 12,
                "symbol": "diamond",
                "line": {"color": "black", "width": 1},
            },
        )
    axis_x = {"title": x_title, **({"type": "log", "dtick": 1} if log_x else {})}
    axis_y = {"title": y_title, **({"range": list(y_range)} if y_range else {})}
    return _layout(fig, title, xaxis=axis_x, yaxis=axis_y)


def _plain(v) -> np.ndarray | None:
    """A trace's array as NumPy: a list, a tuple, an array or Plotly's typed array."""
    if v is None:
        return None
    if isinstance(v, dict) and "bdata" in v:  # Plotly 6 typed array
        return np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"])
    return np.asarray(v)


def _names(axis) -> dict:
    """Position -> label on an axis of positions labelled with (escaped) tick text."""
    if axis is None or axis.tickvals is None or axis.ticktext is None:
        return {}
    return {v: html.unescape(str(t)) for v, t in zip(axis.tickvals, axis.ticktext, strict=False)}


def _column(name: str, taken) -> str:
    """`name`, or "name (2)", "name (3)", ... when a trace of that name came before."""
    n, out = 1, name
    while out in taken or f"{out} (count)" in taken:
        n += 1
        out = f"{name} ({n})"
    return out


def chart_name(fig: go.Figure) -> str:
    """What a chart is called on its table: its title, else its y axis's, else "this chart"."""
    layout = fig.layout
    return html.unescape(layout.title.text or layout.yaxis.title.text or "this chart")


def numbers_table(fig: go.Figure) -> pd.DataFrame:
    """The numbers a Plotly chart draws, as a table for a screen reader and a CSV download.

    Lines and bars: one row per x (per y, for horizontal bars; an axis of positions shows
    its labels), one column per trace (a repeated name gets " (2)"), each error bar a column
    of its own. Histograms: one row per bin, its count for each trace (the bins the chart
    draws, `bin_edges`). When the traces do not share their x (a mark at one point) or one
    repeats an x: one row per point instead, never an empty cell.
    """
    layout = fig.layout
    columns: dict[str, pd.Series] = {}
    index_title = "x"
    for k, trace in enumerate(fig.data):
        name = _column(html.unescape(trace.name or f"series {k}"), columns)
        if trace.type == "histogram":
            b = trace.xbins
            edges = np.arange(b.start, b.end + b.size / 2, b.size)
            counts, _ = np.histogram(_plain(trace.x), bins=edges)
            index = [f"[{a:.3g}, {z:.3g})" for a, z in zip(edges[:-1], edges[1:], strict=True)]
            columns[f"{name} (count)"] = pd.Series(counts, index=index)
            index_title = f"{layout.xaxis.title.text or 'value'} (bin)"
            continue
        horizontal = getattr(trace, "orientation", None) == "h"
        pos, val = (trace.y, trace.x) if horizontal else (trace.x, trace.y)
        axis = layout.yaxis if horizontal else layout.xaxis
        labels = _names(axis)
        index = [labels.get(p, p) for p in _plain(pos).tolist()]
        columns[name] = pd.Series(_plain(val).astype(float), index=index)
        error = getattr(trace, "error_y", None)
        if error is not None and error.array is not None:
            columns[f"{name}, error bar (±)"] = pd.Series(_plain(error.array), index=index)
        if axis.title.text:
            index_title = html.unescape(axis.title.text)
    if all(col.index.is_unique for col in columns.values()):
        out = pd.concat(columns, axis=1)
        if not out.isna().any(axis=None):  # every trace at every x: one row per x
            out.index.name = index_title
            return out
    rows = [(n, i, v) for n, col in columns.items() for i, v in col.items()]
    return pd.DataFrame(rows, columns=["series", index_title, "value"]).set_index("series")
