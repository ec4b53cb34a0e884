"""A matrix as a table: unique row labels, the lazy "Numbers of ..." boxes, shapes.

Tables keep every row of a sentence with a repeated word because their labels carry the
position ('0 the', '4 the'). Tables of one page or lab live in ``step_tables`` and
``lab_tables``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd
import streamlit as st


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
        name = box.selectbox("Matrix", list(tables), key=f"{key}_pick")
        box.dataframe(tables[name](), key=f"{key}_table")


def shapes_table(named: dict[str, np.ndarray | tuple], columns=("rows × columns",)):
    """'rows × columns' of each named matrix; with several columns (e.g. self and cross),
    each name maps to one matrix per column."""
    rows = [(m,) if isinstance(m, np.ndarray) else m for m in named.values()]
    shapes = [[" × ".join(map(str, np.shape(m))) for m in row] for row in rows]
    # a named index: its header cell has text (axe-core's empty-table-header)
    return pd.DataFrame(shapes, index=pd.Index(list(named), name="matrix"), columns=list(columns))
