"""Worksheets as a workbook (openpyxl, one sheet per step) and the givens as CSV.

``workbook_xlsx(ex)`` has the givens and empty answer boxes; ``workbook_xlsx(ex, key=True)``
the same layout with the answers, a separate file so that a student's copy never holds
them. Fractions are text ("9/28"), with a block of decimals beside them.
"""

from __future__ import annotations

import csv
import io
from fractions import Fraction

from openpyxl import Workbook
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side

from attn_core.by_hand.exercises import Exercise
from attn_lessons.i18n import _
from attn_sheets.sheet import Grid, describe, rules, sections

_THIN = Side(style="thin", color="808080")
_BOX = Border(left=_THIN, right=_THIN, top=_THIN, bottom=_THIN)
_GREY = PatternFill("solid", start_color="D9D9D9")


def _cell_value(g: Grid, i: int, j: int, filled: bool):
    """Whole numbers as numbers, fractions as text ('9/28'); None for an answer box."""
    if not (filled or g.given):
        return None
    text = g.text[i][j]
    return int(text) if g.sub is None or "/" not in text else text


def _write_grid(ws, g: Grid, row: int, filled: bool) -> int:
    """Write `g` with its top-left at `row`; return the first free row below it."""
    ws.cell(row, 1, g.title).font = Font(bold=True)
    blocks = [(2, "exact")] + ([(len(g.cols) + 3, "decimal")] if g.sub else [])
    for col0, kind in blocks:
        ws.cell(row + 1, col0 - 1, g.corner or None)
        if kind == "decimal":
            ws.cell(row, col0, _("decimal")).font = Font(italic=True)
        for j, label in enumerate(g.cols):
            ws.cell(row + 1, col0 + j, label).font = Font(bold=True, color="606060")
        for i, label in enumerate(g.rows):
            ws.cell(row + 2 + i, col0 - 1, label).font = Font(bold=True, color="606060")
            for j in range(len(g.cols)):
                c = ws.cell(row + 2 + i, col0 + j)
                if kind == "exact":
                    c.value = _cell_value(g, i, j, filled)
                elif filled:
                    c.value, c.number_format = round(float(Fraction(g.text[i][j])), 6), "0.000"
                c.border, c.alignment = _BOX, Alignment(horizontal="center")
                if (i, j) in g.shaded:
                    c.fill = _GREY
    return row + len(g.rows) + 3


def workbook_xlsx(ex: Exercise, *, key: bool = False) -> bytes:
    """One sheet per step ('Givens', '1 Q K V', ... '7 Output Z'), heads one below the other.

    The student workbook (`key` False) has the givens and empty answer boxes; the key
    workbook has the same layout with every answer. Column sums are the 'sum' row of
    '5 Powers'. Masked cells (causal) are grey.
    """
    wb = Workbook()
    ws = wb.active
    ws.title = _("Givens")
    title = _("Attention by hand - ANSWER KEY") if key else _("Attention by hand")
    ws.append([title, describe(ex)])
    ws["A1"].font = Font(bold=True, size=13)
    for line in rules(ex):
        ws.append([None, line])
    free = {ws.title: ws.max_row + 2}
    for _heading, grids in sections(ex):
        for g in grids:
            if g.step not in free:
                wb.create_sheet(g.step)
                free[g.step] = 1
            free[g.step] = _write_grid(wb[g.step], g, free[g.step], filled=key)
    for sheet in wb.worksheets:  # titles spill into the empty cells to their right
        for col in "ABCDEFGHIJKLMNOPQRST":
            sheet.column_dimensions[col].width = 9
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def givens_csv(ex: Exercise) -> bytes:
    """The givens as CSV blocks: a settings row, then X, W_Q, W_K, W_V (per head), each
    headed by its name and column labels, with a blank row between blocks."""
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n")
    out.writerow([f"{k}={v}" for k, v in ex.settings.items()])
    for g in sections(ex)[0][1]:
        out.writerow([])
        out.writerow([g.title, *g.cols])
        for label, row in zip(g.rows, g.text, strict=True):
            out.writerow([label, *row])
    return buf.getvalue().encode("utf-8")
