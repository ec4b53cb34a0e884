"""A matrix or a chart as a table: unique row labels, the lazy "Numbers of ..." boxes, shapes.

Tables keep every row of a sentence with a repeated word because their labels carry the
position ('0 the', '4 the'). Tables of one page or lab live in ``step_tables`` and
``lab_tables``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd
import streamlit as st

from attn_lessons.i18n import _


def labels(names: Sequence[str]) -> list[str]:
    """'0 the', '1 cat', ...: unique even when a word repeats, so tables keep every row."""
    return [f"{i} {n}" for i, n in enumerate(names)]


def features(n: int, prefix: str = "f") -> list[str]:
    return [f"{prefix}{j}" for j in range(n)]


def table(m: np.ndarray, rows: Sequence[str], cols: Sequence[str]) -> pd.DataFrame:
    """The matrix as a DataFrame with unique, position-prefixed labels (masked cells: empty)."""
    m = np.where(np.isfinite(m), m, np.nan)
    return pd.DataFrame(m, index=labels(rows), columns=labels(cols))


def table_height(n_rows: int) -> int | str:
    """Show every row of a short table; scroll a long one (64 tokens would be 2,000+ px)."""
    return "content" if n_rows <= 20 else 600


def numbers(label: str, make: Callable[[], pd.DataFrame], *, key: str) -> None:
    """A table in an expander that is built only while the expander is open.

    A collapsed table still costs its DataFrame and its Arrow bytes on every rerun, a dozen
    times per step page; opening the expander reruns the page and draws it then.
    """
    box = st.expander(label, key=f"{key}_numbers", on_change="rerun")
    if box.open:
        box.dataframe(make(), key=f"{key}_table")


def numbers_of(label: str, tables: dict[str, Callable[[], pd.DataFrame]], *, key: str) -> None:
    """Like `numbers`, for many matrices: one expander, a choice of matrix, its table.

    One element per rerun instead of one per matrix, on the overview's thirteen."""
    box = st.expander(label, key=f"{key}_numbers", on_change="rerun")
    if box.open:
        name = box.selectbox(_("Matrix"), list(tables), key=f"{key}_pick")
        box.dataframe(tables[name](), key=f"{key}_table")


def shapes_table(named: dict[str, np.ndarray | tuple], columns=None):
    """'rows × columns' of each named matrix; with several columns (e.g. self and cross),
    each name maps to one matrix per column. columns: their headings, translated (None: the
    one column "rows × columns")."""
    columns = [_("rows × columns")] if columns is None else list(columns)
    rows = [(m,) if isinstance(m, np.ndarray) else m for m in named.values()]
    shapes = [[" × ".join(map(str, np.shape(m))) for m in row] for row in rows]
    # a named index: its header cell has text (axe-core's empty-table-header)
    return pd.DataFrame(shapes, index=pd.Index(list(named), name=_("matrix")), columns=columns)


def _unique(names: Sequence[str]) -> list[str]:
    """The names, a repeated one as "name (2)", "name (3)", ...: one column each."""
    out: list[str] = []
    for name in names:
        n, new = 1, name
        while new in out:
            n += 1
            new = f"{name} ({n})"
        out.append(new)
    return out


def _values(s: dict) -> list[float]:
    return [np.nan if v is None else v for v in s["values"]]  # None: masked, an empty cell


def chart_table(c: dict) -> pd.DataFrame:
    """The numbers a chart draws (attn_ui/figures/chart.py), for a screen reader and a CSV
    download: what the chart shows, from the same dict the browser draws.

    Bars: one row per bar, labelled with its position and label ("0 the"), one column per
    series. Histograms: one row per bin, "[left, right)", each series' count. Lines whose
    series share their x: one row per x and a column per series; else (a fit over some x, a
    mark at one point, a path in a plane) one row per point: its series, x and value (in a
    plane, its label, x and y). An error bar is a column of its own, "name, error bar (±)".
    """
    names = _unique([s["name"] for s in c["series"]])
    x_title = c["x"]["title"]
    if any("x" in s for s in c["series"]):  # one row per point
        y_title = c["y"]["title"] if c.get("equal") else _("value")
        series = _("series")
        rows = []
        for name, s in zip(names, c["series"], strict=True):
            xs = s.get("x", c["x"]["values"])
            for i, (x, v) in enumerate(zip(xs, _values(s), strict=True)):
                row = {series: name}
                if any("text" in t for t in c["series"]):
                    row[c.get("pointTitle", _("point"))] = s["text"][i] if "text" in s else ""
                row |= {x_title: x, y_title: v}
                if any("error" in t for t in c["series"]):
                    row[_("error bar (±)")] = s["error"][i] if "error" in s else np.nan
                rows.append(row)
        return pd.DataFrame(rows).set_index(series)
    columns: dict[str, list] = {}
    for name, s in zip(names, c["series"], strict=True):
        if c["chart"] == "histogram":
            columns[_("{name} (count)").format(name=name)] = [int(v) for v in s["values"]]
            continue
        columns[name] = _values(s)
        if "error" in s:
            columns[_("{name}, error bar (±)").format(name=name)] = s["error"]
    if c["chart"] == "bars":
        index = pd.Index(labels(c["x"]["labels"]), name=x_title)
    elif c["chart"] == "histogram":
        e = c["x"]["edges"]
        bins = [f"[{a:.3g}, {b:.3g})" for a, b in zip(e[:-1], e[1:], strict=True)]
        index = pd.Index(bins, name=_("{title} (bin)").format(title=x_title))
    else:
        index = pd.Index(c["x"]["values"], name=x_title)
    return pd.DataFrame(columns, index=index)
