"""Every file of one sheet, and class sets: N seeds in one ZIP with all templates and keys."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable

from attn_core.by_hand.exercises import Exercise, make_exercise
from attn_sheets.pdf import key_pdf, sheets_pdf, template_pdf
from attn_sheets.tables import givens_csv, workbook_xlsx


def sheet_files(ex: Exercise, *, paper: str = "A4") -> dict[str, bytes]:
    """Everything for one exercise, by file name (prefixed with the seed)."""
    stem = f"seed_{ex.seed:04d}"
    return {
        f"{stem}_template.pdf": template_pdf(ex, paper=paper),
        f"{stem}_key.pdf": key_pdf(ex, paper=paper),
        f"{stem}_worksheet.xlsx": workbook_xlsx(ex),
        f"{stem}_key.xlsx": workbook_xlsx(ex, key=True),
        f"{stem}_givens.csv": givens_csv(ex),
    }


def class_files(seeds: Iterable[int], *, paper: str = "A4", **settings) -> dict[str, bytes]:
    """A class set by file name: every sheet's files, plus all templates and all keys in one
    PDF each for printing. `settings` go to ``make_exercise`` (difficulty, variant, ...)."""
    exercises = [make_exercise(s, **settings) for s in seeds]
    files: dict[str, bytes] = {}
    for ex in exercises:
        files.update(sheet_files(ex, paper=paper))
    files["all_templates.pdf"] = sheets_pdf(exercises, paper=paper)
    files["all_keys.pdf"] = sheets_pdf(exercises, paper=paper, key=True)
    return files


def class_set_zip(seeds: Iterable[int], *, paper: str = "A4", **settings) -> bytes:
    """``class_files`` in one ZIP, ready for a download button."""
    return zip_files(class_files(seeds, paper=paper, **settings))


def zip_files(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
    return buf.getvalue()
