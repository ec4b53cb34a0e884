"""Tables of the tiled-attention page: each query row's running numbers after one block.

Text cells, so that m = −∞ (no allowed key read yet) reads as "−∞", never as a NaN or "-inf".
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import streamlit as st

from attn_core.tiled import TileStep
from attn_lessons.i18n import N_, _
from attn_ui.tables import labels

# the columns' names, translated where drawn (`running_table` and `running_columns` alike)
COLUMNS = (
    N_("m before"),
    N_("m (row max so far)"),
    N_("rescale exp(m before − m)"),
    N_("l (sum so far)"),
)
# Short headers, so that the four columns fit beside the query on a phone (390 px); each
# header's tooltip says what its column holds.
HEADERS = {
    COLUMNS[0]: (N_("m before"), N_("The row's largest score in the blocks before this one.")),
    COLUMNS[1]: (N_("m so far"), N_("The row's largest score so far, this block included.")),
    COLUMNS[2]: (
        N_("rescale"),
        N_("exp(m before − m): what l and u are multiplied by for the new m."),
    ),
    COLUMNS[3]: (N_("l so far"), N_("The sum so far of exp(s − m) over the keys read.")),
}


def number(x: float) -> str:
    """'1.2345', '−∞' for minus infinity."""
    return "−∞" if np.isneginf(x) else f"{x:.4f}"


def running_table(step: TileStep, before: TileStep | None, tokens: Sequence[str]) -> pd.DataFrame:
    """One row per query: m before the block, m after it, the rescale and l.

    On the first block there is no "before": m before is −∞ and the rescale is shown as "—"
    (it multiplies sums that are still 0)."""
    m_before = np.full(len(step.m), -np.inf) if before is None else before.m
    rescale = ["—"] * len(step.m) if before is None else [number(c) for c in step.rescale]
    return pd.DataFrame(
        {
            _(COLUMNS[0]): [number(x) for x in m_before],
            _(COLUMNS[1]): [number(x) for x in step.m],
            _(COLUMNS[2]): rescale,
            _(COLUMNS[3]): [number(x) for x in step.l],
        },
        index=pd.Index(labels(tokens), name=_("query")),
    )


def running_columns() -> dict:
    """`running_table`'s headers for st.dataframe's column_config: short, with tooltips."""
    return {
        _(name): st.column_config.TextColumn(_(label), help=_(help))
        for name, (label, help) in HEADERS.items()
    }
