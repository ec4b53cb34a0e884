"""One line of working per step, written out as on paper: '0·1 + (-1)·2 + 1·0 = -2'.

Only formatting: every result printed after '=' is read from the ``HandTrace``.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from attn_core.by_hand.trace import HandTrace

MATRIX = {"q": ("W_Q", "Q"), "k": ("W_K", "K"), "v": ("W_V", "V")}


def num(v) -> str:
    """A number as written inside a sum: negatives in brackets, fractions exact."""
    f = Fraction(int(v)) if isinstance(v, (int, np.integer)) else Fraction(v)
    return f"({f})" if f < 0 else str(f)


def result(v) -> str:
    """A number after '=': no brackets."""
    return num(v).strip("()")


def dot(a, b) -> str:
    return " + ".join(f"{num(x)}·{num(y)}" for x, y in zip(a, b, strict=True))


def working(t: HandTrace, step: str, j: int) -> str:
    """How the grid of `step` is filled for token (query) column j."""
    tj = f"t{j + 1}"
    if step in MATRIX:
        w_name, name = MATRIX[step]
        w, out = getattr(t, f"w_{step}"), getattr(t, step)
        return (
            f"{name}[d1, {tj}] = row d1 of {w_name} · column {tj} of X = "
            f"{dot(w[0], t.x[:, j])} = {result(out[0, j])}"
        )
    if step == "k_t":
        return f"Row {tj} of Kᵀ is column {tj} of K: ({', '.join(str(v) for v in t.k[:, j])})"
    if step == "scores":
        return (
            f"S[key t1, query {tj}] = column t1 of K · column {tj} of Q = "
            f"{dot(t.k[:, 0], t.q[:, j])} = {result(t.scores[0, j])}"
        )
    if step == "scaled":
        cells = [
            f"{t.scale_rule}({s} / 2) = {v}"
            for s, v in zip(t.scores[:, j], t.scaled[:, j], strict=True)
        ]
        return f"Column {tj}: " + ", ".join(cells)
    return _softmax_working(t, step, j, tj)


def _seen(t: HandTrace, j: int) -> list[int]:
    """The keys query j may see (all of them without a mask)."""
    return [i for i in range(t.tokens) if t.mask is None or t.mask[i, j]]


def _softmax_working(t: HandTrace, step: str, j: int, tj: str) -> str:
    seen = _seen(t, j)
    note = "" if len(seen) == t.tokens else " (masked keys count 0)"
    if step == "powers":
        powers = " + ".join(f"{t.base}^{num(t.scaled[i, j])}" for i in seen)
        values = " + ".join(num(t.powers[i, j]) for i in seen)
        return f"Column {tj}: {powers} = {values} = {result(t.col_sums[j])}{note}"
    if step == "weights":
        shares = [
            f"{num(t.powers[i, j])} / {num(t.col_sums[j])} = {result(t.weights[i, j])}"
            for i in seen
        ]
        return f"Column {tj}: " + ", ".join(shares) + note
    if step == "z":
        return (
            f"Z[d1, {tj}] = row d1 of V · column {tj} of A = "
            f"{dot(t.v[0], t.weights[:, j])} = {result(t.z[0, j])}"
        )
    raise ValueError(f"no working for step {step!r}")
