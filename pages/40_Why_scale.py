"""Lab: why divide by √d? Random queries and keys, their variance, and the softmax they feed."""

import numpy as np
import streamlit as st

from attn_core.labs import scaling
from attn_lessons.i18n import _
from attn_ui import frame, lab_tables
from attn_ui.compute import labs
from attn_ui.figures import panels
from attn_ui.figures import plots as charts
from attn_ui.figures.matrix import matrix

KEYS = (2, 4, 8, 16, 32, 64)

text = frame.page(__file__)
c = st.columns([2, 1, 1])
d = c[0].slider(_("d: entries in q and k"), 1, scaling.MAX_D, 64, key="why_scale_d")
n_keys = c[1].select_slider(_("keys per row (softmax length)"), KEYS, 8, key="why_scale_keys")
seed = int(c[2].number_input(_("seed"), 0, 10_000, 0, step=1, key="why_scale_seed"))
sample, sweep = labs.scale_sample(d, n_keys, seed), labs.scale_sweep(n_keys, seed)
sizes = {"n_queries": sample.n_queries, "n_keys": n_keys, "n_scores": f"{sample.scores.size:,}"}

with frame.beside(text):  # the two charts one above the other, the words beside them
    st.subheader(_("1. The variance of q·k grows like d; divided by √d it stays 1"))
    fig = charts.saturation_figure(
        sweep,
        sample,
        "variance",
        title=_("Variance of the scores against d"),
        y_title=_("variance (log scale)"),
        log_y=True,
    )
    panels.chart(fig, "why_scale_variance")
    panels.chart(charts.scores_histogram(sample), "why_scale_hist")
    st.caption(frame.fill(text["The sample"], **sizes, seed=seed))
    st.markdown(frame.fill(text["At your d"], d=d))
    st.dataframe(lab_tables.saturation_table(sample), key="why_scale_table", width="stretch")

st.subheader(_("2. Unscaled, the softmax saturates"))
c = st.columns(2)
with c[0]:
    fig = charts.saturation_figure(
        sweep, sample, "max_weight", title=_("Largest weight in a row"), y_title=_("weight")
    )
    panels.chart(fig, "why_scale_max_weight")
with c[1]:
    title = _("Entropy of a row (uniform: ln {n} = {entropy})").format(
        n=n_keys, entropy=f"{np.log(n_keys):.2f}"
    )
    fig = charts.saturation_figure(sweep, sample, "entropy", title=title, y_title=_("nats"))
    panels.chart(fig, "why_scale_entropy")

st.subheader(_("3. ... and its gradient vanishes"))
c = st.columns(2)
with c[0]:
    fig = charts.saturation_figure(
        sweep,
        sample,
        "grad_norm",
        title=_("Size of the softmax Jacobian ‖J‖"),
        y_title=_("‖J‖ (Frobenius norm)"),
    )
    panels.chart(fig, "why_scale_grad_norm")
with c[1]:
    fig = charts.saturation_figure(
        sweep, sample, "grad_max", title=_("Largest entry of the Jacobian"), y_title="max |J_ij|"
    )
    panels.chart(fig, "why_scale_grad_max")
st.markdown(frame.fill(text["One row"], d=d, n_keys=n_keys))
keys = [f"k{j}" for j in range(n_keys)]
p_u, p_s = sample.weights_unscaled[0], sample.weights_scaled[0]
panels.chart(charts.row_weights(keys, p_u, p_s), "why_scale_row")
c = st.columns(2)
names = (_("J of softmax(q·k)"), _("J of softmax(q·k / √d)"))
for n, (p, name) in enumerate(zip((p_u, p_s), names, strict=True)):
    jac = scaling.softmax_jacobian(p)
    with c[n]:
        matrix(
            jac,
            keys,
            keys,
            name=name,
            limit=0.25,
            row_title=_("weight p_i"),
            col_title=_("score s_j"),
            show_numbers=n_keys <= 8,
            key=f"why_scale_jac{n}",
        )

frame.footer(__file__)
