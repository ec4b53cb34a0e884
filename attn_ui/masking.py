"""The masking page's (7) mask: the sidebar's preset, the grid of ticks, and the trace under it.

Widgets only: the mask is validated and attended by ``attn_core``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import streamlit as st

import attn_core
from attn_core import Trace, explain
from attn_ui import compute
from attn_ui.controls import LessonSettings
from attn_ui.figures.matrix import labels
from attn_ui.steps_b import table_height

CELL_PX = 58  # a checkbox column: narrow, so a 12-token grid fits a laptop screen
ROW_PX = 35  # Streamlit's default row height, fixed here so browser tests can find a cell


def mask_editor(
    base: np.ndarray, tokens: Sequence[str], *, key: str, columns: bool = False
) -> np.ndarray:
    """A grid of checkboxes seeded with `base` (T_q, T_k); returns the ticked mask, validated.

    columns=True shows the by-hand layout (queries as columns); the mask returned is
    always (T_q, T_k). Raises the core's AttentionInputError for an empty cell or a bad shape.
    """
    names = labels(tokens)
    grid = base.T if columns else base
    df = pd.DataFrame(grid.astype(bool), index=names, columns=names)
    config = {n: st.column_config.CheckboxColumn(n, width=CELL_PX) for n in names}
    edited = st.data_editor(
        df,
        column_config=config,
        num_rows="fixed",
        key=key,
        height=table_height(len(df)),
        row_height=ROW_PX,
    )
    mask = explain.bool_mask(edited.to_numpy(dtype=object), grid.shape)
    return mask.T if columns else mask


def custom_mask(preset: np.ndarray, tokens, s: LessonSettings) -> np.ndarray:
    """The custom-mask toggle and, when it is on, the grid of ticks; returns the mask to use."""
    if not st.toggle("Edit the mask cell by cell (custom mask)", key="mask_custom"):
        st.caption("Pick causal, padding or local window in the sidebar, or edit the mask here.")
        return preset
    grid = "Columns are queries, rows are keys" if s.columns else "Rows are queries, columns keys"
    st.caption(f"{grid}. Ticked = may attend, unticked = masked. It starts as the sidebar's mask.")
    key = f"mask_editor_{s.mask}_{s.n_pad}_{s.window}_{s.columns}"  # a new grid per preset
    return mask_editor(preset, tokens, key=key, columns=s.columns)


def preset_mask(s: LessonSettings, t: int) -> np.ndarray:
    """The sidebar's mask as a (T, T) boolean grid; no mask is a grid of True."""
    mask = compute.lesson_mask(s, t)
    return attn_core.window_mask(t, t) if mask is None else mask  # width T: global


def masked_trace(t: Trace, mask: np.ndarray | None, temperature: float) -> Trace:
    """The same q, k, v and scale as `t`, attended under another mask."""
    return attn_core.attention(t.q, t.k, t.v, mask=mask, scale=t.scale, temperature=temperature)
