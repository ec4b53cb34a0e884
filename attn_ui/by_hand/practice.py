"""The practice page: choose a step, fill its grid in a data editor, check it, reveal it.

The checking is ``attn_core.by_hand.checking``; this module lays out the editor and the verdict.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from attn_core.by_hand.answers import TOLERANCE
from attn_core.by_hand.checking import STEPS, check_grid, expected
from attn_core.by_hand.exercises import Exercise
from attn_core.by_hand.trace import HandTrace
from attn_lessons.i18n import DEFAULT, N_, _, ngettext, using
from attn_ui.by_hand.grids import axes, show, text_table
from attn_ui.frame import stop_on_error

TITLES = {  # shown as `_(TITLES[step])`; the formulas have no words to translate
    "q": "Q = W_Q X",
    "k": "K = W_K X",
    "v": "V = W_V X",
    "k_t": "Kᵀ",
    "scores": "S = Kᵀ Q",
    "scaled": N_("scaled scores"),
    "powers": "P = 3^x",
    "col_sums": N_("column sums of P"),
    "weights": N_("A = P / column sum"),
    "z": "Z = V A",
}
# The core's names of the likely mistakes (attn_core.by_hand.mistakes, which has no
# translations), marked here so that `_(m.title)` shows them translated; a title the core
# changes shows in English until it is marked again. Their details are extracted from the core
# itself (its `_said` templates, `make catalogs`) and filled with the core's own values.
MISTAKE_TITLES = (
    N_("Transpose mix-up"),
    N_("Forgot to transpose"),
    N_("Forgot to scale"),
    N_("Floor versus truncate"),
    N_("Rounded up"),
    N_("Divided by the square root"),
    N_("Exact softmax instead of the by-hand rules"),
    N_("Row-wise instead of column-wise softmax"),
    N_("Forgot to divide"),
    N_("e^x instead of 3^x"),
    N_("x^3 instead of 3^x"),
    N_("Forgot the mask"),
    N_("Masked the wrong triangle"),
    N_("Masked after the softmax"),
    N_("Wrong weight matrix"),
)
MARKS = {"right": "✓", "wrong": "✗", "blank": "·"}
COLOURS = {"right": "background-color: #dff3e4", "wrong": "background-color: #fbd5d5", "blank": ""}


def detail(m) -> str:
    """A likely mistake's explanation in the page's language, with the sheet's values."""
    return _(m.template).format(**m.fills) if m.template else m.detail


def title(step: str, t: HandTrace) -> str:
    return f"{t.scale_rule}(S / 2)" if step == "scaled" else _(TITLES[step])


def _new_sheet() -> None:
    st.session_state["practice_seed"] = st.session_state.get("practice_seed", 7) + 1


def new_sheet_button() -> None:
    st.button(
        _("New exercise (next seed)"),
        key="practice_new",
        on_click=_new_sheet,
        icon=":material/casino:",
    )


def pick(ex: Exercise) -> tuple[HandTrace, str]:
    """The head (two-head sheets) and the step to practise."""
    c = st.columns([1, 2]) if ex.n_heads > 1 else [None, st.container()]
    head = 0
    if ex.n_heads > 1:
        head = c[0].radio(
            _("Head"),
            range(ex.n_heads),
            format_func=lambda h: _("head {n}").format(n=h + 1),
            key="practice_head",
            horizontal=True,
        )
    t = ex.heads[head]
    step = c[1].selectbox(
        _("Step to fill in"),
        STEPS,
        key="practice_step",
        format_func=lambda s: f"{STEPS.index(s) + 1}. {title(s, t)}",
    )
    return t, step


def grid_key(ex: Exercise, t: HandTrace, step: str) -> str:
    """One editor per sheet, head and step: typing in one never lands in another."""
    head = next(h for h, head in enumerate(ex.heads) if head is t)
    sheet = "_".join(str(ex.settings[k]) for k in ("seed", "difficulty", "variant", "scale_rule"))
    return f"practice_grid_{sheet}_{head}_{step}"


def earlier(t: HandTrace, step: str) -> None:
    """The right grids of the steps before, to start this step from correct numbers."""
    before = STEPS[: STEPS.index(step)]
    if not before:
        return
    with st.expander(_("The steps before this one (right answers, to start from)")):
        cols = st.columns(min(len(before), 3))
        for n, s in enumerate(before):
            with cols[n % len(cols)]:
                rows, cs = axes(s, t)
                show(
                    text_table(expected(t, s), rows, cs),
                    title=title(s, t),
                    key=f"practice_prev_{s}",
                )


def editor(t: HandTrace, step: str, key: str) -> np.ndarray:
    """An empty grid of text cells for the learner; returns what they typed, (R, C)."""
    rows, cols = axes(step, t)
    # i18n: the editor's columns keep their English names in every language, shown translated
    # (`TextColumn`'s label): Streamlit applies the typed cells by column name, so typed cells
    # kept across a change of language would find no column (a KeyError)
    with using(DEFAULT):
        names = axes(step, t)[1]
    df = pd.DataFrame("", index=pd.Index(rows, name=_("row")), columns=names)  # a named corner
    config = {  # headers readable on phones
        c: st.column_config.TextColumn(shown) for c, shown in zip(names, cols, strict=True)
    }
    st.markdown("**" + _("Your grid: {title}").format(title=title(step, t)) + "**")
    edited = st.data_editor(df, column_config=config, num_rows="fixed", key=key)
    if t.mask is not None and step in ("powers", "weights"):
        hint = _(
            "Whole numbers (4), fractions (9/28) or decimals within ±{tolerance}. Causal: a "
            "key after its query (below the diagonal) is masked: write 0."
        )
    else:
        hint = _("Whole numbers (4), fractions (9/28) or decimals within ±{tolerance}.")
    st.caption(hint.format(tolerance=f"{TOLERANCE:g}"))
    return edited.to_numpy(dtype=object)


def _remember(name: str, key: str) -> None:
    st.session_state[name] = key


def buttons(key: str) -> tuple[bool, bool]:
    """Check and Reveal; each stays on for this grid until another grid is picked."""
    c = st.columns([1, 1, 3])
    for col, label, name, word, icon in (
        (c[0], _("Check"), "checked", "check", ":material/check:"),
        (c[1], _("Reveal the answer"), "revealed", "reveal", ":material/visibility:"),
    ):
        col.button(
            label,
            key=f"practice_{word}",
            type="primary" if name == "checked" else "secondary",
            on_click=_remember,
            args=(f"practice_{name}", key),
            icon=icon,
            width="stretch",
        )
    state = st.session_state
    return state.get("practice_checked") == key, state.get("practice_revealed") == key


def verdict(t: HandTrace, step: str, cells: np.ndarray) -> None:
    """Marks every cell, counts, and names the likely mistake."""
    rows, cols = axes(step, t)
    with stop_on_error(section=True):  # a cell that is not a number: say which, mark nothing
        check = check_grid(t, step, cells, rows=rows, cols=cols, name=title(step, t))
        n, wrong, blank = check.status.size, len(check.wrong), len(check.blank)
        if check.all_right:
            st.success(
                ngettext("All {n} cells are right.", "All {n} cells are right.", n).format(n=n),
                icon=":material/celebration:",
            )
        elif wrong:
            if blank:
                said = ngettext(
                    "{wrong} of {n} cells are wrong; {blank} still empty. They are marked ✗ below.",
                    "{wrong} of {n} cells are wrong; {blank} still empty. They are marked ✗ below.",
                    wrong,
                )
            else:
                said = ngettext(
                    "{wrong} of {n} cells are wrong. They are marked ✗ below.",
                    "{wrong} of {n} cells are wrong. They are marked ✗ below.",
                    wrong,
                )
            st.error(said.format(wrong=wrong, n=n, blank=blank))
        else:
            if blank:
                said = _("No mistakes so far: {right} of {n} right; {blank} still empty.")
            else:
                said = _("No mistakes so far: {right} of {n} right.")
            st.info(said.format(right=check.n_right, n=n, blank=blank))
        _marked(cells, check.status, rows, cols)
        for m in check.diagnoses:
            st.warning(
                "**" + _("Likely mistake: {title}.").format(title=_(m.title)) + "** " + detail(m),
                icon=":material/lightbulb:",
            )
        if wrong and not check.diagnoses:
            st.info(_("No usual mistake gives these numbers: redo the arithmetic of the ✗ cells."))


def _marked(cells: np.ndarray, status: np.ndarray, rows, cols) -> None:
    """The learner's grid again, each cell marked ✓ (green), ✗ (red) or · (empty)."""
    text = [
        [MARKS[s] if s == "blank" else f"{MARKS[s]} {_text(c)}" for c, s in zip(r, sr, strict=True)]
        for r, sr in zip(cells, status, strict=True)
    ]
    styles = np.vectorize(COLOURS.get)(status)
    with st.container(key="practice_marked"):
        st.table(
            pd.DataFrame(text, index=rows, columns=cols)
            .rename_axis(index=_("your grid"))  # a corner with text (empty-table-header)
            .style.apply(lambda _df: styles, axis=None)
        )


def _text(cell) -> str:
    return cell.strip() if isinstance(cell, str) else f"{cell:g}"


def answer(t: HandTrace, step: str) -> None:
    rows, cols = axes(step, t)
    masked = ~t.mask if t.mask is not None and step in ("powers", "weights") else None
    show(
        text_table(expected(t, step), rows, cols),
        title=_("Answer: {title}").format(title=title(step, t)),
        key="practice_answer",
        masked=masked,
    )
