"""Checking a learner's grid for one step of attention by hand, and naming the likely mistake.

A grid is compared cell by cell with the step of a ``HandTrace`` (see ``attn_core.by_hand.answers``
for what counts as an answer). When cells are wrong, every known mistake
(``attn_core.by_hand.mistakes``) is recomputed for that step; a mistake is named when it gives the
learner's value in every wrong cell.

>>> from attn_core.by_hand.trace import hand_attention
>>> t = hand_attention([[1, 0], [0, 1]], [[1, 0]], [[1, 1]], [[0, 1]])
>>> check_grid(t, "scores", [["1", "1"], ["0", "0"]]).diagnoses[0].key
'transpose'
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attn_core.by_hand.answers import TOLERANCE, close, parse_grid
from attn_core.by_hand.mistakes import Mistake, variants
from attn_core.by_hand.trace import HandTrace
from attn_core.errors import AttentionInputError, ShapeError

# Every grid a learner fills, in the order of the sheet.
STEPS = ("q", "k", "v", "k_t", "scores", "scaled", "powers", "col_sums", "weights", "z")
DIAGNOSIS_REL = 0.01  # a mistake's decimals may be rounded a little more loosely (1 %)


@dataclass(frozen=True, eq=False)
class Check:
    """The verdict on one grid.

    Attributes
    ----------
    step : one of STEPS
    status : (R, C) str array of "right", "wrong" or "blank"
    diagnoses : the known mistakes that explain every wrong cell, most likely first
    tolerance : how far a decimal answer may be from the exact value
    """

    step: str
    status: np.ndarray
    diagnoses: tuple[Mistake, ...]
    tolerance: float

    @property
    def wrong(self) -> list[tuple[int, int]]:
        return [(int(i), int(j)) for i, j in np.argwhere(self.status == "wrong")]

    @property
    def blank(self) -> list[tuple[int, int]]:
        return [(int(i), int(j)) for i, j in np.argwhere(self.status == "blank")]

    @property
    def n_right(self) -> int:
        return int((self.status == "right").sum())

    @property
    def all_right(self) -> bool:
        return bool((self.status == "right").all())


def expected(t: HandTrace, step: str) -> np.ndarray:
    """The answer grid of `step`, always 2-D: the column sums are one row (1, T)."""
    if step not in STEPS:
        raise AttentionInputError.said(
            "step must be one of {steps}; got {step}.", steps=", ".join(STEPS), step=repr(step)
        )
    value = getattr(t, step)
    return value.reshape(1, -1) if step == "col_sums" else value


def check_grid(
    t: HandTrace,
    step: str,
    cells,
    *,
    tol: float = TOLERANCE,
    rows=None,
    cols=None,
    name: str | None = None,
) -> Check:
    """Compare the learner's `cells` (R, C) with the `step` grid of `t`.

    Parameters
    ----------
    cells : rows of str / int / float / None, shaped like ``expected(t, step)``
    tol : a decimal answer is right within tol of the exact value
    rows, cols, name : labels for error messages ("Q, row 2, column t3")

    Raises ``AnswerError`` for a cell that is not a number, ``ShapeError`` for a grid
    of the wrong shape.
    """
    want = expected(t, step)
    name = name or step
    answers = parse_grid(cells, name, rows, cols)
    if answers.shape != want.shape:
        (r, c), (gr, gc) = want.shape, answers.shape
        if answers.shape == want.T.shape:
            raise ShapeError.said(
                "The {name} grid needs {rows} rows and {columns} columns; this one is "
                "{got_rows} x {got_columns}. It looks transposed.",
                name=name,
                rows=r,
                columns=c,
                got_rows=gr,
                got_columns=gc,
            )
        raise ShapeError.said(
            "The {name} grid needs {rows} rows and {columns} columns; this one is "
            "{got_rows} x {got_columns}.",
            name=name,
            rows=r,
            columns=c,
            got_rows=gr,
            got_columns=gc,
        )
    status = np.empty(want.shape, dtype="<U5")
    for (i, j), a in np.ndenumerate(answers):
        status[i, j] = "blank" if a is None else "right" if close(a, want[i, j], tol) else "wrong"
    found = diagnose(t, step, answers, status, tol) if (status == "wrong").any() else ()
    return Check(step, status, found, tol)


def diagnose(
    t: HandTrace, step: str, answers: np.ndarray, status: np.ndarray, tol: float = TOLERANCE
) -> tuple[Mistake, ...]:
    """The known mistakes whose `step` grid equals the learner's answer in every wrong cell.

    Of those, only the ones contradicted by the fewest right cells are kept (a learner who
    truncated every score is not told they may have rounded up), one per kind of mistake.
    """
    wrong = [(i, j) for i, j in np.argwhere(status == "wrong")]
    right = [(i, j) for i, j in np.argwhere(status == "right")]
    found: dict[str, tuple[int, Mistake]] = {}
    for m in variants(t):
        alt = m.steps.get(step)
        alt = alt.reshape(1, -1) if alt is not None and step == "col_sums" else alt
        if alt is None or alt.shape != answers.shape or m.key in found:
            continue
        if all(close(answers[c], alt[c], tol, DIAGNOSIS_REL) for c in wrong):
            against = sum(not close(answers[c], alt[c], tol, DIAGNOSIS_REL) for c in right)
            found[m.key] = (against, m)
    fewest = min((n for n, _ in found.values()), default=0)
    return tuple(m for n, m in found.values() if n == fewest)
