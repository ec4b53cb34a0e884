"""Lab: what attention costs. Time and memory measured live against T and d, next to an RNN."""

import pandas as pd
import streamlit as st

from attn_core.labs import cost
from attn_lessons.i18n import _
from attn_ui import formats, frame, lab_tables
from attn_ui.compute import labs
from attn_ui.figures import lab_charts as charts
from attn_ui.figures import panels

MAX_TS = (256, 512, 1024, 2048)
DS = (16, 32, 64, 128)


def counts_columns() -> dict:
    """The counts' headings as shown (the table's columns keep attn_core's names): the
    "sequential steps" columns under short headers, named in full on hover."""
    return {
        "attention: multiplications": _("attention: multiplications"),
        "attention: sequential steps": st.column_config.NumberColumn(
            _("attention: steps"),
            help=_("attention: sequential steps, the ones that must run one by one"),
        ),
        "RNN: multiplications": _("RNN: multiplications"),
        "RNN: sequential steps": st.column_config.NumberColumn(
            _("RNN: steps"), help=_("RNN: sequential steps, the ones that must run one by one")
        ),
    }


text = frame.page(__file__)
c = st.columns([1, 1, 1, 0.8], vertical_alignment="bottom")
max_t = c[0].select_slider(_("Longest T"), MAX_TS, value=2048, key="cost_max_t")
d = c[1].select_slider("d (d_k = d_v)", DS, value=64, key="cost_d")
repeats = c[2].slider(_("Repeats (best of)"), 1, 9, 5, key="cost_repeats")
if c[3].button(_("Run the measurement"), type="primary", key="cost_run"):
    st.session_state["cost_measured"] = (max_t, d, repeats)
    st.session_state["cost_press"] = st.session_state.get("cost_press", 0) + 1

measured = st.session_state.get("cost_measured")
with frame.beside(text, ratio=(2, 1)):  # the counts: a live table before any measurement
    st.subheader(_("1. Work and sequential steps"))
    ts = [2**n for n in range(4, max_t.bit_length())]
    st.dataframe(
        pd.DataFrame(cost.operation_counts(ts, d)),
        key="cost_counts",
        hide_index=True,
        column_config=counts_columns(),  # short headers: all five columns fit beside the words
    )
    st.caption(text["Work and steps"])
    if measured is None:
        st.info(text["Before the first run"])
if measured is None:
    frame.footer(__file__)
    st.stop()
over_t, over_d = labs.cost_curves(*measured, press=st.session_state["cost_press"])
if measured != (max_t, d, repeats):
    st.warning(_("The settings have changed since the last run: press **Run the measurement**."))
st.subheader(
    _("2. Measured: T from 16 to {t}, d = {d}, best of {repeats}").format(
        t=measured[0], d=measured[1], repeats=measured[2]
    )
)

fits = {
    "t": labs.fit_from(over_t.t, over_t.seconds, labs.FIT_FROM_T),
    "d": labs.fit_from(over_d.d, over_d.seconds, labs.FIT_FROM_D),
}
m = st.columns(4)
slopes = (
    fits["t"].slope,
    cost.fit_slope(over_t.t, over_t.weights_bytes).slope,
    cost.fit_slope(over_t.t, over_t.rnn_seconds).slope,
    fits["d"].slope,
)
labels = (
    _("attention vs T (T ≥ {t})").format(t=labs.FIT_FROM_T),
    _("weights memory vs T"),
    _("RNN vs T"),
    _("attention vs d (d ≥ {d})").format(d=labs.FIT_FROM_D),
)
for box, label, slope in zip(m, labels, slopes, strict=True):
    box.metric(label, _("slope {slope}").format(slope=f"{slope:.2f}"))
st.caption(text["Reading the timings"])

time_t, memory, time_d = charts.cost_figures(
    over_t, over_d, fits, {"t": labs.FIT_FROM_T, "d": labs.FIT_FROM_D}
)
c = st.columns(2)
with c[0]:
    panels.chart(time_t, "cost_time_t")
with c[1]:
    panels.chart(memory, "cost_mem_t")
st.markdown(_("**The numbers, against T**"))
st.dataframe(lab_tables.timing_table(over_t), key="cost_t_table", hide_index=True)
st.caption(_(formats.SIZE_NOTE))
c = st.columns(2)
with c[0]:
    panels.chart(time_d, "cost_time_d")
with c[1]:
    st.markdown(_("**The numbers, against d (T = {t})**").format(t=labs.D_SWEEP_T))
    st.dataframe(lab_tables.timing_table(over_d), key="cost_d_table", hide_index=True)

frame.footer(__file__)
