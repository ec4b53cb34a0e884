"""Input widgets the pages share beyond the lesson settings (``controls``): token pickers,
widgets whose value outlives a visit to another page, and the masking page's grid of ticks.

Widgets only: a mask is validated and attended by ``attn_core``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import streamlit as st

from attn_core.labs import masking
from attn_lessons.i18n import _
from attn_ui import state
from attn_ui.frame import fill
from attn_ui.tables import labels, table_height

CELL_PX = 58  # a checkbox column: narrow, so a 12-token grid fits a laptop screen
ROW_PX = 35  # Streamlit's default row height, fixed here so browser tests can find a cell


def pick_token(tokens: Sequence[str], *, label: str, key: str, default: int = 0) -> int:
    """A token chosen by its position ('4 the'), so both copies of a repeated word can be
    picked. A choice that a shorter sentence no longer has falls back to `default`."""
    names = labels(tokens)
    return pick(label, dict(enumerate(names)), key=key, default=min(default, len(names) - 1))


def pick(label: str, names: Mapping[int, str], *, key: str, default: int) -> int:
    """A selectbox of the positions in `names` (position -> label), whose labels change
    with the sentence; returns the chosen position.

    Streamlit keeps a keyed selectbox's value across a new sentence, and the browser keeps
    showing the old label ("1 the" over the options "0 dogs", "1 bark") until the server sends
    it a value. So a position the new labels lack falls back to `default`, and a kept position
    whose label changed is set again, which sends the browser its new label."""
    shown = f"{key}_shown"  # the label the browser was sent or picked on the last run
    choice = st.session_state.get(key)
    if choice not in names:
        st.session_state[key] = default
    elif names[choice] != st.session_state.get(shown):
        st.session_state[key] = choice  # the same value, set again: the browser relabels it
    choice = st.selectbox(label, list(names), format_func=names.__getitem__, key=key)
    st.session_state[shown] = names.get(choice)  # None: no options (an empty sentence)
    return choice


def remembered(page: str, name: str, default, *, options=None) -> dict:
    """Widget kwargs (key <page>_<name>) whose value survives a visit to another page, kept
    in the page's group (``state``: st.session_state[page]); the widget's key is written, so
    the page may read or move it before drawing the widget. `options`: the widget's choices
    when they change with the input; a kept value they lack falls back to `default`."""
    return state.bind_key(state.Group(page), name, default, options=options)


def choose(page: str, **values) -> None:
    """Set `remembered` widgets from code (a callback: it runs before the widgets are drawn)."""
    state.choose(state.Group(page), **values)


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
    mask = masking.bool_mask(edited.to_numpy(dtype=object), grid.shape)
    return mask.T if columns else mask


def custom_mask(preset: np.ndarray, tokens, s, text: dict[str, str]) -> np.ndarray:
    """The custom-mask toggle and, when it is on, the grid of ticks; returns the mask to use.

    s : the lesson settings (mask preset, by-hand layout); text : the page's lesson sections."""
    if not st.toggle(_("Edit the mask cell by cell (custom mask)"), key="mask_custom"):
        st.caption(text["The mask presets"])
        return preset
    if s.columns:
        grid = _("Columns are queries, rows are keys")
    else:
        grid = _("Rows are queries, columns keys")
    st.caption(fill(text["Editing the mask"], grid=grid))
    key = f"mask_editor_{s.mask}_{s.n_pad}_{s.window}_{s.columns}"  # a new grid per preset
    return mask_editor(preset, tokens, key=key, columns=s.columns)
