"""Figures as the pages place them: a lesson matrix in the learner's layout, matrices side by
side, every head in small multiples, a row's weights at several temperatures, a lab's curve
against d. Each draws through ``matrix`` (heatmap and numbers), ``canvas_grid`` (a heatmap
alone), ``chart`` (one chart of ``chart.py`` and its numbers) or ``charts`` (several side
by side): one canvas component draws them all.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import streamlit as st

from attn_lessons.i18n import _
from attn_ui.figures import canvas_grid, heatmap
from attn_ui.figures.matrix import matrix, oriented_figure
from attn_ui.settings import LessonSettings
from attn_ui.tables import chart_table, numbers, numbers_of, table


def chart(fig: dict, key: str, *, numbers_box: bool = True) -> None:
    """One chart of `chart.py` across its column (hover, arrow keys and a live region read
    its values; a PNG link saves it), and its numbers in a lazy table under it, "Numbers of
    <title>" (`tables.chart_table`), unless `numbers_box` is False (the page shows them)."""
    canvas_grid.figure(fig, key=key)
    if numbers_box:
        label = _("Numbers of {name} (table, CSV download)").format(name=fig["title"])
        numbers(label, lambda: chart_table(fig), key=key)


def charts(figs: list[dict], key: str, *, per_row: int = 2) -> None:
    """Canvas charts (`chart.py`: bars, lines) side by side, `per_row` to a row (one per line on
    a phone), in one browser component with the heatmaps' renderer."""
    canvas_grid.show([canvas_grid.section(figs, widths=[1] * per_row)], key=key)


def square(
    m: np.ndarray,
    tokens,
    s: LessonSettings,
    *,
    name: str,
    key: str,
    by_hand: str | None = None,
    kind: str = "signed",
) -> None:
    """A (T, T) matrix, queries by keys, in the learner's layout and with their number setting."""
    matrix(
        m,
        tokens,
        tokens,
        name=name,
        by_hand_name=by_hand,
        kind=kind,
        key=key,
        columns=s.columns,
        show_numbers=s.show_numbers,
    )


def per_token(
    m: np.ndarray,
    tokens,
    cols,
    s: LessonSettings,
    *,
    name: str,
    key: str,
    by_hand: str | None = None,
    row_title: str | None = None,
    col_title: str | None = None,
) -> None:
    """A matrix with one row per token (or any rows: `tokens` are just labels) and named columns
    (row_title, col_title: "token" and "feature" unless given)."""
    matrix(
        m,
        tokens,
        cols,
        name=name,
        by_hand_name=by_hand,
        row_title=_("token") if row_title is None else row_title,
        col_title=_("feature") if col_title is None else col_title,
        key=key,
        columns=s.columns,
        show_numbers=s.show_numbers,
    )


def in_a_row(
    mats: dict[str, np.ndarray], rows, cols: list, *, by_hand: list[str], key: str, **kw
) -> None:
    """`matrix` for each named matrix, side by side (stacked on a phone)."""
    parts = zip(st.columns(len(mats)), mats.items(), cols, by_hand, strict=True)
    for n, (col, (name, m), c, hand) in enumerate(parts):
        with col:
            matrix(m, rows, c, name=name, by_hand_name=hand, key=f"{key}{n}", **kw)


def heads_grid(weights: Sequence[np.ndarray], tokens, s: LessonSettings) -> None:
    """Small multiples: every head's (T, T) weights, 4 to a row (2 for longer sentences), in
    one browser component with one "Numbers" box for all of them, as on the overview: one
    component instead of one per head (bench/bench_pages.py)."""
    per_row = min(len(weights), 4 if len(tokens) <= 6 else 2)  # long sentences need width
    figs, made = [], {}
    for h, w in enumerate(weights):
        fig, m, rows, cols, name = oriented_figure(
            w,
            tokens,
            tokens,
            name=_("head {head}: A_{head}").format(head=h),
            kind="weights",
            columns=s.columns,
            show_numbers=s.show_numbers,
        )
        figs.append(fig)
        made[name] = lambda m=m, rows=rows, cols=cols: table(m, rows, cols)
    canvas_grid.show([canvas_grid.section(figs, widths=[1] * per_row)], key="mh_heads")
    numbers_of(_("Numbers of every head's A (tables, CSV download)"), made, key="mh_heads")


def sweep_chart(sweep, taus, tau: float, tokens, *, title: str, s: LessonSettings, key: str):
    """One row's weights at several temperatures, one heatmap row per temperature."""
    rows = [
        _("τ = {tau}  (yours)").format(tau=f"{x:g}") if x == tau else f"τ = {x:g}" for x in taus
    ]
    fig = heatmap.figure(
        sweep,
        rows,
        tokens,
        title=title,
        kind="weights",
        row_title=_("temperature"),
        col_title=_("key"),
        show_numbers=s.show_numbers,
    )
    canvas_grid.figure(fig, key=key)
    label = _("Numbers of {name} (table, CSV download)").format(name=title)
    numbers(label, lambda: table(sweep, rows, tokens), key=key)
