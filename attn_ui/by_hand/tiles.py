"""The tiled-attention page's by-hand section: the classic sheet's column softmax worked in
two blocks of two keys (``attn_core.by_hand.tiles``), one row of grids per block."""

from __future__ import annotations

import numpy as np
import streamlit as st

from attn_core.by_hand.tiles import HandTile, hand_tiles
from attn_core.by_hand.trace import HandTrace, hand_attention
from attn_lessons.i18n import _
from attn_ui.by_hand.grids import cell_text, dims, show, text_table, tokens
from attn_ui.by_hand.inputs import EXAMPLE

BLOCK = 2


def example() -> tuple[HandTrace, tuple[HandTile, ...]]:
    """The by-hand page's worked example (6 features x 4 tokens, floor, base 3), in tiles."""
    t = hand_attention(**EXAMPLE)
    return t, hand_tiles(t, BLOCK)


def _running(tile: HandTile, first: bool, queries: list[str]):
    rescale = ["—"] * len(tile.m) if first else list(tile.rescale)
    rows = np.array([list(tile.m), rescale, list(tile.l)], dtype=object)
    names = [_("m (column max so far)"), _("c = 3^(m before − m)"), _("l (column sum so far)")]
    return text_table(rows, names, queries, fmt=lambda v: v if v == "—" else cell_text(v))


def block(tile: HandTile, n: int, t: HandTrace) -> None:
    """One block's grids: its scaled scores, the powers, the running m, c, l, then U and Z."""
    tok, read = tokens(t.tokens), [f"t{i + 1}" for i in range(tile.start, tile.stop)]
    keys = [_("key {token}").format(token=k) for k in read]
    queries = tok  # narrow grids: the block's title says columns are queries
    block_title = _("Block {n}: keys {tokens}").format(n=n + 1, tokens=", ".join(read))
    st.markdown(f"**{block_title}**")
    c = st.columns(3)
    with c[0]:
        show(text_table(tile.scaled, keys, queries), title="floor(S / 2)", key=f"tiles_hand_s{n}")
    with c[1]:
        show(text_table(tile.powers, keys, queries), title="P = 3^(s − m)", key=f"tiles_hand_p{n}")
    with c[2]:
        show(_running(tile, n == 0, queries), title=_("Running numbers"), key=f"tiles_hand_ml{n}")
    c = st.columns(2)
    rows = dims(len(tile.u))
    title = "U = V P" if n == 0 else _("U = c U before + V P")
    with c[0]:
        show(text_table(tile.u, rows, tok), title=title, key=f"tiles_hand_u{n}")
    with c[1]:
        show(text_table(tile.z, rows, tok), title=_("Z so far = U / l"), key=f"tiles_hand_z{n}")


def section(text: dict) -> None:
    """The whole by-hand section: the sheet's scores, both blocks, and the check against Z."""
    t, tiles = example()
    tok = tokens(t.tokens)
    keys = [_("key {token}").format(token=s) for s in tok]
    queries = [_("query {token}").format(token=s) for s in tok]
    st.markdown(text["By hand"])
    show(
        text_table(t.scaled, keys, queries),
        title=_("floor(Kᵀ Q / 2): one row per key, one column per query"),
        key="tiles_hand_scaled",
    )
    for n, tile in enumerate(tiles):
        block(tile, n, t)
    same = tiles[-1].z.tolist() == t.z.tolist()
    show(
        text_table(t.z, dims(len(t.z)), tok),
        title=_("Z = V A, the whole sheet"),
        key="tiles_hand_zf",
    )
    if same:
        st.success(_("U / l after the last block is the sheet's Z, fraction for fraction."))
    else:  # never seen: the tests tie the two together
        st.error(_("The tiles and the whole sheet disagree: please report this."))
