"""Lab: global versus local attention. A window (band mask) and the scores it saves."""

from dataclasses import replace

import pandas as pd
import streamlit as st

from attn_core.labs import local
from attn_lessons.i18n import _, ngettext
from attn_ui import compute, controls, frame, notices
from attn_ui.figures import lab_charts as charts
from attn_ui.figures import panels
from attn_ui.figures.matrix import matrix

COUNT_TS = (8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096)

text = frame.page(__file__)
s = controls.sidebar(mask=False)
with frame.stop_on_error():
    base = compute.lesson_run(replace(s, mask="none"))  # global: no mask
g, tok = base.trace, base.tokens
notices.warn_tokens(tok)
n = len(tok)

with frame.beside(text, ratio=(2, 1)):  # the two heatmaps side by side, the words beside
    st.subheader(_("1. Global against local weights"))
    width = st.slider(
        _("Window w: neighbours each token sees on each side"), 0, 16, 2, key="local_width"
    )
    if width >= n - 1:
        st.info(frame.fill(text["A window as wide as the sentence"], w=width, n=n))
    t = local.local_attention(g.q, g.k, g.v, width, scale=g.scale, temperature=g.temperature)
    common = {"columns": s.columns, "show_numbers": s.show_numbers}
    c = st.columns(2)
    with c[0]:
        matrix(
            g.weights,
            tok,
            tok,
            name=_("Global: softmax(S/√d_k)"),
            kind="weights",
            by_hand_name=_("Global, by column"),
            key="local_global",
            **common,
        )
    with c[1]:
        name = _("Local, w = {w}: softmax(S/√d_k + M)").format(w=width)
        matrix(
            t.weights,
            tok,
            tok,
            name=name,
            kind="weights",
            by_hand_name=name,  # the band is symmetric: the same outline, the same name
            band=width,
            key="local_band",
            **common,
        )
    st.caption(text["The band"])

st.subheader(_("2. What the window saves"))
full, band = local.n_scores(n), local.n_scores(n, width)
m = st.columns(3)


def scores(count: int) -> str:
    """'1,024 scores'; English says "scores" even of one: both forms the same, as before."""
    return ngettext("{n} scores", "{n} scores", count).format(n=f"{count:,}")


m[0].metric(_("Global: T² (T = {n})").format(n=n), scores(full))
m[1].metric(_("Local: T(2w+1) − w(w+1)"), scores(band))
m[2].metric(_("Saved"), f"{1 - band / full:.0%}")
ts = sorted({n, *COUNT_TS})
full_ts, band_ts = local.score_counts(ts, width)
c = st.columns([1.4, 1])
with c[0]:
    fig = charts.loglog(
        _("Scores per head against T (w = {w})").format(w=width),
        "T",
        _("scores"),
        [(_("global: T²"), ts, full_ts), (_("local: w = {w}").format(w=width), ts, band_ts)],
        ticks=COUNT_TS,
        mark=(n, _("your T = {n}").format(n=n)),
    )
    panels.chart(fig, "local_counts_chart")
with c[1]:
    counts = pd.DataFrame(
        {"T": ts, _("global: T²"): full_ts, _("local, w = {w}").format(w=width): band_ts}
    )
    st.dataframe(counts, key="local_counts", hide_index=True, height="content")

frame.footer(__file__)
