"""One line of working per step, written out as on paper: '0·1 + (-1)·2 + 1·0 = -2'.

Only formatting: every result printed after '=' is read from the ``HandTrace``.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from attn_core.by_hand.trace import HandTrace
from attn_lessons.i18n import _

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
        return _(
            "{name}[d1, {token}] = row d1 of {w} · column {token} of X = {sum} = {result}"
        ).format(name=name, token=tj, w=w_name, sum=dot(w[0], t.x[:, j]), result=result(out[0, j]))
    if step == "k_t":
        return _("Row {token} of Kᵀ is column {token} of K: ({values})").format(
            token=tj, values=", ".join(str(v) for v in t.k[:, j])
        )
    if step == "scores":
        return _(
            "S[key t1, query {token}] = column t1 of K · column {token} of Q = {sum} = {result}"
        ).format(token=tj, sum=dot(t.k[:, 0], t.q[:, j]), result=result(t.scores[0, j]))
    if step == "scaled":
        cells = [
            f"{t.scale_rule}({s} / 2) = {v}"
            for s, v in zip(t.scores[:, j], t.scaled[:, j], strict=True)
        ]
        return _column(tj, ", ".join(cells))
    return _softmax_working(t, step, j, tj)


def _column(tj: str, cells: str, masked: bool = False) -> str:
    """'Column t2: ...', saying when masked keys count 0."""
    if masked:
        return _("Column {token}: {cells} (masked keys count 0)").format(token=tj, cells=cells)
    return _("Column {token}: {cells}").format(token=tj, cells=cells)


def _seen(t: HandTrace, j: int) -> list[int]:
    """The keys query j may see (all of them without a mask)."""
    return [i for i in range(t.tokens) if t.mask is None or t.mask[i, j]]


def _softmax_working(t: HandTrace, step: str, j: int, tj: str) -> str:
    seen = _seen(t, j)
    masked = len(seen) != t.tokens
    if step == "powers":
        powers = " + ".join(f"{t.base}^{num(t.scaled[i, j])}" for i in seen)
        values = " + ".join(num(t.powers[i, j]) for i in seen)
        return _column(tj, f"{powers} = {values} = {result(t.col_sums[j])}", masked)
    if step == "weights":
        shares = [
            f"{num(t.powers[i, j])} / {num(t.col_sums[j])} = {result(t.weights[i, j])}"
            for i in seen
        ]
        return _column(tj, ", ".join(shares), masked)
    if step == "z":
        return _("Z[d1, {token}] = row d1 of V · column {token} of A = {sum} = {result}").format(
            token=tj, sum=dot(t.v[0], t.weights[:, j]), result=result(t.z[0, j])
        )
    raise ValueError(f"no working for step {step!r}")
