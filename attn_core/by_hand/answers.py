"""Reading what a learner typed into a grid: whole numbers, fractions, decimals, blanks.

"4", "-2", "9/28", "-1/3", "0.32", ".5" and "0,32" are answers; "", None and NaN are
unanswered cells. Whole numbers and fractions are exact; a decimal is right when it lies
within ``TOLERANCE`` of the exact value. Anything else raises ``AnswerError`` naming the cell.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from attn_core.errors import AttentionInputError, ShapeError

TOLERANCE = 0.01  # a decimal answer may be this far from the exact value
MAX_CHARS = 30  # longer text is not an answer to a by-hand sheet
_WHOLE = re.compile(r"[+-]?\d+")
_FRACTION = re.compile(r"([+-]?\d+)\s*/\s*([+-]?\d+)")
_DECIMAL = re.compile(r"[+-]?(\d+\.\d*|\.\d+)")
# how every "not a number" message ends; each template spells it out, so a translation has it
HOW = "Write a whole number (4), a fraction (9/28) or a decimal (0.32)"


class AnswerError(AttentionInputError):
    """A grid cell that holds something other than a number."""


@dataclass(frozen=True)
class Answer:
    """A parsed cell: its value, and whether it was written exactly (not as a decimal)."""

    value: Fraction
    exact: bool


def parse_answer(cell, where: str = "this cell") -> Answer | None:
    """The Answer in `cell` (str, int, float or Fraction), None for a blank cell.

    Raises AnswerError with a sentence naming `where` for text that is not a number.
    """
    return _parse_cell(cell, where)


@dataclass(frozen=True)
class _Cell:
    """A grid's cell, as the messages name it: 'Q, row 2, column t3'."""

    name: str
    row: str
    column: str

    @property
    def fills(self) -> dict[str, str]:
        return {"name": self.name, "row": self.row, "column": self.column}


def _parse_cell(cell, where: str | _Cell) -> Answer | None:
    if cell is None or (isinstance(cell, (float, np.floating)) and math.isnan(cell)):
        return None
    if isinstance(cell, (bool, np.bool_)):
        raise _holds(where, cell)
    if isinstance(cell, (int, np.integer)):
        return Answer(Fraction(int(cell)), True)
    if isinstance(cell, Fraction):
        return Answer(cell, True)
    if isinstance(cell, (float, np.floating)):
        if not math.isfinite(cell):
            raise _holds(where, cell)
        return Answer(Fraction(repr(float(cell))), float(cell).is_integer())
    return _parse_text(str(cell), where)


def _parse_text(text: str, where: str | _Cell) -> Answer | None:
    s = text.strip().replace("\u2212", "-").replace(" ", "")  # the typographic minus too
    if not s:
        return None
    if len(s) > MAX_CHARS:
        raise _too_long(where, len(s))
    if "," in s and "." not in s and s.count(",") == 1:
        s = s.replace(",", ".")  # a decimal comma, as many countries write it
    if _WHOLE.fullmatch(s):
        return Answer(Fraction(int(s)), True)
    if m := _FRACTION.fullmatch(s):
        if int(m[2]) == 0:
            raise _zero_below(where, repr(text.strip()))
        return Answer(Fraction(int(m[1]), int(m[2])), True)
    if _DECIMAL.fullmatch(s):
        return Answer(Fraction(s), False)
    raise _not_a_number(where, repr(text.strip()))


# Each message twice: for a `where` the caller names, and for a grid's cell (its words "row"
# and "column" are part of the sentence, so a translation has them too).
def _holds(where: str | _Cell, value) -> AnswerError:
    if isinstance(where, _Cell):
        return AnswerError.said(
            "{name}, row {row}, column {column} holds {value}, not a number. Write a whole "
            "number (4), a fraction (9/28) or a decimal (0.32).",
            **where.fills,
            value=value,
        )
    return AnswerError.said(
        "{where} holds {value}, not a number. Write a whole number (4), a fraction (9/28) "
        "or a decimal (0.32).",
        where=where,
        value=value,
    )


def _too_long(where: str | _Cell, length: int) -> AnswerError:
    if isinstance(where, _Cell):
        return AnswerError.said(
            "{name}, row {row}, column {column} holds {length} characters; that is not a "
            "number. Write a whole number (4), a fraction (9/28) or a decimal (0.32).",
            **where.fills,
            length=length,
        )
    return AnswerError.said(
        "{where} holds {length} characters; that is not a number. Write a whole number (4), "
        "a fraction (9/28) or a decimal (0.32).",
        where=where,
        length=length,
    )


def _zero_below(where: str | _Cell, text: str) -> AnswerError:
    if isinstance(where, _Cell):
        return AnswerError.said(
            "{name}, row {row}, column {column} is {text}: a fraction cannot have 0 below. "
            "Write a whole number (4), a fraction (9/28) or a decimal (0.32).",
            **where.fills,
            text=text,
        )
    return AnswerError.said(
        "{where} is {text}: a fraction cannot have 0 below. Write a whole number (4), a "
        "fraction (9/28) or a decimal (0.32).",
        where=where,
        text=text,
    )


def _not_a_number(where: str | _Cell, text: str) -> AnswerError:
    if isinstance(where, _Cell):
        return AnswerError.said(
            "{name}, row {row}, column {column} holds {text}, which is not a number. Write a "
            "whole number (4), a fraction (9/28) or a decimal (0.32).",
            **where.fills,
            text=text,
        )
    return AnswerError.said(
        "{where} holds {text}, which is not a number. Write a whole number (4), a fraction "
        "(9/28) or a decimal (0.32).",
        where=where,
        text=text,
    )


def cell_name(name: str, rows, cols, i: int, j: int) -> str:
    """'Q, row 2, column t3': how messages point at a cell."""
    return f"{name}, row {rows[i]}, column {cols[j]}"


def parse_grid(cells, name: str, rows=None, cols=None) -> np.ndarray:
    """An object array of Answer or None (blank), shaped like `cells` (R, C).

    Raises AnswerError naming up to three bad cells, so one message fixes several at once.
    With several, its `parts` are the cells' own errors (each with its template and fills),
    and its fills are their English sentences.
    """
    grid = _table(cells, name)
    rows = rows or [str(i + 1) for i in range(grid.shape[0])]
    cols = cols or [str(j + 1) for j in range(grid.shape[1])]
    out = np.empty(grid.shape, dtype=object)
    problems: list[AnswerError] = []
    for (i, j), cell in np.ndenumerate(grid):
        try:
            out[i, j] = _parse_cell(cell, _Cell(name, rows[i], cols[j]))
        except AnswerError as exc:
            problems.append(exc)
    if problems:
        raise _several(problems)
    return out


def _several(problems: list[AnswerError]) -> AnswerError:
    """One error for the first three bad cells (and how many more there are)."""
    if len(problems) == 1:
        return problems[0]
    said = [str(p) for p in problems[:3]]
    if len(problems) == 2:
        error = AnswerError.said("{first} {second}", first=said[0], second=said[1])
    elif len(problems) == 3:
        error = AnswerError.said(
            "{first} {second} {third}", first=said[0], second=said[1], third=said[2]
        )
    else:
        error = AnswerError.said(
            "{first} {second} {third} ({more} more cells too.)",
            first=said[0],
            second=said[1],
            third=said[2],
            more=len(problems) - 3,
        )
    error.parts = tuple(problems[:3])
    return error


def whole_grid(cells, name: str, rows=None, cols=None, *, limit: int = 9) -> np.ndarray:
    """(R, C) int64 from a grid of givens: every cell a whole number in -limit..limit."""
    answers = parse_grid(cells, name, rows, cols)
    rows = rows or [str(i + 1) for i in range(answers.shape[0])]
    cols = cols or [str(j + 1) for j in range(answers.shape[1])]
    for (i, j), a in np.ndenumerate(answers):
        at = _Cell(name, rows[i], cols[j]).fills
        if a is None:
            raise AnswerError.said(
                "{name}, row {row}, column {column} is empty; every given needs a whole "
                "number, such as 0.",
                **at,
            )
        if a.value.denominator != 1:
            raise AnswerError.said(
                "{name}, row {row}, column {column} is {value}, not a whole number; by hand "
                "we use integers only (for example -1, 0, 2).",
                **at,
                value=f"{float(a.value):g}",
            )
        if abs(a.value) > limit:
            raise AnswerError.said(
                "{name}, row {row}, column {column} is {value}: keep every given between "
                "-{limit} and {limit}, so the sums stay small enough to do by hand.",
                **at,
                value=a.value,
                limit=limit,
            )
    return np.array([[int(a.value) for a in row] for row in answers], dtype=np.int64)


def _table(cells, name: str) -> np.ndarray:
    try:
        grid = np.array(cells, dtype=object)
    except ValueError:  # some ragged inputs fail here, others give a 1-D array of lists
        grid = np.empty(0, dtype=object)
    if grid.ndim != 2 or 0 in grid.shape:
        raise ShapeError.said(
            "{name} is not a rectangular grid: give it rows of equal length.", name=name
        )
    return grid


def close(answer: Answer, expected, tol: float = TOLERANCE, rel: float = 0.0) -> bool:
    """True when `answer` equals `expected` (exactly, if both are exact), or lies within
    tol + rel * |expected| of it when either is a decimal."""
    if answer.exact and not isinstance(expected, (float, np.floating)):
        return answer.value == Fraction(expected)
    e = float(expected)
    return abs(float(answer.value) - e) <= tol + rel * abs(e) + 1e-12
