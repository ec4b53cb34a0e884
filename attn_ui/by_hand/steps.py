"""The by-hand page, one step at a time: the stepper, each step's grids, the exact twin beside.

Every number comes from the ``HandTrace`` and its ``Comparison`` with the exact rules.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

import attn_core
from attn_core.by_hand.compare import Comparison, rule_cells
from attn_core.by_hand.trace import HandTrace, to_rows
from attn_lessons.i18n import N_, _
from attn_ui.by_hand.grids import (
    axes,
    cell_text,
    dims,
    features,
    show,
    side_by_side,
    signed_text,
    text_table,
    tokens,
)
from attn_ui.by_hand.working import working
from attn_ui.frame import fill

STEPS = ("givens", "q", "k", "v", "k_t", "scores", "scaled", "powers", "weights", "z")
TITLES = {  # shown as `_(TITLES[step])`; the formulas have no words to translate
    "givens": N_("The givens: X, W_Q, W_K, W_V"),
    "q": "Q = W_Q X",
    "k": "K = W_K X",
    "v": "V = W_V X",
    "k_t": N_("Kᵀ: K transposed"),
    "scores": "S = Kᵀ Q",
    "scaled": N_("Scale: instead of S / √d_k"),
    "powers": N_("P = 3^x, then column sums"),
    "weights": N_("A = P / column sum"),
    "z": "Z = V A",
}
FLAG = "⚑"


def go(step: int) -> None:
    st.session_state["hand_step"] = max(0, min(step, len(STEPS) - 1))


def move(by: int) -> None:
    """From the step shown now, not the one drawn on the button: fast double clicks add up."""
    go(st.session_state.get("hand_step", 0) + by)


def stepper() -> int:
    """Previous / Next / Show all; returns the index of the last step to show."""
    step = st.session_state.setdefault("hand_step", 0)
    c = st.columns([1, 1, 1, 2], vertical_alignment="center")
    c[0].button(
        _("Previous step"),
        key="hand_prev",
        on_click=move,
        args=(-1,),
        disabled=step == 0,
        icon=":material/arrow_back:",
        width="stretch",
    )
    c[1].button(
        _("Next step"),
        key="hand_next",
        on_click=move,
        args=(1,),
        type="primary",
        disabled=step == len(STEPS) - 1,
        icon=":material/arrow_forward:",
        width="stretch",
    )
    c[2].button(
        _("Show all"),
        key="hand_all",
        on_click=go,
        args=(len(STEPS) - 1,),
        icon=":material/unfold_more:",
        width="stretch",
    )
    c[3].progress(
        (step + 1) / len(STEPS),
        text=_("Step {n} of {total}").format(n=step, total=len(STEPS) - 1),
    )
    return step


def render(n: int, t: HandTrace, cmp: Comparison, j: int, text: dict, *, per_row=4) -> None:
    """Step `n` under its heading: the grid by hand, its working, and the exact one beside
    (the givens: `per_row` grids to a line, 2 in a column beside the lesson's words)."""
    step = STEPS[n]
    heading = _(TITLES[step])
    if n:
        heading = _("Step {n}. {title}").format(n=n, title=heading)
    st.subheader(heading, anchor=f"step-{step}")
    st.markdown(text.get(f"Step: {step}", ""))
    if step == "givens":
        return _givens(t, per_row)
    flagged = cmp.changed if step == "weights" else ()
    left, right = st.columns(2)
    with left:
        _by_hand(step, t, flagged)
        st.caption(working(t, step, j))
    with right:
        _exact(step, cmp, flagged, text)
    if step == "scaled":
        _rule_effect(t, text)
    if step == "weights" and cmp.changed:
        _flags(cmp)


def _givens(t: HandTrace, per_row: int) -> None:
    tok, feat = tokens(t.tokens), features(len(t.x))
    grids = (
        (_("X (features × tokens)"), t.x, feat, tok, "hand_grid_x"),
        ("W_Q", t.w_q, dims(t.d_k), feat, "hand_grid_w_q"),
        ("W_K", t.w_k, dims(t.d_k), feat, "hand_grid_w_k"),
        ("W_V", t.w_v, dims(len(t.v)), feat, "hand_grid_w_v"),
    )
    side_by_side(grids, per_row=per_row)


def _grid(step: str, t: HandTrace, values, flagged=(), fmt=cell_text) -> pd.DataFrame:
    """The matrix of `step` and its labels; the powers carry their column sums as a last row."""
    rows, cols = axes(step, t)
    cols = [f"{c} {FLAG}" if j in flagged else c for j, c in enumerate(cols)]
    m = values(step)
    if step == "powers":  # the column sums go under the powers, as on paper
        m, rows = np.vstack([m, values("col_sums")[None, :]]), [*rows, _("column sum")]
    return text_table(m, rows, cols, fmt=fmt)


def _by_hand(step: str, t: HandTrace, flagged) -> None:
    title = _(TITLES[step]) if step != "scaled" else f"{t.scale_rule}(S / 2)"
    masked = None if t.mask is None or step not in ("powers", "weights") else ~t.mask
    if masked is not None and step == "powers":
        masked = np.vstack([masked, np.zeros((1, t.tokens), bool)])
    grey = _("Grey cells are masked (key after query).") if masked is not None else ""
    show(
        _grid(step, t, lambda s: getattr(t, s), flagged),
        title=_("By hand: {title}").format(title=title),
        key=f"hand_grid_{step}",
        masked=masked,
        caption=grey,
    )


def _exact(step: str, cmp: Comparison, flagged, text: dict) -> None:
    e, root = cmp.exact, f"√{cmp.exact.d_k}"
    if step not in ("scaled", "powers", "weights", "z"):
        if step == "q":
            st.info(text["Exact up to the scores"], icon=":material/check:")
        return
    names = {
        "scaled": f"S / {root} ({root} ≈ {math.sqrt(e.d_k):.3f})",
        "powers": _("e^(S / {root}), then column sums").format(root=root),
        "weights": _("A, exact softmax"),
        "z": "Z = V A",
    }
    show(
        _grid(step, e, lambda s: getattr(e, s), flagged),
        title=_("Exact: {title}").format(title=names[step]),
        key=f"hand_exact_{step}",
    )
    show(
        _grid(step, e, cmp.diff, flagged, signed_text),
        title=_("By hand − exact"),
        key=f"hand_diff_{step}",
    )


def _rule_effect(t: HandTrace, text: dict) -> None:
    cells = rule_cells(t.scores)
    if not cells:
        st.info(text["The rule changes nothing here"])
        return
    where = _("key {key}, query {query}")
    lines = [
        f"| {where.format(key=f't{i + 1}', query=f't{j + 1}')} | {s} | {s / 2:g} | {f} | {tr} |"
        for i, j, s, f, tr in cells
    ]
    head = "| " + _("cell") + " | S | S / 2 | floor | trunc |\n|---|---|---|---|---|\n"
    st.markdown(
        fill(text["Where the rule matters"], rule=t.scale_rule) + "\n\n" + head + "\n".join(lines)
    )


def _who(keys: tuple[int, ...]) -> str:
    names = [f"t{i + 1}" for i in keys]
    if len(names) == 1:
        return _("key {token}").format(token=names[0])
    return _("keys {tokens} and {last} (a tie)").format(
        tokens=", ".join(names[:-1]), last=names[-1]
    )


def _flags(cmp: Comparison) -> None:
    for j in cmp.changed:
        hand, exact = _who(cmp.top_hand[j]), _who(cmp.top_exact[j])
        said = _(
            "Query {query}: by hand the most attention goes to {hand}; exactly, to {exact}. "
            "The simplification changes which token wins here."
        ).format(query=f"t{j + 1}", hand=hand, exact=exact)
        st.warning(f"{FLAG} {said}", icon=":material/flag:")


def row_convention(t: HandTrace, cmp: Comparison, text: dict) -> None:
    """The same numbers with tokens as rows: every grid transposed, checked by the row engine."""
    with st.expander(_("How this relates to the row convention (tokens as rows)")):
        st.markdown(text.get("The row convention", ""))
        rows, tok = to_rows(t), tokens(t.tokens)
        c = st.columns(2)
        with c[0]:
            show(
                text_table(
                    rows["weights"],
                    [_("query {token}").format(token=s) for s in tok],
                    [_("key {token}").format(token=s) for s in tok],
                ),
                title=_("A_rows = Aᵀ (each row sums to 1)"),
                key="hand_rows_weights",
            )
        with c[1]:
            show(
                text_table(rows["output"], tok, dims(len(t.z))),
                title="Z_rows = Zᵀ",
                key="hand_rows_output",
            )
        e = cmp.exact
        mask = None if e.mask is None else attn_core.causal_mask(t.tokens)
        ref = attn_core.self_attention(e.x.T, e.w_q.T, e.w_k.T, e.w_v.T, mask=mask)
        gap = float(np.abs(ref.weights - e.weights.T).max())
        st.caption(fill(text["The row engine agrees"], gap=f"{gap:.1e}"))
