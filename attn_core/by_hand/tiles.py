"""The online softmax by hand: a head's column softmax worked a block of keys at a time.

Tokens are columns, so the scaled scores (keys i by queries j) are read a block of key
rows at a time, and every query column keeps its own running numbers, with 3 for e:

m   = max(m_before, largest scaled score of the block)     a whole number
c   = 3 ** (m_before - m)                                  1, 1/3, 1/9, ...: 1 if m stayed
P   = 3 ** (scaled - m) for the block's keys               (b, T), every entry <= 1
l   = c l_before + column sums of P                         an exact fraction
U   = c U_before + V_block P                                (d_v, T), not yet divided
Z   = U / l                                                 after the last block: exactly z

On the first block there is nothing before: m is the block's largest score, l its column
sums, U its V_block P (c is recorded as 0, as in ``attn_core.tiled``). Keys a causal mask
forbids add 0, as in the full softmax.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from attn_core.by_hand.trace import HandTrace
from attn_core.errors import AttentionInputError, whole_number


@dataclass(frozen=True, eq=False)
class HandTile:
    """One block of keys worked by hand. T query columns; b keys in the block.

    Attributes
    ----------
    start, stop : int          the block holds keys start .. stop - 1 (rows of the scores)
    scaled : (b, T) int        the block's rows of the scaled scores
    m : (T,) int               running column maximum (over allowed keys) after this block
    rescale : (T,) Fraction    3 ** (m_before - m); 0 on the first block
    powers : (b, T) Fraction   3 ** (scaled - m), 0 where masked
    l : (T,) Fraction          running column sum
    u : (d_v, T) Fraction      running V P, not yet divided by l
    z : (d_v, T) Fraction      u / l: the output over the keys seen so far
    """

    start: int
    stop: int
    scaled: np.ndarray
    m: np.ndarray
    rescale: np.ndarray
    powers: np.ndarray
    l: np.ndarray
    u: np.ndarray
    z: np.ndarray


def _check(t: HandTrace, block) -> int:
    whole_number(block, "block", 1)
    if t.scale_rule == "exact":
        raise AttentionInputError.said(
            "Tiles by hand need whole-number scaled scores: use the floor or trunc rule."
        )
    allowed = np.ones(t.scaled.shape, bool) if t.mask is None else t.mask  # (T, T)
    if not allowed[:block].any(axis=0).all():
        raise AttentionInputError.said(
            "Every query must see at least one key of the first block to work it by hand."
        )
    return int(block)


def hand_tiles(t: HandTrace, block: int = 2) -> tuple[HandTile, ...]:
    """The column softmax and z = v weights of `t`, worked `block` keys at a time.

    Parameters
    ----------
    t : HandTrace with the "floor" or "trunc" rule (whole-number scaled scores)
    block : keys per block; 2 splits the classic four tokens into two blocks of two

    Returns
    -------
    tuple of HandTile, one per block; the last one's z equals ``t.z`` exactly.
    """
    block = _check(t, block)
    base = Fraction(t.base)
    allowed = np.ones(t.scaled.shape, bool) if t.mask is None else t.mask  # (T_k, T_q)
    v = t.v.astype(object)  # (d_v, T_k), so that V P stays in exact fractions
    tiles: list[HandTile] = []
    for start in range(0, t.scaled.shape[0], block):
        stop = min(start + block, t.scaled.shape[0])
        scaled, seen = t.scaled[start:stop], allowed[start:stop]  # (b, T_q)
        block_max = np.where(seen, scaled, np.iinfo(np.int64).min).max(axis=0)  # (T_q,)
        if not tiles:
            m, rescale = block_max, np.array([Fraction(0)] * len(block_max), dtype=object)
        else:
            before = tiles[-1]
            m = np.maximum(before.m, block_max)  # a column with no allowed key keeps its m
            rescale = np.array([base ** int(d) for d in before.m - m], dtype=object)
        shifted = scaled - m  # (b, T_q), <= 0 wherever the key is allowed
        powers = np.array([[base ** int(s) for s in row] for row in shifted], dtype=object)
        powers[~seen] = Fraction(0)  # a masked key adds nothing
        l = powers.sum(axis=0)  # (T_q,)
        u = v[:, start:stop] @ powers  # (d_v, b) x (b, T_q) -> (d_v, T_q)
        if tiles:
            l = rescale * tiles[-1].l + l
            u = rescale * tiles[-1].u + u  # the rescale multiplies each query column
        tiles.append(HandTile(start, stop, scaled, m, rescale, powers, l, u, u / l))
    return tuple(tiles)
