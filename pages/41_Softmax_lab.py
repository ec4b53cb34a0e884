"""Lab: softmax with a temperature, softmax({0, s}) = sigmoid(s), and soft against hard choice."""

import numpy as np
import streamlit as st

import attn_core
from attn_core import AttentionInputError, explain, softmax_facts
from attn_ui import labs_a, layout, views
from attn_ui import labs_a_charts as charts

TAUS = (0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0)
SWEEP_TAUS = np.geomspace(0.05, 20, 60)
S_GRID, S_POINTS = np.linspace(-10, 10, 201), np.arange(-10, 10.5, 1.0)

layout.page(__file__)
st.subheader("1. Soft and hard selection on your scores")
c = st.columns([2, 1])
raw = c[0].text_input(
    "Your scores: 2 to 12 numbers, separated by commas",
    "2, 1, 0.5, -1",
    max_chars=200,
    key="softmax_lab_scores",
)
tau = c[1].select_slider("temperature τ", TAUS, 1.0, key="softmax_lab_tau")
try:
    scores = softmax_facts.parse_scores(raw)
except AttentionInputError as exc:
    views.show_error(exc)
    scores = None
if scores is not None:
    names = [f"s{j} = {v:g}" for j, v in enumerate(scores)]
    soft, hard = attn_core.softmax(scores, temperature=tau), softmax_facts.hardmax(scores)
    c = st.columns(2)
    fig = charts.grouped_bars(
        names,
        [(f"softmax(s / {tau:g})", soft, charts.SOFT), ("argmax", hard, charts.HARD)],
        title=f"Soft and hard selection at τ = {tau:g}",
        value_title="weight",
        name_title="score",
        value_range=(0, 1.05),
    )
    with c[0]:
        views.chart(fig, "softmax_lab_bars")
    path = explain.temperature_sweep(scores, SWEEP_TAUS)  # (n_tau, T)
    colours = [charts.PALETTE[j % len(charts.PALETTE)] for j in range(len(scores))]
    fig = charts.lines(
        [(n, SWEEP_TAUS, path[:, j], colours[j], "spline") for j, n in enumerate(names)],
        title="Each weight as τ changes",
        x_title="temperature τ (log scale)",
        y_title="weight",
        log_x=True,
        y_range=(0, 1.02),
        marks=[(f"your τ = {tau:g}", tau, w, colours[j]) for j, w in enumerate(soft)],
    )
    with c[1]:
        views.chart(fig, "softmax_lab_path")
    st.dataframe(labs_a.selection_table(scores, tau, soft, hard), key="softmax_lab_table")

    st.markdown("**Nudge one score** and watch both selections respond.")
    j = st.selectbox(
        "Score to move", range(len(scores)), format_func=names.__getitem__, key="softmax_lab_j"
    )
    moved = np.linspace(scores.min() - 4, scores.max() + 4, 161)
    sweep = softmax_facts.vary_one(scores, j, moved, tau)
    fig = charts.lines(
        [
            (f"softmax weight of s{j}", moved, sweep.soft[:, j], charts.SOFT, "spline"),
            (f"argmax weight of s{j}", moved, sweep.hard[:, j], charts.HARD, "hv"),
        ],
        title=f"Weight of s{j} as its score moves (the others fixed)",
        x_title=f"value of s{j}",
        y_title="weight",
        y_range=(-0.02, 1.05),
        marks=[("your score", scores[j], soft[j], charts.SOFT)],
    )
    views.chart(fig, "softmax_lab_nudge")
    st.caption(
        f"Slope of the softmax weight at your score: p (1 − p) / τ = "
        f"{soft[j] * (1 - soft[j]) / tau:.4f}. Slope of argmax: 0, except at its jump, "
        "where it has none."
    )

st.subheader("2. Two scores: softmax({0, s}) is the sigmoid of s")
s = st.slider("s", -10.0, 10.0, 6.0, step=0.5, key="softmax_lab_s")
c = st.columns([3, 2])
pair = softmax_facts.softmax_pair(S_POINTS)[:, 1]  # second weight of softmax({0, s})
fig = charts.lines(
    [
        (
            "sigmoid(s) = 1 / (1 + e^−s)",
            S_GRID,
            softmax_facts.sigmoid(S_GRID),
            charts.HARD,
            "spline",
        ),
        ("softmax({0, s}), second weight", S_POINTS, pair, charts.SOFT, "markers"),
    ],
    title="softmax({0, s}) lies on the sigmoid curve",
    x_title="s",
    y_title="weight",
    y_range=(-0.02, 1.05),
    marks=[(f"s = {s:g}", s, softmax_facts.softmax_pair(s)[1], "black")],
)
with c[0]:
    views.chart(fig, "softmax_lab_sigmoid")
with c[1]:
    st.dataframe(
        labs_a.sigmoid_table(s),
        key="softmax_lab_pair",
        width="stretch",
        column_config={"value": st.column_config.NumberColumn(format="%.6f")},
    )

layout.footer(__file__)
