"""Lab: why divide by √d? Random queries and keys, their variance, and the softmax they feed."""

import numpy as np
import streamlit as st

from attn_core import why_scale
from attn_ui import labs_a, layout, views
from attn_ui import labs_a_charts as charts

layout.page(__file__)
c = st.columns([2, 1, 1])
d = c[0].slider("d: entries in q and k", 1, why_scale.MAX_D, 64, key="why_scale_d")
n_keys = c[1].select_slider("keys per row (softmax length)", labs_a.KEYS, 8, key="why_scale_keys")
seed = int(c[2].number_input("seed", 0, 10_000, 0, step=1, key="why_scale_seed"))
sample, sweep = labs_a.scale_sample(d, n_keys, seed), labs_a.scale_sweep(n_keys, seed)
st.caption(
    f"{sample.n_queries} random queries, each against its own {n_keys} random keys: "
    f"{sample.scores.size:,} scores per d, entries N(0, 1), seed {seed}."
)

st.subheader("1. The variance of q·k grows like d; divided by √d it stays 1")
c = st.columns([3, 2])
with c[0]:
    closed = [
        ("closed form: d", sweep.d, charts.CLOSED, "dash", None),
        ("closed form: 1", np.ones(len(sweep.d)), charts.CLOSED, "dot", None),
    ]
    labs_a.saturation_chart(
        sweep,
        sample,
        "variance",
        title="Variance of the scores against d",
        y_title="variance (log scale)",
        log_y=True,
        closed=closed,
    )
with c[1]:
    fig = charts.histogram(
        [("q·k", sample.scores, charts.UNSCALED), ("q·k / √d", sample.scaled, charts.SCALED)],
        title=f"The scores at d = {d}",
        x_title="score",
    )
    views.chart(fig, "why_scale_hist")
st.markdown(f"**At your d = {d}**, measured (the closed forms are d = {d} and 1):")
st.dataframe(labs_a.saturation_table(sample), key="why_scale_table", width="stretch")

st.subheader("2. Unscaled, the softmax saturates")
c = st.columns(2)
with c[0]:
    labs_a.saturation_chart(
        sweep, sample, "max_weight", title="Largest weight in a row", y_title="weight"
    )
with c[1]:
    uniform = f"uniform: ln {n_keys} = {np.log(n_keys):.2f}"
    labs_a.saturation_chart(
        sweep, sample, "entropy", title=f"Entropy of a row ({uniform})", y_title="nats"
    )

st.subheader("3. ... and its gradient vanishes")
c = st.columns(2)
with c[0]:
    labs_a.saturation_chart(
        sweep,
        sample,
        "grad_norm",
        title="Size of the softmax Jacobian ‖J‖",
        y_title="‖J‖ (Frobenius norm)",
    )
with c[1]:
    labs_a.saturation_chart(
        sweep, sample, "grad_max", title="Largest entry of the Jacobian", y_title="max |J_ij|"
    )
st.markdown(
    f"**One row at d = {d}** (query 0 and its {n_keys} keys): its weights, and its "
    "Jacobian J = diag(p) − p pᵀ on one colour scale, ±0.25 (the largest possible)."
)
keys = [f"k{j}" for j in range(n_keys)]
p_u, p_s = sample.weights_unscaled[0], sample.weights_scaled[0]
fig = charts.grouped_bars(
    keys,
    [("softmax(q·k)", p_u, charts.UNSCALED), ("softmax(q·k / √d)", p_s, charts.SCALED)],
    title="Weights of query 0",
    value_title="weight",
    name_title="key",
    value_range=(0, 1.05),
)
views.chart(fig, "why_scale_row")
c = st.columns(2)
for n, (p, name) in enumerate(((p_u, "J of softmax(q·k)"), (p_s, "J of softmax(q·k / √d)"))):
    jac = why_scale.softmax_jacobian(p)
    with c[n]:
        views.matrix(
            jac,
            keys,
            keys,
            name=name,
            limit=0.25,
            row_title="weight p_i",
            col_title="score s_j",
            show_numbers=n_keys <= 8,
            key=f"why_scale_jac{n}",
        )

layout.footer(__file__)
