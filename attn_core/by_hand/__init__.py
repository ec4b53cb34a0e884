"""Attention by hand: the paper-and-pencil convention of the classroom.

Tokens are columns, the scores are K^T Q, the scaling is floor(s / 2), 3^x stands in for
e^x, the softmax runs down each column, and every number is an exact fraction.

trace      one head (or several) worked by hand, every intermediate kept: ``hand_attention``
rules      the arithmetic: whole-number entries, the scaling rules, the base-3 column
           softmax, how a fraction is written
tiles      the column softmax worked a block of keys at a time (the online softmax of
           ``attn_core.tiled``, with 3^x): ``hand_tiles``
backward   the backward pass by hand: dV, dA, dS, dQ, dK from a given dZ, exact fractions
compare    the same head with the exact rules (s / sqrt(d_k), e^x): what the shortcuts change
exercises  seeded worksheets whose numbers stay friendly to work by hand
answers    reading what a learner typed into a grid ("9/28", "0.32", blanks)
checking   a learner's grid against the answer, cell by cell
mistakes   the usual slips, each recomputed, so a wrong grid can be named
"""

from attn_core.by_hand.exercises import Exercise, make_exercise
from attn_core.by_hand.rules import NotWholeNumberError
from attn_core.by_hand.tiles import HandTile, hand_tiles
from attn_core.by_hand.trace import HandTrace, concat_z, hand_attention, hand_heads, to_rows

__all__ = [
    "Exercise",
    "HandTile",
    "HandTrace",
    "NotWholeNumberError",
    "concat_z",
    "hand_attention",
    "hand_heads",
    "hand_tiles",
    "make_exercise",
    "to_rows",
]
