"""Printable by-hand worksheets built from an ``attn_core.by_hand.Exercise``. No Streamlit:
the worksheets page and the command line both use this package.

* ``template_pdf`` / ``key_pdf``: the blank sheet (givens printed, answer boxes empty) and
  the answer key, with one layout so the two line up (``pdf``).
* ``workbook_xlsx(ex)`` / ``workbook_xlsx(ex, key=True)``: one sheet per step, answer cells
  empty or filled; ``givens_csv``: the givens only (``tables``).
* ``sheet_files``, ``class_files``, ``class_set_zip``: every file of one sheet or of N seeds
  (``bundle``). ``sections`` and ``rules`` (``sheet``) are the content all formats share.

Every builder returns bytes, ready for ``st.download_button``. CLI (``cli``)::

    python -m attn_sheets --seed 7 --count 30 --out DIR [--paper A4|Letter]

``python -m attn_ui.worksheets`` (its name before it became a package of its own) still works.
"""

from attn_sheets.bundle import class_files, class_set_zip, sheet_files, zip_files
from attn_sheets.cli import main
from attn_sheets.pdf import FOOT, MARGIN, PAPERS, key_pdf, sheets_pdf, template_pdf
from attn_sheets.pdf import _latin1 as _latin1  # tests check the PDF text filter
from attn_sheets.sheet import Grid, describe, rules, sections
from attn_sheets.tables import givens_csv, workbook_xlsx

__all__ = [
    "FOOT",
    "MARGIN",
    "PAPERS",
    "Grid",
    "class_files",
    "class_set_zip",
    "describe",
    "givens_csv",
    "key_pdf",
    "main",
    "rules",
    "sections",
    "sheet_files",
    "sheets_pdf",
    "template_pdf",
    "workbook_xlsx",
    "zip_files",
]
