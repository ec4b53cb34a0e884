"""The usual slips of attention by hand, each recomputed so a wrong grid can be recognised.

``variants(trace)`` redoes the steps of a ``HandTrace`` under one known mistake at a time
(Q^T K instead of K^T Q, a row-wise softmax, no scaling, the other rounding rule, e^x
instead of 3^x, ...) and returns, per mistake, the grids it would give. The checker
matches a learner's wrong cells against them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from attn_core.by_hand.rules import scale_scores
from attn_core.by_hand.trace import HandTrace

_RULES = {"floor": "floor(s / 2)", "trunc": "trunc(s / 2)"}


@dataclass(frozen=True)
class Mistake:
    """One known mistake and the grids it gives, by step name ('scores', 'weights', ...)."""

    key: str  # stable id: "transpose", "row_softmax", "no_scale", "floor_trunc", "e_base", ...
    title: str  # a few words for a heading
    detail: str  # what went wrong and what to do instead
    steps: dict[str, np.ndarray] = field(default_factory=dict)
    template: str = ""  # `detail` before its {fields} are filled in, and what fills them:
    fills: dict[str, str] = field(default_factory=dict)  # a translation fills its own words


def _said(key: str, title: str, template: str, steps: dict, **fills) -> Mistake:
    """A mistake whose detail is `template` with its {fields} filled by `fills`."""
    fills = {name: str(value) for name, value in fills.items()}
    return Mistake(key, title, template.format(**fills), steps, template, fills)


def _powers(scaled: np.ndarray, base, mask: np.ndarray | None) -> np.ndarray:
    """base ** scaled: exact Fractions for a whole base and whole exponents, else floats."""
    if isinstance(base, float) or scaled.dtype.kind == "f":
        powers = np.power(float(base), scaled.astype(float))
    else:
        b = Fraction(base)
        powers = np.array([[b ** int(s) for s in row] for row in scaled], dtype=object)
    if mask is not None:
        powers[~mask] = 0
    return powers


def downstream(
    t: HandTrace, scaled: np.ndarray, *, base=None, mask="same", axis: int = 0, after: bool = False
) -> dict[str, np.ndarray]:
    """powers, col_sums, weights and z from `scaled`, as ``hand_attention`` computes them.

    base : the stand-in for e (default: the trace's); mask : a (T, T) mask, None, or "same"
    axis : 0 sums each column (right), 1 each row; after : zero masked weights only after
    dividing by the unmasked sums (masking after the softmax).
    """
    base = t.base if base is None else base
    mask = t.mask if isinstance(mask, str) else mask
    powers = _powers(scaled, base, None if after else mask)
    sums = powers.sum(axis=axis)  # (T,)
    weights = powers / (sums[None, :] if axis == 0 else sums[:, None])
    if after and mask is not None:
        weights[~mask] = 0
    z = (t.v if weights.dtype.kind == "f" else t.v.astype(object)) @ weights  # (d_v, T)
    return {"powers": powers, "col_sums": sums, "weights": weights, "z": z}


def _transpose_mistakes(t: HandTrace) -> list[Mistake]:
    out = [
        _said(
            "transpose",
            "Transpose mix-up",
            "This grid is the transpose of the right one "
            "(Q^T K instead of K^T Q). Here row i is key i and column j is query j.",
            {
                "scores": t.scores.T,
                "scaled": t.scaled.T,
                "powers": t.powers.T,
                "weights": t.weights.T,
            },
        ),
        _said(
            "transpose",
            "Transpose mix-up",
            "This is V A^T, not V A: column j of Z mixes "
            "the columns of V with the weights in column j of A.",
            {"z": t.v @ t.weights.T},
        ),
    ]
    if t.d_k == t.tokens:  # only then do these products have the shape of K^T Q
        out.append(
            _said(
                "transpose",
                "Forgot to transpose",
                "K was used without transposing "
                "it: write K^T first (row i of K^T is column i of K).",
                {"k_t": t.k, "scores": t.k @ t.q},
            )
        )
        out.append(
            _said(
                "transpose",
                "Forgot to transpose",
                "This is K Q^T, not K^T Q: the transpose belongs on K, so that keys become rows.",
                {"scores": t.k @ t.q.T},
            )
        )
    return out


def _scale_mistakes(t: HandTrace) -> list[Mistake]:
    rule = _RULES.get(t.scale_rule, "s / sqrt(d_k)")
    out = [
        _said(
            "no_scale",
            "Forgot to scale",
            "These numbers come from the unscaled scores K^T Q: scale them "
            "first ({rule}), then raise {base} to the scaled score.",
            {"scaled": t.scores, **downstream(t, t.scores)},
            rule=rule,
            base=t.base,
        )
    ]
    if t.scale_rule not in _RULES:
        return out
    other = "trunc" if t.scale_rule == "floor" else "floor"
    alt, up = scale_scores(t.scores, other), -(-t.scores // 2)  # up: halves rounded up
    grids = {"scaled": up, **downstream(t, up)}
    if t.scale_rule == "floor":
        rounded_up = _said(
            "round_up",
            "Rounded up",
            "Halves were rounded up (1.5 -> 2); {rule} rounds down (1.5 -> 1).",
            grids,
            rule=rule,
        )
    else:
        rounded_up = _said(
            "round_up",
            "Rounded up",
            "Halves were rounded up (1.5 -> 2); {rule} rounds toward 0 (1.5 -> 1).",
            grids,
            rule=rule,
        )
    exact = t.scores / math.sqrt(t.d_k)
    return [
        *out,
        _said(
            "floor_trunc",
            "Floor versus truncate",
            "This grid uses {other} where "
            "the sheet says {rule}. The two differ only for negative odd scores: "
            "floor(-1.5) = -2 but trunc(-1.5) = -1.",
            {"scaled": alt, **downstream(t, alt)},
            other=_RULES[other],
            rule=rule,
        ),
        rounded_up,
        _said(
            "sqrt",
            "Divided by the square root",
            "These are s / sqrt({d_k}); by hand we use {rule} instead, a whole number.",
            {"scaled": exact},
            d_k=t.d_k,
            rule=rule,
        ),
        _said(
            "exact",
            "Exact softmax instead of the by-hand rules",
            "These are the exact "
            "values (s / sqrt({d_k}) and e^x); the sheet uses {rule} and {base}^x.",
            downstream(t, exact, base=math.e),
            d_k=t.d_k,
            rule=rule,
            base=t.base,
        ),
    ]


def _softmax_mistakes(t: HandTrace) -> list[Mistake]:
    out = [
        _said(
            "row_softmax",
            "Row-wise instead of column-wise softmax",
            "You divided by "
            "the row sums. In this layout each column is one query: sum each column, "
            "and every column of A must add up to 1.",
            downstream(t, t.scaled, axis=1),
        ),
        _said(
            "no_divide",
            "Forgot to divide",
            "These are the powers themselves: divide each one by its column sum.",
            {"weights": t.powers},
        ),
    ]
    if not isinstance(t.base, float):
        out.append(
            _said(
                "e_base",
                "e^x instead of 3^x",
                "These use e = 2.718...; the sheet replaces e by {base}: write {base}^x.",
                downstream(t, t.scaled, base=math.e),
                base=t.base,
            )
        )
        cube = t.scaled.astype(object) ** 3
        if t.mask is not None:
            cube[~t.mask] = 0
        out.append(
            _said(
                "cube",
                "x^3 instead of 3^x",
                "You raised each score to the power "
                "{base}; raise {base} to the power of the score instead.",
                {"powers": cube},
                base=t.base,
            )
        )
    return out


def _mask_mistakes(t: HandTrace) -> list[Mistake]:
    if t.mask is None:
        return []
    return [
        _said(
            "no_mask",
            "Forgot the mask",
            "The masked cells (key after query) must get "
            "0 in P and in A, and are left out of the column sums.",
            downstream(t, t.scaled, mask=None),
        ),
        _said(
            "mask_side",
            "Masked the wrong triangle",
            "Query j may see keys i <= j: the "
            "cells below the diagonal are masked, not those above.",
            downstream(t, t.scaled, mask=t.mask.T),
        ),
        _said(
            "mask_after",
            "Masked after the softmax",
            "Masked cells were zeroed after "
            "dividing, so the columns no longer add up to 1: leave masked cells out of the "
            "column sums.",
            downstream(t, t.scaled, after=True),
        ),
    ]


def _weight_mistakes(t: HandTrace) -> list[Mistake]:
    out = []
    ws = {"q": ("W_Q", t.w_q), "k": ("W_K", t.w_k), "v": ("W_V", t.w_v)}
    for step, (right, _) in ws.items():
        for wrong, w in ws.values():
            if wrong != right and w.shape[0] == len(getattr(t, step)):
                out.append(
                    _said(
                        "wrong_weight",
                        "Wrong weight matrix",
                        "This grid is {wrong} X; {step} = {right} X.",
                        {step: w @ t.x},
                        wrong=wrong,
                        step=step.upper(),
                        right=right,
                    )
                )
    return out


def variants(t: HandTrace) -> list[Mistake]:
    """Every known mistake for this trace, in the order the checker reports them."""
    return [
        *_transpose_mistakes(t),
        *_scale_mistakes(t),
        *_softmax_mistakes(t),
        *_mask_mistakes(t),
        *_weight_mistakes(t),
    ]
