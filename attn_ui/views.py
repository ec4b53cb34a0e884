"""Drawing a matrix on a page: heatmap, shape, the by-hand transpose, and its numbers as a table."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import streamlit as st

from attn_ui.heatmap import heatmap

CHART_CONFIG = {"displaylogo": False, "toImageButtonOptions": {"format": "png", "scale": 2}}


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
    height: int | None = None,
) -> None:
    """Show `m` (R, C) as a heatmap titled with its name and shape, plus its table.

    columns=True shows the by-hand layout: the transpose, titled `by_hand_name`.
    """
    if columns:
        m, rows, cols = m.T, cols, rows
        row_title, col_title = col_title, row_title
        hover = None if hover is None else hover.T
        name = by_hand_name or f"({name})ᵀ"
    title = f"{name}   ({m.shape[0]} × {m.shape[1]})"
    fig = heatmap(
        m, rows, cols, title=title, kind=kind, row_title=row_title, col_title=col_title,
        show_numbers=show_numbers, hover=hover, height=height,
    )  # fmt: skip
    st.plotly_chart(fig, key=f"{key}_chart", config=CHART_CONFIG, width="stretch")
    with st.expander(f"Numbers of {name} (table, CSV download)"):
        st.dataframe(table(m, rows, cols), key=f"{key}_table")


def show_error(exc: Exception) -> None:
    """A learner-caused error, in words, with nothing else broken."""
    st.error(str(exc), icon=":material/error:")
