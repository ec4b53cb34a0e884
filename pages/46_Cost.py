"""Lab: what attention costs. Time and memory measured live against T and d, next to an RNN."""

import pandas as pd
import streamlit as st

from attn_core import cost
from attn_ui import labs_b, layout, views
from attn_ui import labs_b_charts as charts

layout.page(__file__)
c = st.columns([1, 1, 1, 0.8], vertical_alignment="bottom")
max_t = c[0].select_slider("Longest T", labs_b.COST_MAX_TS, value=2048, key="cost_max_t")
d = c[1].select_slider("d (d_k = d_v)", labs_b.COST_DS, value=64, key="cost_d")
repeats = c[2].slider("Repeats (best of)", 1, 9, 5, key="cost_repeats")
if c[3].button("Run the measurement", type="primary", key="cost_run"):
    st.session_state["cost_measured"] = (max_t, d, repeats)
    st.session_state["cost_press"] = st.session_state.get("cost_press", 0) + 1

st.subheader("1. Work and sequential steps")
ts = [2**n for n in range(4, max_t.bit_length())]
st.dataframe(pd.DataFrame(cost.operation_counts(ts, d)), key="cost_counts", hide_index=True)
st.caption(
    "Attention's T² scores do not depend on each other: one matrix product computes them all "
    "at once. The RNN's step t needs the state of step t − 1, so its T steps run one by one."
)

measured = st.session_state.get("cost_measured")
if measured is None:
    st.info("Press **Run the measurement** to time attention and an RNN on this machine.")
    layout.footer(__file__)
    st.stop()
over_t, over_d = labs_b.cost_curves(*measured, press=st.session_state["cost_press"])
if measured != (max_t, d, repeats):
    st.warning("The settings have changed since the last run: press **Run the measurement**.")
st.subheader(f"2. Measured: T from 16 to {measured[0]}, d = {measured[1]}, best of {measured[2]}")

fits = {
    "t": labs_b.fit_from(over_t.t, over_t.seconds, labs_b.FIT_FROM_T),
    "d": labs_b.fit_from(over_d.d, over_d.seconds, labs_b.FIT_FROM_D),
}
m = st.columns(4)
m[0].metric(f"attention vs T (T ≥ {labs_b.FIT_FROM_T})", f"slope {fits['t'].slope:.2f}")
m[1].metric(
    "weights memory vs T", f"slope {cost.fit_slope(over_t.t, over_t.weights_bytes).slope:.2f}"
)
m[2].metric("RNN vs T", f"slope {cost.fit_slope(over_t.t, over_t.rnn_seconds).slope:.2f}")
m[3].metric(f"attention vs d (d ≥ {labs_b.FIT_FROM_D})", f"slope {fits['d'].slope:.2f}")
st.caption(
    "Each time is the best of the repeats, all sizes timed in turns. On a busy machine the "
    "times are noisy: press the button again, or raise the repeats. The memory is counted, "
    "not timed: it is exact."
)

time_t, memory, time_d = charts.cost_figures(
    over_t, over_d, fits, {"t": labs_b.FIT_FROM_T, "d": labs_b.FIT_FROM_D}
)
c = st.columns(2)
with c[0]:
    views.chart(time_t, "cost_time_t")
with c[1]:
    views.chart(memory, "cost_mem_t")
st.markdown("**The numbers, against T**")
st.dataframe(labs_b.cost_table(over_t), key="cost_t_table", hide_index=True)
c = st.columns(2)
with c[0]:
    views.chart(time_d, "cost_time_d")
with c[1]:
    st.markdown(f"**The numbers, against d (T = {labs_b.D_SWEEP_T})**")
    st.dataframe(labs_b.cost_table(over_d), key="cost_d_table", hide_index=True)

layout.footer(__file__)
