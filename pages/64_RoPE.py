"""Decoder: RoPE on SmolLM2's own vectors (angles per pair, one pair turning, the score that
depends only on m - n) against MiniLM's learned absolute positions."""

import numpy as np
import streamlit as st

from attn_core.labs import rope
from attn_lessons.i18n import _
from attn_ui import decoder_views, formats, frame, notices, widgets
from attn_ui.compute import decoder, explorer, minilm
from attn_ui.figures import panels, rope_charts
from attn_ui.figures.matrix import matrix

TURNS = 16  # positions drawn for one pair turning
DISTANCES = np.arange(-32, 65)  # the score against m - n
MAX_POSITION = 100  # m and n; with the shift, within MiniLM's 512 positions
MAX_SHIFT = 400

text = frame.page(__file__)
decoder_views.language_note()  # SmolLM2's Spanish and Chinese are weak: said
run = decoder_views.prompt_run()
config = decoder.smollm().config
base, d, group = config["rope_base"], config["head_dim"], config["n_heads"] // config["n_kv_heads"]
with frame.stop_on_error():
    enc = explorer.model_run(run.text)
notices.warn_tokens(enc.tokens)  # MiniLM's [UNK] pieces, if any (section 5)

with frame.beside(text, ratio=(2, 1)):
    st.subheader(_("1. The angles: fast pairs and slow pairs"))
    m_show = st.slider(_("Position m"), 0, 200, **widgets.remembered("rope", "angle_position", 10))
    pairs = decoder_views.pairs_table(d, base, m_show)
    c = st.columns(2)
    with c[0]:
        panels.chart(rope_charts.speed_bars(pairs), "rope_chart_speed")
    with c[1]:
        panels.chart(rope_charts.angle_bars(pairs, m_show), "rope_chart_angles")
    st.markdown(text["The angles"])
    with st.expander(_("Numbers of the 32 pairs (table, CSV download)"), key="rope_pairs_box"):
        st.dataframe(decoder_views.shown_pairs(pairs, m_show), hide_index=True, key="rope_pairs")

st.subheader(_("2. A real query and key"))
names = [formats.token(t) for t in run.tokens]
c = st.columns(4)
layer = c[0].selectbox(
    _("Layer"), range(config["n_layers"]), **widgets.remembered("rope", "layer", 0)
)
head = c[1].selectbox(
    _("Query head"), range(config["n_heads"]), **widgets.remembered("rope", "head", 0)
)
with c[2]:
    i = widgets.pick_token(
        names, label=_("Query token"), key="rope_query", default=run.n_tokens - 1
    )
with c[3]:
    j = widgets.pick_token(names, label=_("Key token"), key="rope_key", default=0)
kv = head // group
q = run.queries_unrotated[layer, head, i]  # (64,) before RoPE
k = run.keys_unrotated[layer, kv, j]
st.caption(
    _(
        "q: layer {layer}, query head {head}, token {i} {query}; k: K/V head {kv} (which query "
        "head {head} reads), token {j} {key}. Both taken before RoPE."
    ).format(
        layer=layer,
        head=head,
        i=i,
        query=frame.quoted(names[i]),
        kv=kv,
        j=j,
        key=frame.quoted(names[j]),
    )
)
st.caption(_(formats.TOKEN_NOTE))

st.subheader(_("3. One pair turning"))
pair = st.slider(_("Pair i"), 0, d // 2 - 1, **widgets.remembered("rope", "pair", 0))
st.markdown(frame.fill(text["One pair turning"], last=TURNS))
freq = float(rope.pair_frequencies(d, base)[pair])
panels.chart(rope_charts.pair_turning(q, pair, freq, TURNS), "rope_chart_pair")

st.subheader(_("4. Only the distance m − n counts"))
st.markdown(text["Only the distance counts"])
c = st.columns(3)
m = c[0].number_input(
    _("m (query position)"), 0, MAX_POSITION, **widgets.remembered("rope", "m", 5)
)
n = c[1].number_input(_("n (key position)"), 0, MAX_POSITION, **widgets.remembered("rope", "n", 2))
s = c[2].slider(_("Shift s (both)"), 0, MAX_SHIFT, **widgets.remembered("rope", "shift", 100))
t = rope.shift_test(q, k, int(m), int(n), int(s), base)
c = st.columns(3)
c[0].metric(_("SmolLM2: q_m · k_n at (m, n) = ({m}, {n})").format(m=t.m, n=t.n), f"{t.score:.6f}")
c[1].metric(
    _("SmolLM2: at (m + s, n + s) = ({m}, {n})").format(m=t.m + s, n=t.n + s),
    f"{t.shifted:.6f}",
)
c[2].metric(_("SmolLM2: difference"), f"{t.difference:.1e}")
other = rope.score(q, k, int(m) + 1, int(n), base)
st.caption(
    _(
        "Another distance: at ({m}, {n}), distance {distance} instead of {before}, the score "
        "is {score}."
    ).format(
        m=t.m + 1,
        n=t.n,
        distance=t.m + 1 - t.n,
        before=t.m - t.n,
        score=f"{other:.6f}",
    )
)
own = float(run.queries[layer, head, i] @ run.keys[layer, kv, j])
st.markdown(
    frame.fill(
        text["The model's own score"],
        i=i,
        j=j,
        own=f"{own:.4f}",
        ours=f"{rope.score(q, k, i, j, base):.4f}",
    )
)
by_distance = rope.scores_by_distance(q, k, DISTANCES, base)
fig = rope_charts.score_by_distance(DISTANCES, by_distance, t.m - t.n)
panels.chart(fig, "rope_chart_distance")

st.subheader(_("5. Against MiniLM's learned absolute positions"))
st.markdown(text["Against learned positions"])
model = minilm()
shown_positions = min(max(enc.n_tokens, 16), 32)
pos = [str(p) for p in range(shown_positions)]
c = st.columns(2)
with c[0]:
    matrix(
        rope.position_cosines(model.position[:shown_positions]),
        pos,
        pos,
        name=_("Cosine of MiniLM's position vectors p_m, p_n"),
        row_title="m",
        col_title="n",
        key="rope_cosines",
    )
with c[1]:
    m_head = st.selectbox(
        _("MiniLM layer 0 head"), range(model.n_heads), **widgets.remembered("rope", "m_head", 0)
    )
    wq = widgets.pick_token(enc.tokens, label=_("Query word"), key="rope_m_query", default=1)
    wk = widgets.pick_token(enc.tokens, label=_("Key word"), key="rope_m_key", default=2)
    absolute = decoder_views.minilm_head(model, enc.ids[wq], enc.ids[wk], m_head)
    a = absolute.shift_test(int(m), int(n), int(s))
    st.metric(_("MiniLM: q · k at (m, n) = ({m}, {n})").format(m=a.m, n=a.n), f"{a.score:.4f}")
    st.metric(
        _("MiniLM: at (m + s, n + s) = ({m}, {n})").format(m=a.m + s, n=a.n + s),
        f"{a.shifted:.4f}",
    )
    st.metric(_("MiniLM: difference"), f"{a.difference:.1e}")
    st.caption(
        _(
            "“{query}” at m and “{key}” at n, MiniLM layer 0, head {head}; the same m, n and s "
            "as above."
        ).format(query=frame.quoted(enc.tokens[wq]), key=frame.quoted(enc.tokens[wk]), head=m_head)
    )

frame.footer(__file__)
