"""The sheet's content, shared by every format: the grids in order, the rules, the title line.

``sections(ex)`` lists each matrix as a ``Grid`` holding its key text; a template prints
only the givens. In English and Spanish every string is ASCII or latin-1, so the PDF core
fonts can print it; a Chinese sheet embeds a font with the Chinese characters (``pdf``).
Words are in the current language (``attn_lessons.i18n``): the page's, or the CLI's --lang.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np

from attn_core.by_hand.backward import HandGrads
from attn_core.by_hand.exercises import Exercise
from attn_core.by_hand.rules import decimal_str, frac_str
from attn_core.by_hand.tiles import HandTile
from attn_core.by_hand.trace import HandTrace
from attn_lessons.i18n import N_, _


@dataclass(frozen=True)
class Grid:
    """One matrix on the sheet. ``text`` is the key; a template prints it only if ``given``."""

    title: str
    step: str  # the workbook sheet it goes on
    rows: tuple[str, ...]
    cols: tuple[str, ...]
    text: tuple[tuple[str, ...], ...]
    sub: tuple[tuple[str, ...], ...] | None = None  # decimals under fractions
    given: bool = False
    shaded: frozenset[tuple[int, int]] = frozenset()  # masked cells
    corner: str = ""
    total_row: bool = False  # the last row holds column sums


def _ints(a) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(str(int(v)) for v in row) for row in a)


def _fracs(a) -> tuple[tuple, tuple]:
    text = tuple(tuple(frac_str(v) for v in row) for row in a)
    sub = tuple(
        tuple("" if Fraction(v).denominator == 1 else decimal_str(v) for v in row) for row in a
    )
    return text, sub


def _labels(prefix: str, n: int) -> tuple[str, ...]:
    return tuple(f"{prefix}{i + 1}" for i in range(n))


def _scale_title(rule: str) -> str:
    return "floor(S / 2)" if rule == "floor" else _("trunc(S / 2), toward 0")


def _masked(t: HandTrace) -> frozenset[tuple[int, int]]:
    """(key i, query j) cells a causal mask forbids: printed grey."""
    if t.mask is None:
        return frozenset()
    return frozenset((int(i), int(j)) for i, j in zip(*np.nonzero(~t.mask), strict=True))


def _head_grids(t: HandTrace, sfx: str) -> list[Grid]:
    """Steps 1-7 for one head; `sfx` names the head on a two-head sheet."""
    tok, dims, kq, grey = _labels("t", t.tokens), _labels("", t.d_k), "k\\q", _masked(t)
    p_text, p_sub = _fracs([*t.powers, t.col_sums])
    a_text, a_sub = _fracs(t.weights)
    z_text, z_sub = _fracs(t.z)
    return [
        Grid(f"Q = W_Q X{sfx}", "1 Q K V", dims, tok, _ints(t.q)),
        Grid(f"K = W_K X{sfx}", "1 Q K V", dims, tok, _ints(t.k)),
        Grid(f"V = W_V X{sfx}", "1 Q K V", _labels("", len(t.v)), tok, _ints(t.v)),
        Grid(f"K^T{sfx}", _("2 K transposed"), tok, dims, _ints(t.k_t)),
        Grid(f"S = K^T Q{sfx}", _("3 Scores"), tok, tok, _ints(t.scores), corner=kq),
        Grid(_scale_title(t.scale_rule) + sfx, _("4 Scaled"), tok, tok, _ints(t.scaled), corner=kq),
        Grid(
            _("P = {base}^x, column sums").format(base=t.base) + sfx,
            _("5 Powers"),
            (*tok, _("sum")),
            tok,
            p_text,
            p_sub,
            shaded=grey,
            corner=kq,
            total_row=True,
        ),
        Grid(
            _("A = P / column sum") + sfx,
            _("6 Weights A"),
            tok,
            tok,
            a_text,
            a_sub,
            shaded=grey,
            corner=kq,
        ),
        Grid(f"Z = V A{sfx}", _("7 Output Z"), _labels("", len(t.z)), tok, z_text, z_sub),
    ]


def _tile_grids(tile: HandTile, n: int, tokens: int) -> list[Grid]:
    """One block of the online softmax: m, c (after the first block), P, l, U, and Z so far."""
    tok, name, step = _labels("t", tokens), _("Block {n}").format(n=n + 1), _("8 Tiles")
    keys = tuple(f"k{i + 1}" for i in range(tile.start, tile.stop))

    def title(words: str) -> str:
        return f"{name}: {words}"

    m = Grid(title(_("m = column max so far")), step, ("m",), tok, _ints([tile.m]))
    p_text, p_sub = _fracs(tile.powers)
    powers = Grid(title("P = 3^(s - m)"), step, keys, tok, p_text, p_sub, corner="k\\q")
    l_text, l_sub = _fracs([tile.l])
    running = Grid(title(_("l = c l + column sums of P")), step, ("l",), tok, l_text, l_sub)
    u_text, u_sub = _fracs(tile.u)
    rows = _labels("", len(tile.u))
    u = Grid(title("U = c U + V P"), step, rows, tok, u_text, u_sub)
    z_text, z_sub = _fracs(tile.z)
    z = Grid(title(_("Z so far = U / l")), step, rows, tok, z_text, z_sub)
    if n == 0:
        return [
            m,
            powers,
            replace(running, title=title(_("l = column sums of P"))),
            replace(u, title=title("U = V P")),
            z,
        ]
    c_text, c_sub = _fracs([tile.rescale])
    c = Grid(title(_("c = 3^(m before - m)")), step, ("c",), tok, c_text, c_sub)
    return [m, c, powers, running, u, z]


def _backward_grids(g: HandGrads, t: HandTrace) -> list[Grid]:
    """Steps 8-13: the gradients, back from dZ to dQ and dK."""
    tok, dims, kq, step = _labels("t", t.tokens), _labels("", t.d_k), "k\\q", _("8 Backward")
    grids = []
    for title, m, rows, cols, corner in (
        ("8. dV = dZ A^T", g.dv, _labels("", len(g.dv)), tok, ""),
        ("9. dA = V^T dZ", g.d_weights, tok, tok, kq),
        (N_("10. c = column sums of A * dA"), g.col_dots[None], ("c",), tok, ""),
        ("11. dS = A * (dA - c)", g.d_scaled, tok, tok, kq),
        (N_("12. dS / 2 (slope of s / 2)"), g.d_scores, tok, tok, kq),
        ("13. dQ = K (dS / 2)", g.dq, dims, tok, ""),
        ("13. dK = Q (dS / 2)^T", g.dk, dims, tok, ""),
    ):
        text, sub = _fracs(m)
        grids.append(Grid(_(title), step, rows, cols, text, sub, corner=corner))
    return grids


def sections(ex: Exercise) -> list[tuple[str, list[Grid]]]:
    """The sheet as (heading, grids) in order: the givens, then every step of every head."""
    tok, feat = _labels("t", ex.tokens), _labels("f", ex.features)
    given = _("Givens")
    givens = [Grid(_("X (features x tokens)"), given, feat, tok, _ints(ex.x), given=True)]
    out = [(_("Given"), givens)]
    for h, head in enumerate(ex.heads):
        sfx = " " + _("(head {n})").format(n=h + 1) if ex.n_heads > 1 else ""
        for name, w in (("W_Q", head.w_q), ("W_K", head.w_k), ("W_V", head.w_v)):
            rows = _labels("", len(w))
            givens.append(Grid(name + sfx, given, rows, feat, _ints(w), given=True))
        out.append((_("Your work") + sfx, _head_grids(head, sfx)))
    if ex.tiles:
        tiles = [g for n, tile in enumerate(ex.tiles) for g in _tile_grids(tile, n, ex.tokens)]
        out.append((_("In tiles: the keys two at a time"), tiles))
    if ex.grads is not None:
        d_v = _labels("", len(ex.d_z))
        givens.append(
            Grid(_("dZ (gradient of the loss)"), given, d_v, tok, _ints(ex.d_z), given=True)
        )
        out.append((_("Backward pass"), _backward_grids(ex.grads, ex.heads[0])))
    if ex.n_heads > 1:
        text, sub = _fracs(ex.z)
        rows = _labels("", len(ex.z))
        title = _("Z = Z (head 1) on top of Z (head 2)")
        z = Grid(title, _("7 Output Z"), rows, tok, text, sub)
        out.append((_("Both heads"), [z]))
    return out


_SCALE_RULES = {
    "floor": N_("floor(s / 2), rounding down: floor(1.5) = 1, floor(-0.5) = -1, floor(-1.5) = -2."),
    "trunc": N_(
        "trunc(s / 2), dropping the fraction: trunc(1.5) = 1, trunc(-0.5) = 0, trunc(-1.5) = -1."
    ),
}


def rules(ex: Exercise) -> list[str]:
    """The rules printed on every sheet, in the order the student uses them."""
    lines = [
        _("Tokens are columns: X is features x tokens. W_Q, W_K, W_V are d_k x features."),
        _("1. Q = W_Q X, K = W_K X, V = W_V X (each d_k x tokens).   2. Write K^T (tokens x d_k)."),
        _("3. S = K^T Q (tokens x tokens): row i is key i, column j is query j."),
        _("4. Scale: instead of S / sqrt(d_k) use {rule}").format(
            rule=_(_SCALE_RULES[ex.scale_rule])
        ),
        _(
            "5. Instead of e use 3: write 3^x for every scaled score (3^-1 = 1/3, 3^0 = 1). "
            "Sum each column."
        ),
        _(
            "6. A = each entry divided by its column sum. Keep exact fractions (like 9/28); "
            "each column of A sums to 1."
        ),
        _("7. Z = V A (d_v x tokens): column j is token j's new feature vector."),
    ]
    if ex.causal:
        lines.append(
            _(
                "Causal: query j may see keys i <= j only. Grey cells (key after query) "
                "are masked: write 0 in P and in A."
            )
        )
    if ex.tiles:
        lines += [
            _(
                "8. In tiles: redo steps 5-7 reading the keys (rows of S) two at a time, never "
                "the whole column at once. Block 1: m = the column max, P = 3^(s - m), "
                "l = column sums of P, U = V P (the block's columns of V)."
            ),
            _(
                "Each later block: m = max(m before, block max), c = 3^(m before - m), P = "
                "3^(s - m), l = c l + column sums of P, U = c U + V P. At the end U / l is Z of "
                "step 7."
            ),
        ]
    if ex.grads is not None:
        lines += [
            _(
                "Backward: dZ is given. 8. dV = dZ A^T.  9. dA = V^T dZ (row i: key i, "
                "column j: query j).  10. c_j = sum over i of A_ij dA_ij."
            ),
            _(
                "11. dS = A * (dA - c): each entry times (its dA minus its column's c).  "
                "12. Halve dS (the slope of s / 2).  13. dQ = K (dS / 2), dK = Q (dS / 2)^T."
            ),
        ]
    if ex.n_heads > 1:
        lines.append(
            _(
                "Two heads: each head has its own W_Q, W_K, W_V ({d_k} rows each). "
                "Do steps 1-7 per head, then stack Z (head 1) on top of Z (head 2)."
            ).format(d_k=ex.d_k)
        )
    return lines


# The settings' words, as `describe` prints them (marked here: they are values in code).
_SETTING_WORDS = (
    N_("easy"),
    N_("medium"),
    N_("hard"),
    N_("plain"),
    N_("causal"),
    N_("two heads"),
    N_("tiles"),
    N_("backward"),
)


def describe(ex: Exercise) -> str:
    """The settings line printed under the title and in every footer."""
    return _(
        "seed {seed} | {difficulty} | {variant} | {rule} | "
        "{tokens} tokens, {features} features, d_k = {d_k}"
    ).format(
        seed=ex.seed,
        difficulty=_(ex.difficulty),
        variant=_(ex.variant.replace("_", " ")),
        rule=ex.scale_rule,
        tokens=ex.tokens,
        features=ex.features,
        d_k=ex.d_k,
    )
