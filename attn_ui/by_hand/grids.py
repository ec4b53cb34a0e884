"""Grids of the by-hand convention, shared by the by-hand, practice and worksheets pages.

Cells are text: whole numbers as they are, fractions exact with a rounded decimal beside
("9/28 ≈ 0.321"). Each grid sits in a keyed container so tests can find it; every label is
ours, and learner-typed text only ever reaches the page as table cells or escaped text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import pandas as pd
import streamlit as st

from attn_core.by_hand.exercises import DIFFICULTIES, VARIANTS, Exercise, make_exercise
from attn_core.by_hand.rules import decimal_str
from attn_core.by_hand.trace import HandTrace
from attn_lessons.i18n import N_, _

GREY = "background-color: #e8e8e8; color: #777777"  # masked cells, as on the printed sheet
# the options' names as shown (`_(RULE_NAMES[v])`); the keys are the values code keeps
RULE_NAMES = {"floor": N_("floor(s / 2): round down"), "trunc": N_("trunc(s / 2): toward 0")}
VARIANT_NAMES = {
    "plain": N_("plain"),
    "causal": N_("causal mask"),
    "two_heads": N_("two heads"),
    "tiles": N_("in tiles (online softmax)"),
    "backward": N_("backward pass"),
}
DIFFICULTY_NAMES = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard")}
_MARKDOWN = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$^:=])")


def tokens(n: int) -> list[str]:
    return [f"t{j + 1}" for j in range(n)]


def features(n: int) -> list[str]:
    return [f"f{j + 1}" for j in range(n)]


def dims(n: int, heads: int = 1) -> list[str]:
    """Row labels of Q, K, V and the weights: d1, d2, ... (h1 d1, ... h2 d1 for two heads)."""
    per = n // heads
    if heads == 1:
        return [f"d{i + 1}" for i in range(n)]
    return [f"h{i // per + 1} d{i % per + 1}" for i in range(n)]


def cell_text(v) -> str:
    """'3', '9/28 ≈ 0.321', or a float to 3 decimals."""
    if isinstance(v, (float, np.floating)):
        return f"{v:.3f}"
    f = Fraction(int(v)) if isinstance(v, (int, np.integer)) else Fraction(v)
    return str(f) if f.denominator == 1 else f"{f} ≈ {decimal_str(f)}"


def signed_text(v: float) -> str:
    """A difference: '+0.125', '-0.040', or '0' when it rounds to nothing."""
    return "0" if abs(v) < 5e-4 else f"{v:+.3f}"


def axes(step: str, t: HandTrace) -> tuple[list[str], list[str]]:
    """Row and column labels of a step's grid (q, k, v, z: features by tokens; k_t: tokens by
    features; the rest: keys by queries, and col_sums one row under the queries)."""
    tok = tokens(t.tokens)
    if step in ("q", "k", "v", "z"):
        return dims(len(getattr(t, step))), tok
    if step == "k_t":
        return tok, dims(t.d_k)
    queries = [_("query {token}").format(token=s) for s in tok]
    if step == "col_sums":
        return [_("column sum")], queries
    return [_("key {token}").format(token=s) for s in tok], queries


def text_table(m, rows: Sequence[str], cols: Sequence[str], fmt=cell_text) -> pd.DataFrame:
    """The grid `m` (R, C) as a table of text, labelled like the sheet."""
    m = np.asarray(m, dtype=object).reshape(len(rows), len(cols))
    return pd.DataFrame([[fmt(v) for v in row] for row in m], index=list(rows), columns=list(cols))


def corner(title: str) -> str:
    """The grid's name for its corner cell: "X" for "X (features × tokens)", "P" for
    "P = 3^(s − m)"; "grid" when the title starts with a formula cut mid-way ("floor(Kᵀ")."""
    name = title.split(" = ")[0].split()[0]
    return name if name.count("(") == name.count(")") else "grid"


def show(df: pd.DataFrame, *, title: str, key: str, masked=None, caption: str = "") -> None:
    """A titled grid; `masked` (R, C) bool greys the cells the mask forbids."""
    with st.container(key=key):
        st.markdown(f"**{title}**")
        # the grid's name in its corner cell: a header cell with no text is announced as
        # nothing (axe-core's empty-table-header)
        style = df.rename_axis(index=corner(title)).style
        if masked is not None:
            grey = np.where(np.asarray(masked), GREY, "")
            style = style.apply(lambda _df: grey, axis=None)
        st.table(style)
        if caption:
            st.caption(caption)


def plain(text: str) -> str:
    """`text` with every Markdown character escaped: the sheet's own lines, shown as printed
    (a rule such as "1. Q = W_Q X" must not become a numbered list)."""
    return _MARKDOWN.sub(r"\\\1", text)


def exercise_controls(prefix: str, *, sizes: bool = False, variants=VARIANTS) -> dict:
    """Seed, difficulty, variant (one of `variants`) and scale rule (and sizes):
    ``make_exercise`` keywords."""
    c = st.columns([1, 1, 1, 1.4])
    seed = c[0].number_input(_("Seed"), 0, 99_999, value=7, step=1, key=f"{prefix}_seed")
    settings = {
        "seed": int(seed),
        "difficulty": c[1].selectbox(
            _("Difficulty"),
            DIFFICULTIES,
            format_func=lambda v: _(DIFFICULTY_NAMES.get(v, v)),
            key=f"{prefix}_difficulty",
        ),
        "variant": c[2].selectbox(
            _("Variant"),
            variants,
            format_func=lambda v: _(VARIANT_NAMES[v]),
            key=f"{prefix}_variant",
        ),
        "scale_rule": c[3].radio(
            _("Scale rule"),
            tuple(RULE_NAMES),
            format_func=lambda v: _(RULE_NAMES[v]),
            key=f"{prefix}_rule",
            horizontal=True,
        ),
    }
    if sizes:
        s = st.columns(3)
        for col, name, label, values in (
            (s[0], "tokens", _("Tokens"), (3, 4, 5, 6)),
            (s[1], "features", _("Features"), (4, 5, 6, 7, 8)),
            (s[2], "d_k", _("d_k (rows per head)"), (2, 3, 4)),
        ):
            pick = col.selectbox(
                label,
                ("auto", *values),
                format_func=lambda v: _("auto") if v == "auto" else str(v),
                key=f"{prefix}_{name}",
                help=_("auto: the difficulty chooses"),
            )
            settings[name] = None if pick == "auto" else int(pick)
    return settings


@st.cache_data(max_entries=64, show_spinner=False)
def exercise(**settings) -> Exercise:
    """``make_exercise`` cached: the same settings give the same (read-only) sheet."""
    return make_exercise(**settings)


def side_by_side(grids: Sequence[tuple], *, per_row: int = 4) -> None:
    """Titled grids ``(title, m, rows, cols, key)``, `per_row` to a line, each as wide as
    its columns: 2 to a line in a page's figure column, beside the lesson's words."""
    for start in range(0, len(grids), per_row):
        line = grids[start : start + per_row]
        widths = [len(grid[3]) + 1 for grid in line]  # its columns and row labels
        for slot, (title, m, rows, cols, key) in zip(st.columns(widths), line, strict=True):
            with slot:
                show(text_table(m, rows, cols), title=title, key=key)


def givens(ex: Exercise, key: str, *, per_row: int = 4) -> None:
    """X and the weight matrices of an exercise, side by side (`side_by_side`)."""
    tok, feat, rows = tokens(ex.tokens), features(ex.features), dims(len(ex.w_q), ex.n_heads)
    grids = [(_("X (features × tokens)"), ex.x, feat, tok, f"{key}_x")]
    for name, w in zip(("W_Q", "W_K", "W_V"), (ex.w_q, ex.w_k, ex.w_v), strict=True):
        grids.append((name, w, rows, feat, f"{key}_{name.lower()}"))
    side_by_side(grids, per_row=per_row)
