"""Drawing on a page: a matrix as a heatmap with its shape, the by-hand transpose and its numbers
as a table; Plotly charts; a learner's error."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from attn_core import AttentionInputError
from attn_ui import canvas_grid
from attn_ui.heatmap import figure as heatmap_figure

CHART_CONFIG = {"displaylogo": False, "toImageButtonOptions": {"format": "png", "scale": 2}}

__all__ = [
    "CHART_CONFIG",
    "chart",
    "features",
    "labels",
    "matrix",
    "numbers",
    "numbers_of",
    "oriented",
    "show_error",
    "stop_on_error",
    "table",
]


def labels(names: Sequence[str]) -> list[str]:
    """'0 the', '1 cat', ...: unique even when a word repeats, so tables keep every row."""
    return [f"{i} {n}" for i, n in enumerate(names)]


def features(n: int, prefix: str = "f") -> list[str]:
    return [f"{prefix}{j}" for j in range(n)]


def table(m: np.ndarray, rows: Sequence[str], cols: Sequence[str]) -> pd.DataFrame:
    """The matrix as a DataFrame with unique, position-prefixed labels (masked cells: empty)."""
    m = np.where(np.isfinite(m), m, np.nan)
    return pd.DataFrame(m, index=labels(rows), columns=labels(cols))


def matrix(
    m: np.ndarray,
    rows: Sequence[str],
    cols: Sequence[str],
    *,
    name: str,
    by_hand_name: str | None = None,
    kind: str = "signed",
    row_title: str = "query",
    col_title: str = "key",
    columns: bool = False,
    show_numbers: bool = True,
    key: str,
    hover: np.ndarray | None = None,
    narrow: bool = False,
    limit: float | None = None,
    band: int | None = None,
) -> None:
    """Show `m` (R, C) as a heatmap titled with its name and shape, plus its table.

    columns=True shows the by-hand layout: the transpose, titled `by_hand_name`.
    kind, hover, narrow, limit, band: as in `attn_ui.heatmap.figure` (hover is (R, C), the
    matrix as given; it is transposed with it).
    """
    if columns:
        hover = None if hover is None else hover.T
    m, rows, cols, name, row_title, col_title = oriented(
        m,
        rows,
        cols,
        name=name,
        by_hand_name=by_hand_name,
        row_title=row_title,
        col_title=col_title,
        columns=columns,
    )
    fig = heatmap_figure(
        m,
        rows,
        cols,
        title=name,
        kind=kind,
        row_title=row_title,
        col_title=col_title,
        show_numbers=show_numbers,
        hover=hover,
        narrow=narrow,
        limit=limit,
        band=band,
    )
    canvas_grid.figure(fig, key=f"{key}_chart")
    numbers(f"Numbers of {name} (table, CSV download)", lambda: table(m, rows, cols), key=key)


def chart(fig: go.Figure, key: str) -> None:
    """A Plotly chart (lines, bars, histograms; heatmaps are `matrix`), as wide as its
    column, with a PNG button in its toolbar."""
    st.plotly_chart(fig, key=key, config=CHART_CONFIG, width="stretch")


def oriented(m, rows, cols, *, name, by_hand_name, row_title, col_title, columns):
    """The matrix as the learner asked to see it: as is, or (columns=True) the by-hand
    layout, its transpose with rows and columns swapped and its by-hand name."""
    if not columns:
        return m, rows, cols, name, row_title, col_title
    return m.T, cols, rows, by_hand_name or f"({name})ᵀ", col_title, row_title


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
        name = box.selectbox("Matrix", list(tables), key=f"{key}_pick")
        box.dataframe(tables[name](), key=f"{key}_table")


def show_error(exc: Exception) -> None:
    """A learner-caused error, in words, with nothing else broken."""
    st.error(str(exc), icon=":material/error:")


@contextmanager
def stop_on_error(*, show: Callable[[Exception], None] = show_error) -> Iterator[None]:
    """Run the block; on the core's AttentionInputError `show` it and end this run of the page.

    The page keeps working for the next input. st.stop() raises out of this generator, so
    the `with` does not swallow it: nothing after the block runs.
    """
    try:
        yield
    except AttentionInputError as exc:
        show(exc)
        st.stop()
