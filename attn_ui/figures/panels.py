"""Figures as the pages place them: a lesson matrix in the learner's layout, matrices side by
side, every head in small multiples, a row's weights at several temperatures, a lab's curve
against d. Each draws through ``matrix`` (heatmap and numbers), ``canvas_grid`` (a heatmap
alone), ``charts`` (canvas bar and line charts, ``chart.py``) or ``chart`` (a Plotly line,
bar or histogram figure, on the labs).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from attn_core.labs import scaling
from attn_ui.figures import canvas_grid, heatmap, plots
from attn_ui.figures.matrix import matrix, oriented_figure
from attn_ui.settings import LessonSettings
from attn_ui.tables import numbers, numbers_of, table

CHART_CONFIG = {"displaylogo": False, "toImageButtonOptions": {"format": "png", "scale": 2}}


def chart(fig: go.Figure, key: str) -> None:
    """A Plotly figure (lines, bars, histograms; heatmaps are `matrix`) across its column,
    with the PNG button, and its numbers as a table (`plots.numbers_table`).

    Its axes let tick labels overflow: automargin already makes room for them, and Plotly's
    default for a numeric axis ("hide past div") measures every label on every draw, half of
    a bar chart's drawing time with 32 turned token labels (bench/profile_browser.py)."""
    fig.update_xaxes(ticklabeloverflow="allow")
    fig.update_yaxes(ticklabeloverflow="allow")
    st.plotly_chart(fig, key=key, config=CHART_CONFIG, width="stretch")
    # its numbers, for a screen reader or a keyboard (a Plotly chart reads out nothing)
    label = f"Numbers of {plots.chart_name(fig)} (table, CSV download)"
    numbers(label, lambda: plots.numbers_table(fig), key=key)


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
    row_title: str = "token",
    col_title: str = "feature",
) -> None:
    """A matrix with one row per token (or any rows: `tokens` are just labels) and named columns."""
    matrix(
        m,
        tokens,
        cols,
        name=name,
        by_hand_name=by_hand,
        row_title=row_title,
        col_title=col_title,
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
            name=f"head {h}: A_{h}",
            kind="weights",
            columns=s.columns,
            show_numbers=s.show_numbers,
        )
        figs.append(fig)
        made[name] = lambda m=m, rows=rows, cols=cols: table(m, rows, cols)
    canvas_grid.show([canvas_grid.section(figs, widths=[1] * per_row)], key="mh_heads")
    numbers_of("Numbers of every head's A (tables, CSV download)", made, key="mh_heads")


def sweep_chart(sweep, taus, tau: float, tokens, *, title: str, s: LessonSettings, key: str):
    """One row's weights at several temperatures, one heatmap row per temperature."""
    rows = [f"τ = {x:g}" + ("  (yours)" if x == tau else "") for x in taus]
    fig = heatmap.figure(
        sweep,
        rows,
        tokens,
        title=title,
        kind="weights",
        row_title="temperature",
        col_title="key",
        show_numbers=s.show_numbers,
    )
    canvas_grid.figure(fig, key=key)
    label = f"Numbers of {title} (table, CSV download)"
    numbers(label, lambda: table(sweep, rows, tokens), key=key)


def saturation_chart(
    sweep: scaling.ScaleSweep,
    sample: scaling.ScaleSample,
    field: str,
    *,
    title: str,
    y_title: str,
    log_y=False,
    closed=(),
) -> None:
    """One `Saturation` field against d, unscaled (red) and scaled (blue), the learner's d
    marked; the variance gets error bars of 2 sampling errors."""
    series, marks = [*closed], []
    for name, scaled, colour in (
        ("q·k", False, plots.UNSCALED),
        ("q·k / √d", True, plots.SCALED),
    ):
        error = None
        if field == "variance":
            error = [
                2
                * scaling.variance_standard_error(
                    int(d), sample.n_queries, sample.n_keys, scaled=scaled
                )
                for d in sweep.d
            ]
        series.append(
            (f"{name}, simulated", sweep.column(field, scaled=scaled), colour, None, error)
        )
        mark = getattr(scaling.saturation(sample, scaled=scaled), field)
        marks.append((f"{name} at your d", mark, colour))
    fig = plots.sweep_figure(
        sweep.d, series, sample.d, title=title, y_title=y_title, log_y=log_y, marks=marks
    )
    chart(fig, f"why_scale_{field}")
