"""What the by-hand simplifications change: floor(s / 2) and 3^x against s / sqrt(d_k) and e^x.

``compare_exact(hand)`` reruns the same x and weights exactly and reports, per cell, the
difference of each step, and per query column which key gets the most attention in each
computation; ``changed`` lists the columns where the simplification moves that top key.
``rule_cells(scores)`` lists the scores where floor and trunc disagree (negative odd ones).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attn_core.by_hand.rules import as_float, scale_scores
from attn_core.by_hand.trace import HandTrace, hand_attention


@dataclass(frozen=True, eq=False)
class Comparison:
    """A by-hand trace beside the exact one (same x, w_q, w_k, w_v and mask).

    top_hand, top_exact : per query column j, the keys i with the largest weight (ties kept)
    changed : query columns whose set of top keys differs between the two
    """

    hand: HandTrace
    exact: HandTrace
    top_hand: tuple[tuple[int, ...], ...]
    top_exact: tuple[tuple[int, ...], ...]
    changed: tuple[int, ...]

    def diff(self, step: str) -> np.ndarray:
        """By hand minus exact, as floats: 'scaled', 'powers', 'col_sums', 'weights' or 'z'."""
        return as_float(getattr(self.hand, step)) - as_float(getattr(self.exact, step))


def top_keys(weights: np.ndarray) -> tuple[tuple[int, ...], ...]:
    """For each column j of weights (T, T), the rows i holding its largest weight."""
    w = as_float(weights)
    best = w.max(axis=0)  # (T,)
    near = np.isclose(w, best[None, :], rtol=1e-12, atol=0)  # exact ties stay ties
    return tuple(tuple(int(i) for i in np.flatnonzero(near[:, j])) for j in range(w.shape[1]))


def compare_exact(hand: HandTrace) -> Comparison:
    """Recompute `hand` with the exact rules and compare the two."""
    exact = hand_attention(
        hand.x, hand.w_q, hand.w_k, hand.w_v, scale_rule="exact", causal=hand.mask is not None
    )
    top_h, top_e = top_keys(hand.weights), top_keys(exact.weights)
    changed = tuple(j for j, (a, b) in enumerate(zip(top_h, top_e, strict=True)) if a != b)
    return Comparison(hand, exact, top_h, top_e, changed)


def rule_cells(scores: np.ndarray) -> list[tuple[int, int, int, int, int]]:
    """(key i, query j, score, floor(s / 2), trunc(s / 2)) wherever the two rules differ."""
    floor, trunc = scale_scores(scores, "floor"), scale_scores(scores, "trunc")
    return [
        (int(i), int(j), int(scores[i, j]), int(floor[i, j]), int(trunc[i, j]))
        for i, j in np.argwhere(floor != trunc)
    ]
