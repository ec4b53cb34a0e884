"""Tiled attention: the learner's scores read a block of keys at a time (online softmax)."""

import numpy as np
import pandas as pd
import streamlit as st

import attn_core
from attn_core.tiled import distance_per_step, memory_bytes
from attn_lessons.i18n import _, ngettext
from attn_ui import compute, controls, formats, frame, notices, tile_tables, widgets
from attn_ui.by_hand import tiles as by_hand
from attn_ui.figures import panels, tile_charts
from attn_ui.figures.matrix import matrix


def slider(label: str, name: str, high: int, default: int, help: str) -> int:
    """A slider from 1 to `high` that keeps its value across pages, pulled back into range
    when a shorter sentence leaves it outside; a single choice needs no slider."""
    if high == 1:
        return 1
    kwargs = widgets.remembered("tiles", name, default)
    st.session_state[kwargs["key"]] = min(max(int(st.session_state[kwargs["key"]]), 1), high)
    return st.slider(label, 1, high, help=help, **kwargs)


text = frame.page(__file__)
s = controls.sidebar()
with frame.stop_on_error():
    run = compute.lesson_run(s)
t, tok = run.trace, run.tokens
notices.warn_tokens(tok)
n = len(tok)

c = st.columns(2)
with c[0]:
    block = slider(
        _("Keys per block"), "block", n, 4, _("How many keys (columns of S) one tile holds.")
    )
n_blocks = -(-n // block)
with c[1]:
    step = slider(_("Blocks read so far"), "step", n_blocks, 1, _("Step through the blocks."))
if n_blocks == 1:
    # English says "keys" even of one: both forms the same, as before
    all_keys = ngettext(
        "One block holds all {n} keys: the first step is already full attention.",
        "One block holds all {n} keys: the first step is already full attention.",
        n,
    )
    st.caption(all_keys.format(n=n))
step = min(step, n_blocks)
with frame.stop_on_error():  # the temperature divides the scaled scores, as on the other pages
    tiled = attn_core.tiled_attention(
        t.q, t.k, t.v, block=block, mask=t.mask, scale=t.scale / t.temperature
    )
now = tiled.steps[step - 1]
before = tiled.steps[step - 2] if step > 1 else None
keys = list(tok[now.start : now.stop])
distance = distance_per_step(tiled, t.output)
common = {"columns": s.columns, "show_numbers": s.show_numbers}

with frame.beside(text, ratio=(2, 1)):
    st.subheader(
        _("1. Block {step} of {n}: keys {first} to {last}").format(
            step=step, n=n_blocks, first=now.start, last=now.stop - 1
        )
    )
    c = st.columns([1, 1.3])
    with c[0]:
        matrix(
            now.scores,
            tok,
            keys,
            name=_("Tile {step}: S / √d_k + M, keys {first}–{last}").format(
                step=step, first=now.start, last=now.stop - 1
            ),
            by_hand_name=_("Tile {step} (keys × queries)").format(step=step),
            key="tiles_tile",
            **common,
        )
    with c[1]:
        st.markdown(_("**Each query row after this block**"))
        st.dataframe(
            tile_tables.running_table(now, before, tok),
            key="tiles_running",
            column_config=tile_tables.running_columns(),
            height="content" if n <= 20 else 600,
        )
        moved = 0 if before is None else int(np.sum(now.rescale < 1))
        st.metric(_("Rows whose m rose in this block (rescaled)"), str(moved))
    st.markdown(text["The tiles"])

st.subheader(_("2. The output so far, corrected block by block"))
st.markdown(text["Watching the output corrected"])
features = [f"f{j}" for j in range(t.v.shape[1])]
zoom = float(np.abs(t.output).max())
c = st.columns(2)
with c[0]:
    matrix(
        now.output,
        tok,
        features,
        name=_("Z after block {step} = u / l").format(step=step),
        by_hand_name=_("Z after block {step} (features × tokens)").format(step=step),
        row_title=_("query"),
        col_title=_("feature"),
        key="tiles_z",
        **common,
    )
with c[1]:
    matrix(
        now.output - t.output,
        tok,
        features,
        name=_("Z after block {step} − Z of full attention").format(step=step),
        by_hand_name=_("Z after block {step} − Z (features × tokens)").format(step=step),
        row_title=_("query"),
        col_title=_("feature"),
        limit=zoom,
        key="tiles_gap",
        **common,
    )
m = st.columns(2)
m[0].metric(_("max |Z so far − full attention|"), formats.significant(distance[step - 1]))
m[1].metric(_("after the last block"), formats.significant(distance[-1]))
panels.chart(tile_charts.distance_figure(distance, step), "tiles_distance")
if np.isneginf(now.scores).all(axis=1).any():  # some row sees no key of this block
    st.info(text["When a whole block is masked"], icon=":material/info:")

st.subheader(_("3. Memory: the T × T scores against one tile"))
st.markdown(text["Memory"])
ts = sorted({*tile_charts.MEMORY_TICKS, n})
sizes = [memory_bytes(x, block, t.v.shape[1]) for x in ts]
full, tile = [f for f, _ in sizes], [b for _, b in sizes]
panels.chart(tile_charts.memory_figure(ts, full, tile, n, block), "tiles_memory")
st.dataframe(
    pd.DataFrame(
        {"T": ts, _("T × T scores (bytes)"): full, _("tile + m, l, u (bytes)"): tile},
    ),
    key="tiles_memory_table",
    hide_index=True,
    height="content",
)

st.subheader(_("4. By hand: two blocks of two keys"))
by_hand.section(text)

frame.footer(__file__)
