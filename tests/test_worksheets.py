"""attn_sheets: PDF template and key, workbooks, CSV, class-set ZIP and the CLI."""

import csv
import io
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import openpyxl
import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

import attn_sheets as ws
from attn_core.by_hand.exercises import make_exercise
from attn_core.by_hand.rules import decimal_str, frac_str
from attn_core.errors import AttentionInputError

ROOT = Path(__file__).resolve().parents[1]
MM = 72 / 25.4  # PDF points per millimetre
STEPS = [
    "Givens",
    "1 Q K V",
    "2 K transposed",
    "3 Scores",
    "4 Scaled",
    "5 Powers",
    "6 Weights A",
    "7 Output Z",
]
LARGEST = {"tokens": 6, "features": 8, "d_k": 4, "difficulty": "hard", "variant": "two_heads"}


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def rows_text(a) -> list[str]:
    """How pypdf reads a printed integer matrix back: one line per row."""
    return [" ".join(str(int(v)) for v in row) for row in a]


def fraction_answers(ex) -> set[str]:
    """Answer strings that cannot be confused with givens or with the printed rules."""
    rules = "\n".join(ws.rules(ex))
    found = set()
    tiles = [a for t in ex.tiles for a in (*t.l, *t.u.ravel(), *t.z.ravel())]
    for h in ex.heads:
        for a in (*h.weights.ravel(), *h.z.ravel(), *h.col_sums, *tiles):
            if "/" in frac_str(a) and frac_str(a) not in rules:
                found.add(frac_str(a))
    return found


@pytest.fixture(scope="module")
def plain():
    return make_exercise(5, difficulty="medium")


@pytest.mark.parametrize("paper", ["A4", "Letter"])
@pytest.mark.parametrize("variant", ["plain", "causal", "two_heads", "tiles"])
def test_template_has_givens_and_rules_but_no_answers(paper, variant):
    ex = make_exercise(21, difficulty="hard", variant=variant)
    text = pdf_text(ws.template_pdf(ex, paper=paper))
    lines = set(text.splitlines())
    assert "Tokens are columns: X is features x tokens. W_Q, W_K, W_V are d_k x features." in text
    assert "floor(s / 2)" in text and "3^x" in text and "column sum" in text
    assert f"seed {ex.seed} " in text and "Name:" in text
    for given in (ex.x, ex.w_q, ex.w_k, ex.w_v):
        assert set(rows_text(given)) <= lines
    answers = fraction_answers(ex)
    assert len(answers) >= 5  # the check below means something
    assert not [a for a in answers if a in text]
    assert "0." not in text.replace("0.5", "")  # no decimals either (0.5 is in the rules)
    assert "ANSWER KEY" not in text


@pytest.mark.parametrize("variant", ["plain", "causal", "two_heads", "tiles"])
def test_key_has_every_answer(variant):
    ex = make_exercise(21, difficulty="hard", variant=variant)
    text = pdf_text(ws.key_pdf(ex))
    lines = set(text.splitlines())
    assert "ANSWER KEY" in text
    for h in ex.heads:
        for a in (h.q, h.k, h.v):
            assert set(rows_text(a)) <= lines
        for a in (*h.weights.ravel(), *h.z.ravel(), *h.col_sums):
            assert frac_str(a) in text
            if "/" in frac_str(a):
                assert decimal_str(a) in text
    assert fraction_answers(ex) and all(a in text for a in fraction_answers(ex))


def test_key_without_decimals(plain):
    with_dec, without = pdf_text(ws.key_pdf(plain)), pdf_text(ws.key_pdf(plain, decimals=False))
    a = next(a for a in plain.heads[0].weights.ravel() if "/" in frac_str(a))
    assert decimal_str(a) in with_dec and decimal_str(a) not in without
    assert frac_str(a) in without


def test_trunc_and_variant_notes_are_printed():
    trunc = pdf_text(ws.template_pdf(make_exercise(2, variant="causal", scale_rule="trunc")))
    assert "trunc(s / 2)" in trunc and "floor(s / 2)" not in trunc
    assert "trunc(-0.5) = 0" in trunc and "Causal: query j may see keys i <= j only" in trunc
    two = pdf_text(ws.template_pdf(make_exercise(2, variant="two_heads")))
    assert "Two heads" in two and "(head 2)" in two and "Z (head 1) on top of Z (head 2)" in two


@pytest.mark.parametrize("paper, size", [("A4", (595, 842)), ("Letter", (612, 792))])
def test_paper_size_and_nothing_outside_the_margins(paper, size):
    one_head = {**LARGEST, "variant": "causal"}  # its steps run over a page break
    tiles = {**LARGEST, "variant": "tiles"}  # 6 tokens: three blocks of two keys
    sheets = [make_exercise(1), make_exercise(3, **LARGEST), make_exercise(5, **one_head)]
    for ex in (*sheets, make_exercise(4, **tiles)):
        reader = PdfReader(io.BytesIO(ws.key_pdf(ex, paper=paper)))
        for page in reader.pages:
            assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == size
            ops = ContentStream(page.get_contents(), reader).operations
            rects = [[float(v) for v in args] for args, op in ops if op == b"re"]
            assert rects
            width, height, margin = (
                float(page.mediabox.width),
                float(page.mediabox.height),
                ws.MARGIN * MM,
            )
            for x, y, w, h in rects:  # 0.1 pt of rounding in the PDF numbers
                assert x >= margin - 0.1 and x + w <= width - margin + 0.1
                assert (
                    min(y, y + h) >= ws.FOOT * MM - 0.1 and max(y, y + h) <= height - margin + 0.1
                )


def test_largest_sheet_is_laid_out_on_a_few_pages():
    ex = make_exercise(3, **LARGEST)
    template = PdfReader(io.BytesIO(ws.template_pdf(ex)))
    key = PdfReader(io.BytesIO(ws.key_pdf(ex)))
    assert 2 <= len(template.pages) == len(key.pages) <= 5
    assert "page 2" in template.pages[1].extract_text()


def test_pdfs_are_reproducible_and_combined(plain):
    assert ws.template_pdf(plain) == ws.template_pdf(plain)
    both = PdfReader(io.BytesIO(ws.sheets_pdf([plain, make_exercise(6)], key=True)))
    one = PdfReader(io.BytesIO(ws.key_pdf(plain)))
    assert len(both.pages) > len(one.pages)
    n = len(one.pages)
    for page in both.pages[:n]:  # every page's footer names its own sheet
        assert "Attention by hand | seed 5 |" in page.extract_text()
    for page in both.pages[n:]:
        assert "Attention by hand | seed 6 |" in page.extract_text()
    assert "seed 6 | easy" in both.pages[n].extract_text()


def test_text_is_latin1_safe():
    assert ws._latin1("k \u2264 q \u2192 caf\u00e9") == "k ? q ? caf\u00e9"
    for variant in ("plain", "causal", "two_heads", "tiles"):
        ex = make_exercise(0, variant=variant, scale_rule="trunc")
        assert all(line.isascii() for line in ws.rules(ex))
        assert all(g.title.isascii() for _, grids in ws.sections(ex) for g in grids)


def test_bad_paper():
    with pytest.raises(AttentionInputError, match="paper must be one of A4, Letter"):
        ws.template_pdf(make_exercise(0), paper="A3")


# -- workbooks and CSV ---------------------------------------------------------------------


def load(data: bytes):
    return openpyxl.load_workbook(io.BytesIO(data))


def find(sheet, title: str) -> int:
    """The row whose first cell is `title`."""
    return next(r for r in range(1, sheet.max_row + 1) if sheet.cell(r, 1).value == title)


def grid(sheet, title: str, n_rows: int, n_cols: int, col0: int = 2) -> list[list]:
    top = find(sheet, title) + 2
    return [[sheet.cell(top + i, col0 + j).value for j in range(n_cols)] for i in range(n_rows)]


def test_student_workbook_has_givens_and_blank_answers(plain):
    wb = load(ws.workbook_xlsx(plain))
    assert wb.sheetnames == STEPS
    g = wb["Givens"]
    assert grid(g, "X (features x tokens)", plain.features, plain.tokens) == plain.x.tolist()
    assert grid(g, "W_K", plain.d_k, plain.features) == plain.w_k.tolist()
    t = plain.tokens
    assert grid(wb["3 Scores"], "S = K^T Q", t, t) == [[None] * t] * t
    assert grid(wb["6 Weights A"], "A = P / column sum", t, t) == [[None] * t] * t
    assert "ANSWER KEY" not in str(g["A1"].value)


def test_key_workbook_has_the_answers(plain):
    wb = load(ws.workbook_xlsx(plain, key=True))
    h, t = plain.heads[0], plain.tokens
    assert wb.sheetnames == STEPS
    assert grid(wb["1 Q K V"], "Q = W_Q X", plain.d_k, t) == h.q.tolist()
    assert grid(wb["3 Scores"], "S = K^T Q", t, t) == h.scores.tolist()
    assert grid(wb["4 Scaled"], "floor(S / 2)", t, t) == h.scaled.tolist()
    a = grid(wb["6 Weights A"], "A = P / column sum", t, t)
    assert a == [[_xlsx(v) for v in row] for row in h.weights]
    decimals = grid(wb["6 Weights A"], "A = P / column sum", t, t, col0=t + 3)
    assert decimals == [[round(float(v), 6) for v in row] for row in h.weights]
    sums = grid(wb["5 Powers"], f"P = {h.base}^x, column sums", t + 1, t)[-1]
    assert sums == [_xlsx(v) for v in h.col_sums]
    assert (
        wb["5 Powers"].cell(find(wb["5 Powers"], "P = 3^x, column sums") + 2 + t, 1).value == "sum"
    )
    assert "ANSWER KEY" in wb["Givens"]["A1"].value


def _xlsx(v):
    """Whole numbers are stored as numbers, fractions as text."""
    return frac_str(v) if "/" in frac_str(v) else int(v)


def test_workbook_two_heads_and_causal_cells():
    ex = make_exercise(8, variant="two_heads")
    wb = load(ws.workbook_xlsx(ex, key=True))
    sheet = wb["7 Output Z"]
    for title in ("Z = V A (head 1)", "Z = V A (head 2)", "Z = Z (head 1) on top of Z (head 2)"):
        assert find(sheet, title)
    stacked = grid(sheet, "Z = Z (head 1) on top of Z (head 2)", 2 * ex.d_k, ex.tokens)
    assert stacked == [[_xlsx(v) for v in row] for row in ex.z]
    causal = make_exercise(8, variant="causal")
    sheet = load(ws.workbook_xlsx(causal))["6 Weights A"]
    top = find(sheet, "A = P / column sum") + 2
    assert sheet.cell(top + 1, 2).fill.start_color.rgb.endswith("D9D9D9")  # key 2, query 1
    assert sheet.cell(top, 3).fill.fill_type is None  # key 1, query 2 is allowed


def test_tiles_sheet_in_print_and_in_the_workbook():
    ex = make_exercise(12, difficulty="medium", variant="tiles")
    first, second = ex.tiles
    template, key = pdf_text(ws.template_pdf(ex)), pdf_text(ws.key_pdf(ex))
    for text in (template, key):
        assert "8. In tiles" in text and "c = 3^(m before - m)" in text
        assert "Block 2: U = c U + V P" in text and "| tiles |" in text
    rules = "\n".join(ws.rules(ex))  # 1/3 is printed in the rules (3^-1 = 1/3)
    answers = {frac_str(a) for a in (*second.l, *second.u.ravel()) if "/" in frac_str(a)}
    answers -= {a for a in answers if a in rules}
    assert answers and not [a for a in answers if a in template]
    assert all(a in key for a in answers)
    wb = load(ws.workbook_xlsx(ex, key=True))
    assert wb.sheetnames == [*STEPS, "8 Tiles"]
    sheet = wb["8 Tiles"]
    assert grid(sheet, "Block 1: m = column max so far", 1, 4) == [first.m.tolist()]
    assert grid(sheet, "Block 2: c = 3^(m before - m)", 1, 4) == [
        [_xlsx(c) for c in second.rescale]
    ]
    assert grid(sheet, "Block 2: l = c l + column sums of P", 1, 4) == [
        [_xlsx(v) for v in second.l]
    ]
    z = grid(sheet, "Block 2: Z so far = U / l", ex.d_k, 4)
    assert z == [[_xlsx(v) for v in row] for row in ex.z]  # the tiles end at step 7's Z
    blank = load(ws.workbook_xlsx(ex))["8 Tiles"]
    assert grid(blank, "Block 2: Z so far = U / l", ex.d_k, 4) == [[None] * 4] * ex.d_k
    assert load(ws.workbook_xlsx(make_exercise(12))).sheetnames == STEPS  # only tiles sheets


def test_givens_csv(plain):
    rows = list(csv.reader(io.StringIO(ws.givens_csv(plain).decode("utf-8"))))
    assert rows[0][0] == "seed=5" and "difficulty=medium" in rows[0]
    start = rows.index(["X (features x tokens)", *[f"t{j + 1}" for j in range(plain.tokens)]])
    block = rows[start + 1 : start + 1 + plain.features]
    assert [[int(v) for v in r[1:]] for r in block] == plain.x.tolist()
    titles = [r[0] for r in rows if r and r[0].startswith("W_")]
    assert titles == ["W_Q", "W_K", "W_V"]
    assert not any("/" in cell for r in rows for cell in r)  # no answers


# -- class set and CLI ---------------------------------------------------------------------


def test_class_set_zip_holds_every_sheet():
    data = ws.class_set_zip(range(10, 13), paper="Letter", difficulty="medium")
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    for seed in (10, 11, 12):
        for part in ("template.pdf", "key.pdf", "worksheet.xlsx", "key.xlsx", "givens.csv"):
            assert f"seed_{seed:04d}_{part}" in names
    assert len(names) == 3 * 5 + 2
    z = zipfile.ZipFile(io.BytesIO(data))
    combined = PdfReader(io.BytesIO(z.read("all_templates.pdf")))
    singles = [PdfReader(io.BytesIO(z.read(f"seed_{s:04d}_template.pdf"))) for s in (10, 11, 12)]
    assert len(combined.pages) == sum(len(r.pages) for r in singles)
    assert "seed 11 | medium" in pdf_text(z.read("seed_0011_key.pdf"))


def test_cli_main_writes_the_files(tmp_path, capsys):
    out = tmp_path / "sheets"
    code = ws.main(
        [
            "--seed",
            "7",
            "--count",
            "2",
            "--out",
            str(out),
            "--paper",
            "Letter",
            "--difficulty",
            "hard",
            "--variant",
            "causal",
            "--rule",
            "trunc",
        ]
    )
    assert code == 0
    written = sorted(p.name for p in out.iterdir())
    assert len(written) == 2 * 5 + 2 and "seed_0008_key.xlsx" in written
    printed = capsys.readouterr().out
    assert str(out / "seed_0007_template.pdf") in printed and "wrote 12 files" in printed
    text = pdf_text((out / "seed_0008_template.pdf").read_bytes())
    assert "seed 8 | hard | causal | trunc" in text
    page = PdfReader(out / "seed_0007_key.pdf").pages[0]
    assert round(float(page.mediabox.height)) == 792  # Letter


@pytest.mark.parametrize("module", ["attn_sheets", "attn_ui.worksheets"])
def test_cli_as_a_module(tmp_path, module):
    """The package's command line, and the same under its old name (docs/teaching.md, course
    links)."""
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            module,
            "--seed",
            "3",
            "--count",
            "1",
            "--out",
            str(tmp_path),
            "--zip",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "class_set.zip").exists() and (tmp_path / "seed_0003_template.pdf").exists()
    assert "seed_0003_key.pdf" in run.stdout


def test_cli_writes_a_tiles_class_set(tmp_path, capsys):
    assert (
        ws.main(["--seed", "4", "--count", "2", "--out", str(tmp_path), "--variant", "tiles"]) == 0
    )
    text = pdf_text((tmp_path / "seed_0005_key.pdf").read_bytes())
    assert "seed 5 | easy | tiles | floor | 4 tokens" in text
    ex = make_exercise(5, variant="tiles")
    assert all(frac_str(v) in text for v in ex.tiles[-1].l)
    assert "8 Tiles" in load((tmp_path / "seed_0004_key.xlsx").read_bytes()).sheetnames
    assert "wrote 12 files" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--count", "0"], "--count must be at least 1"),
        (["--tokens", "9"], "tokens must be between"),
    ],
)
def test_cli_bad_settings(tmp_path, capsys, argv, words):
    assert ws.main(["--out", str(tmp_path), *argv]) == 2
    assert words in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


def test_attn_core_imports_no_export_libraries():
    code = (
        "import sys, attn_core.by_hand.trace, attn_core.by_hand.exercises; "
        "bad = [m for m in ('fpdf', 'openpyxl', 'streamlit', 'plotly') if m in sys.modules]; "
        "sys.exit(bool(bad))"
    )
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False).returncode == 0


def test_the_export_package_needs_no_streamlit():
    """attn_sheets runs without the app: importing it loads neither Streamlit nor Plotly."""
    code = (
        "import sys, attn_sheets; "
        "bad = [m for m in ('streamlit', 'plotly', 'pandas', 'attn_ui') if m in sys.modules]; "
        "sys.exit(bool(bad))"
    )
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False).returncode == 0


# -- the backward variant ------------------------------------------------------------------


def backward_answers(ex) -> set[str]:
    """The backward pass's fractions that are not also in the forward sheet or the rules."""
    forward = fraction_answers(ex) | {"1/2"}
    g = ex.grads
    found = {frac_str(a) for m in (g.dv, g.d_scaled, g.d_scores, g.dq, g.dk) for a in m.ravel()}
    return {a for a in found if "/" in a} - forward


def test_backward_template_has_dz_but_no_gradients():
    ex = make_exercise(2, variant="backward")
    text = pdf_text(ws.template_pdf(ex))
    assert "dZ (gradient of the loss)" in text and "11. dS = A * (dA - c)" in text
    assert "seed 2 | easy | backward | floor" in text
    assert set(rows_text(ex.d_z)) <= set(text.splitlines())
    answers = backward_answers(ex)
    assert len(answers) >= 3
    assert not [a for a in answers if a in text]


def test_backward_key_has_every_gradient():
    ex = make_exercise(2, variant="backward")
    text = pdf_text(ws.key_pdf(ex))
    g = ex.grads
    for m in (g.dv, g.d_weights, g.col_dots, g.d_scaled, g.d_scores, g.dq, g.dk):
        for a in m.ravel():
            assert frac_str(a) in text
    assert backward_answers(ex) and all(a in text for a in backward_answers(ex))


def test_backward_workbook_has_a_backward_sheet():
    ex = make_exercise(2, variant="backward")
    key = openpyxl.load_workbook(io.BytesIO(ws.workbook_xlsx(ex, key=True)))
    blank = openpyxl.load_workbook(io.BytesIO(ws.workbook_xlsx(ex)))
    assert key.sheetnames == [*STEPS, "8 Backward"] == blank.sheetnames
    key_cells = {str(c.value) for row in key["8 Backward"].iter_rows() for c in row}
    blank_cells = {str(c.value) for row in blank["8 Backward"].iter_rows() for c in row}
    answers = backward_answers(ex)
    assert answers <= key_cells and not answers & blank_cells
    csv_text = ws.givens_csv(ex).decode()
    assert "dZ (gradient of the loss)" in csv_text and "variant=backward" in csv_text


def test_cli_writes_backward_sheets(tmp_path):
    assert (
        ws.main(["--seed", "4", "--count", "2", "--out", str(tmp_path), "--variant", "backward"])
        == 0
    )
    key = pdf_text((tmp_path / "seed_0005_key.pdf").read_bytes())
    ex = make_exercise(5, variant="backward")
    assert "seed 5 | easy | backward" in key
    assert all(frac_str(a) in key for a in ex.grads.dq.ravel())


@pytest.mark.parametrize("lang", ["es", "zh"])
def test_a_sheet_in_spanish_or_chinese_reads_in_its_language(lang, tmp_path):
    """The template and the key print their words in the language, and the PDF's text
    extracts as that language (pdftotext, as a teacher's tools read it): Chinese through the
    embedded font, Spanish through the core font's latin-1. The numbers are the same."""
    from attn_lessons.i18n import _, using

    ex = make_exercise(seed=7, variant="backward")
    english = {"template": ws.template_pdf(ex), "key": ws.key_pdf(ex)}
    with using(lang):
        pdfs = {"template": ws.template_pdf(ex), "key": ws.key_pdf(ex)}
        words = [_("Attention by hand"), _("Your work"), _("Backward pass"), _("Givens")]
    for kind, data in pdfs.items():
        path = tmp_path / f"{kind}.pdf"
        path.write_bytes(data)
        text = subprocess.run(
            ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
        ).stdout
        shown = words[:2] if kind == "template" else [words[0], words[2]]
        assert shown[0] != "Attention by hand"  # translated
        for w in shown:
            assert w in text, (kind, w)
        if lang == "zh":
            assert len(re.findall(r"[\u4e00-\u9fff]", text)) > 50
        assert "Tokens are columns" not in text
        numbers = re.findall(r"-?\d+/\d+", text)
        english_path = tmp_path / f"{kind}_en.pdf"
        english_path.write_bytes(english[kind])
        english_text = subprocess.run(
            ["pdftotext", str(english_path), "-"], capture_output=True, text=True, check=True
        ).stdout
        assert sorted(numbers) == sorted(re.findall(r"-?\d+/\d+", english_text))


def test_a_chinese_sheet_without_its_font_says_which(monkeypatch):
    from attn_lessons.i18n import using

    monkeypatch.setenv("ATTN_CJK_FONT", "/nowhere/font.ttf")
    with using("zh"), pytest.raises(AttentionInputError, match="/nowhere/font.ttf"):
        ws.template_pdf(make_exercise(seed=1))


def test_the_cli_writes_sheets_in_a_language(tmp_path):
    from attn_lessons.i18n import _, using

    assert ws.main(["--seed", "2", "--out", str(tmp_path), "--lang", "es"]) == 0
    with using("es"):
        title = _("Attention by hand")
    assert title != "Attention by hand"
    assert title in PdfReader(tmp_path / "seed_0002_template.pdf").pages[0].extract_text()
