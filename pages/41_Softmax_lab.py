"""Lab: softmax with a temperature, softmax({0, s}) = sigmoid(s), and soft against hard choice."""

import numpy as np
import streamlit as st

import attn_core
from attn_core.labs import softmax_facts
from attn_lessons.i18n import _
from attn_ui import frame, lab_tables, widgets
from attn_ui.figures import panels
from attn_ui.figures import plots as charts

TAUS = (0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0)
SWEEP_TAUS = np.geomspace(0.05, 20, 60)
S_GRID, S_POINTS = np.linspace(-10, 10, 201), np.arange(-10, 10.5, 1.0)

text = frame.page(__file__)
scores = None  # until they parse
with frame.beside(text):  # the two charts one above the other, the words beside them
    st.subheader(_("1. Soft and hard selection on your scores"))
    c = st.columns([2, 1])
    raw = c[0].text_input(
        _("Your scores: 2 to 12 numbers, separated by commas"),
        "2, 1, 0.5, -1",
        max_chars=200,
        key="softmax_lab_scores",
    )
    tau = c[1].select_slider(_("temperature τ"), TAUS, 1.0, key="softmax_lab_tau")
    with frame.stop_on_error(section=True):  # bad scores: say why; section 2 still works
        scores = softmax_facts.parse_scores(raw)
    if scores is not None:
        names = [f"s{j} = {v:g}" for j, v in enumerate(scores)]
        soft, hard = attn_core.softmax(scores, temperature=tau), softmax_facts.hardmax(scores)
        panels.chart(charts.selection_bars(names, soft, hard, tau), "softmax_lab_bars")
        path = softmax_facts.temperature_sweep(scores, SWEEP_TAUS)  # (n_tau, T)
        fig = charts.temperature_paths(names, SWEEP_TAUS, path, tau, soft)
        panels.chart(fig, "softmax_lab_path")
        st.dataframe(lab_tables.selection_table(scores, tau, soft, hard), key="softmax_lab_table")

if scores is not None:
    st.markdown(_("**Nudge one score** and watch both selections respond."))
    j = widgets.pick(_("Score to move"), dict(enumerate(names)), key="softmax_lab_j", default=0)
    moved = np.linspace(scores.min() - 4, scores.max() + 4, 161)
    sweep = softmax_facts.vary_one(scores, j, moved, tau)
    panels.chart(charts.nudge_lines(j, sweep, scores[j], soft[j]), "softmax_lab_nudge")
    st.caption(frame.fill(text["Slopes"], slope=f"{soft[j] * (1 - soft[j]) / tau:.4f}"))

st.subheader(_("2. Two scores: softmax({0, s}) is the sigmoid of s"))
s = st.slider("s", -10.0, 10.0, 6.0, step=0.5, key="softmax_lab_s")
c = st.columns([3, 2])
pair = softmax_facts.softmax_pair(S_POINTS)[:, 1]  # second weight of softmax({0, s})
sigmoid, at = softmax_facts.sigmoid(S_GRID), softmax_facts.softmax_pair(s)[1]
fig = charts.sigmoid_lines(S_GRID, sigmoid, S_POINTS, pair, s, at)
with c[0]:
    panels.chart(fig, "softmax_lab_sigmoid")
with c[1]:
    st.dataframe(
        lab_tables.sigmoid_table(s),
        key="softmax_lab_pair",
        width="stretch",
        # the table's "value" column, under its heading as shown
        column_config={_("value"): st.column_config.NumberColumn(format="%.6f")},
    )

frame.footer(__file__)
