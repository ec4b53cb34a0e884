"""Worksheets as PDF (fpdf2): the blank template and the answer key, in the current language
(``attn_lessons.i18n``). English and Spanish print in the core Helvetica (latin-1); Chinese
embeds a font with the Chinese characters (`CJK_FONT`, subset: only the characters used).

Both use one layout (cell sizes come from the key's text, so the two line up); the grids
flow like words in a paragraph, a new page when one would cross the footer.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from fpdf import FPDF

from attn_core.by_hand.exercises import Exercise
from attn_core.errors import AttentionInputError
from attn_lessons import i18n
from attn_lessons.i18n import _
from attn_sheets.sheet import Grid, describe, rules, sections

PAPERS = ("A4", "Letter")
MARGIN, GAP, FOOT = 10.0, 5.0, 12.0  # mm
INT_W, FRAC_W, INT_H, FRAC_H = 8.0, 14.0, 7.0, 10.0  # smallest cells: room to write by hand
TITLE_H, HEAD_H = 5.0, 4.0
SHADE = 215  # grey of masked cells
FIXED_DATE = datetime(2024, 1, 1, tzinfo=UTC)  # same exercise, same bytes
# A Chinese sheet prints in DejaVu Sans (Latin, digits, symbols) and falls back to Droid Sans
# Fallback for the Chinese characters: Debian's fonts-dejavu-core and fonts-droid-fallback (the
# Makefile installs them when root). ATTN_CJK_FONT names another TrueType file for the latter.
LATIN_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
LATIN_BOLD = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
CJK_FONT = Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf")


def _latin1(text: str) -> str:
    """Core PDF fonts know latin-1 only: anything else becomes '?' instead of an error."""
    return text.encode("latin-1", "replace").decode("latin-1")


def cjk_fonts() -> tuple[Path, Path, Path]:
    """The fonts a Chinese sheet embeds: Latin, Latin bold, Chinese (AttentionInputError, in
    words a teacher can act on, when one is not on this machine)."""
    fonts = (LATIN_FONT, LATIN_BOLD, Path(os.environ.get("ATTN_CJK_FONT") or CJK_FONT))
    for path in fonts:
        if not path.is_file():
            raise AttentionInputError(
                _(
                    "A worksheet in Chinese needs fonts that are not on this server ({path}). "
                    "Install Debian's fonts-dejavu-core and fonts-droid-fallback (make does it "
                    "when run as root); ATTN_CJK_FONT may name another TrueType font with "
                    "Chinese characters."
                ).format(path=path)
            )
    return fonts


class _SheetPDF(FPDF):
    """An FPDF whose footer names the sheet, so loose pages can be sorted again; it writes in
    the core Helvetica, or in the embedded Chinese font (`unicode`)."""

    footer_text = ""
    first_page = 1
    family = "Helvetica"

    def use_cjk_font(self) -> None:
        latin, bold, chinese = cjk_fonts()
        self.add_font("latin", "", str(latin))
        self.add_font("latin", "B", str(bold))
        self.add_font("cjk", "", str(chinese))
        self.add_font("cjk", "B", str(chinese))  # no bold Chinese: the size says it
        self.set_fallback_fonts(["cjk"])
        self.family = "latin"

    def use_font(self, style: str, size: float) -> None:
        self.set_font(self.family, style, size)

    def shown(self, text: str) -> str:
        """`text` as this PDF can print it (the core font: latin-1 only)."""
        return _latin1(text) if self.family == "Helvetica" else text

    def footer(self) -> None:
        self.set_y(-FOOT + 3)
        self.use_font("", 7)
        self.set_text_color(100)
        page = self.page_no() - self.first_page + 1
        words = _("Attention by hand | {sheet} | page {page}").format(
            sheet=self.footer_text, page=page
        )
        self.cell(0, 4, self.shown(words), align="C")


@dataclass(frozen=True)
class _Size:
    label_w: float
    cell_w: float
    cell_h: float
    width: float
    height: float


def _measure(pdf: _SheetPDF, g: Grid, max_width: float) -> _Size:
    pdf.use_font("", 9)
    widest = max(pdf.get_string_width(s) for row in g.text for s in row)
    cell_w = max(FRAC_W if g.sub else INT_W, widest + 3)
    pdf.use_font("", 7)
    label_w = max(pdf.get_string_width(s) for s in (*g.rows, g.corner)) + 2
    cell_w = min(cell_w, (max_width - label_w) / len(g.cols))  # never wider than the page
    pdf.use_font("B", 8)
    width = max(label_w + cell_w * len(g.cols), pdf.get_string_width(g.title) + 1)
    cell_h = FRAC_H if g.sub else INT_H
    return _Size(label_w, cell_w, cell_h, width, TITLE_H + HEAD_H + cell_h * len(g.rows))


def _draw_labels(pdf: _SheetPDF, g: Grid, s: _Size, x: float, y: float) -> None:
    pdf.use_font("B", 8)
    pdf.set_text_color(0)
    pdf.set_xy(x, y)
    pdf.cell(s.width, TITLE_H, pdf.shown(g.title))
    pdf.use_font("", 7)
    pdf.set_text_color(90)
    top = y + TITLE_H
    pdf.set_xy(x, top)
    pdf.cell(s.label_w - 1, HEAD_H, pdf.shown(g.corner), align="R")
    for j, label in enumerate(g.cols):
        pdf.set_xy(x + s.label_w + j * s.cell_w, top)
        pdf.cell(s.cell_w, HEAD_H, pdf.shown(label), align="C")
    for i, label in enumerate(g.rows):
        pdf.set_xy(x, top + HEAD_H + i * s.cell_h)
        pdf.cell(s.label_w - 1, s.cell_h, pdf.shown(label), align="R")


def _draw_cell(pdf: _SheetPDF, g: Grid, i: int, j: int, box: tuple, show: str) -> None:
    """One box; `show` is "template" (givens only), "key" or "key_fractions" (no decimals)."""
    cx, cy, w, h = box
    pdf.rect(cx, cy, w, h, style="DF" if (i, j) in g.shaded else "D")
    if show == "template" and not g.given:
        return
    pdf.set_text_color(0)
    pdf.use_font("", 9)
    sub = g.sub[i][j] if g.sub and show == "key" else ""
    pdf.set_xy(cx, cy + (0.8 if sub else 0))
    pdf.cell(w, h - 3.4 if sub else h, pdf.shown(g.text[i][j]), align="C")
    if sub:
        pdf.use_font("", 6.5)
        pdf.set_text_color(90)
        pdf.set_xy(cx, cy + h - 4)
        pdf.cell(w, 3.4, pdf.shown(sub), align="C")


def _draw_grid(pdf: _SheetPDF, g: Grid, s: _Size, x: float, y: float, show: str) -> None:
    """The title, the labels and the boxes, filled as `show` says (see ``_draw_cell``)."""
    _draw_labels(pdf, g, s, x, y)
    pdf.set_draw_color(0)
    pdf.set_fill_color(SHADE)
    pdf.set_line_width(0.25)
    top = y + TITLE_H + HEAD_H
    for i in range(len(g.rows)):
        for j in range(len(g.cols)):
            box = (x + s.label_w + j * s.cell_w, top + i * s.cell_h, s.cell_w, s.cell_h)
            _draw_cell(pdf, g, i, j, box, show)
    if g.total_row:  # a heavier rule above the column sums
        pdf.set_line_width(0.7)
        y_sum = top + (len(g.rows) - 1) * s.cell_h
        pdf.line(x + s.label_w, y_sum, x + s.label_w + len(g.cols) * s.cell_w, y_sum)


def _header(pdf: _SheetPDF, ex: Exercise, key: bool) -> None:
    width = pdf.w - 2 * MARGIN
    pdf.set_xy(MARGIN, MARGIN)
    pdf.use_font("B", 15)
    pdf.set_text_color(0)
    pdf.cell(
        width, 7, pdf.shown(_("Attention by hand - ANSWER KEY") if key else _("Attention by hand"))
    )
    pdf.set_xy(MARGIN, MARGIN + 8)
    pdf.use_font("", 9)
    pdf.cell(width, 5, pdf.shown(describe(ex)))
    if not key:
        pdf.set_xy(MARGIN, MARGIN + 8)
        pdf.cell(width, 5, pdf.shown(_("Name:") + " ____________________"), align="R")
    pdf.set_xy(MARGIN, MARGIN + 15)
    pdf.use_font("", 8)
    pdf.set_fill_color(240)
    pdf.multi_cell(width, 3.8, pdf.shown("\n".join(rules(ex))), border=1, fill=True, padding=1.5)


def _heading(pdf: _SheetPDF, text: str, y: float) -> None:
    pdf.set_xy(MARGIN, y)
    pdf.use_font("B", 10)
    pdf.set_text_color(0)
    pdf.cell(0, 5, pdf.shown(text))


def _flow(pdf: _SheetPDF, parts: list[tuple[str, list[Grid]]], show: str) -> None:
    """Lay the grids out like words in a paragraph: left to right, then the next line or page."""
    right, bottom, usable = pdf.w - MARGIN, pdf.h - FOOT, pdf.w - 2 * MARGIN
    y, line_h = pdf.get_y() + 3, 0.0
    for heading, grids in parts:
        sizes = [_measure(pdf, g, usable) for g in grids]
        y += line_h + (GAP if line_h else 0)
        if y + 7 + sizes[0].height > bottom:  # keep a heading with its first grid
            pdf.add_page()
            y = MARGIN
        if show != "template":
            heading = heading.replace(_("Your work"), _("Answers"))
        _heading(pdf, heading, y)
        x, y, line_h = MARGIN, y + 7, 0.0
        for g, s in zip(grids, sizes, strict=True):
            if x > MARGIN and x + s.width > right:
                x, y, line_h = MARGIN, y + line_h + GAP, 0.0
            if y + s.height > bottom:
                pdf.add_page()
                x, y, line_h = MARGIN, MARGIN, 0.0
            _draw_grid(pdf, g, s, x, y, show)
            x, line_h = x + s.width + GAP, max(line_h, s.height)


def _check_paper(paper: str) -> str:
    if paper not in PAPERS:
        raise AttentionInputError(f"paper must be one of {', '.join(PAPERS)}; got {paper!r}.")
    return paper


def sheets_pdf(
    exercises: Iterable[Exercise], *, paper: str = "A4", key: bool = False, decimals: bool = True
) -> bytes:
    """One PDF with every exercise, each on new pages: templates, or keys if `key`.

    `decimals` (keys only) prints the rounded decimal under each fraction.
    """
    pdf = _SheetPDF(format=_check_paper(paper))
    if i18n.current() == "zh":
        pdf.use_cjk_font()
        pdf.set_lang("zh-CN")
    elif i18n.current() == "es":
        pdf.set_lang("es")
    pdf.set_auto_page_break(False)  # _flow places every grid itself
    pdf.set_creation_date(FIXED_DATE)
    pdf.set_title(
        _("Attention by hand - answer key") if key else _("Attention by hand - worksheet")
    )
    for ex in exercises:
        pdf.add_page()  # draws the previous sheet's last footer: only then switch sheets
        pdf.footer_text = describe(ex) + (" | " + _("KEY") if key else "")
        pdf.first_page = pdf.page_no()
        _header(pdf, ex, key)
        _flow(pdf, sections(ex), ("key" if decimals else "key_fractions") if key else "template")
    return bytes(pdf.output())


def template_pdf(ex: Exercise, *, paper: str = "A4") -> bytes:
    """The blank sheet to print: rules, the givens filled in, empty answer boxes."""
    return sheets_pdf([ex], paper=paper)


def key_pdf(ex: Exercise, *, paper: str = "A4", decimals: bool = True) -> bytes:
    """The answer key: the template's layout with every box filled (fractions, and decimals)."""
    return sheets_pdf([ex], paper=paper, key=True, decimals=decimals)
