"""The worksheets page: seeded preview, the five downloads with real bytes, and a class-set ZIP."""

import csv
import io
import zipfile

import openpyxl
import pytest
from pypdf import PdfReader
from streamlit.runtime.media_file_manager import MediaFileManager

from attn_core.by_hand.exercises import make_exercise
from attn_core.by_hand.rules import frac_str
from attn_ui import formats
from tests.support.apptest import (
    load,
    rerun,
)
from tests.support.hand_grids import exact_grid

PAGE = "pages/22_Worksheets.py"
STEM = "attention_by_hand_easy_plain_seed_0007"  # difficulty, variant, seed


@pytest.fixture
def files(monkeypatch) -> dict[str, bytes]:
    """Every file handed to a download button, by file name (AppTest cannot click a download)."""
    seen: dict[str, bytes] = {}
    add = MediaFileManager.add

    def record(self, data, mimetype, coordinates, file_name=None, is_for_static_download=False):
        if file_name:
            seen[file_name] = data
        return add(self, data, mimetype, coordinates, file_name, is_for_static_download)

    monkeypatch.setattr(MediaFileManager, "add", record)
    return seen


def pdf_text(data: bytes) -> str:
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages)


def fractions(ex) -> set[str]:
    return {frac_str(v) for h in ex.heads for v in h.weights.ravel() if "/" in frac_str(v)}


def test_preview_shows_the_seeded_sheet(loaded):
    at = loaded(PAGE)
    ex = make_exercise(7)
    assert exact_grid(at, "sheets_given_x").tolist() == ex.x.tolist()
    assert exact_grid(at, "sheets_given_w_v").tolist() == ex.w_v.tolist()
    text = " ".join(m.value for m in at.markdown).replace("\\", "")
    assert "seed 7 | easy | plain | floor" in text and "Tokens are columns" in text


def test_five_downloads_hold_the_right_files(files):
    at = load(PAGE)
    labels = [b.label for b in at.get("download_button")]
    assert labels == [
        "Template PDF (A4)",
        "Answer key PDF (A4)",
        "Workbook XLSX",
        "Key workbook XLSX",
        "Givens CSV",
    ]
    ex = make_exercise(7)
    template = files[f"{STEM}_template_A4.pdf"]
    key = files[f"{STEM}_key_A4.pdf"]
    assert template.startswith(b"%PDF") and key.startswith(b"%PDF")
    answers = fractions(ex)
    assert answers and not any(a in pdf_text(template) for a in answers)
    assert all(a in pdf_text(key) for a in answers)
    assert " ".join(str(v) for v in ex.x[0]) in pdf_text(template)
    book = openpyxl.load_workbook(io.BytesIO(files[f"{STEM}_worksheet.xlsx"]))
    assert book.sheetnames[0] == "Givens" and "6 Weights A" in book.sheetnames
    keybook = openpyxl.load_workbook(io.BytesIO(files[f"{STEM}_key.xlsx"]))
    assert "ANSWER KEY" in keybook["Givens"]["A1"].value
    rows = list(csv.reader(io.StringIO(files[f"{STEM}_givens.csv"].decode())))
    assert rows[0][0] == "seed=7"


def test_letter_paper(files):
    at = load(PAGE)
    at.radio(key="sheets_paper").set_value("Letter")
    rerun(at)
    page = PdfReader(io.BytesIO(files[f"{STEM}_template_Letter.pdf"])).pages[0]
    assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == (612, 792)
    assert at.get("download_button")[0].label == "Template PDF (Letter)"


def test_settings_reach_the_sheet(files):
    at = load(PAGE)
    at.selectbox(key="sheets_difficulty").select("hard")
    at.selectbox(key="sheets_variant").select("causal")
    at.radio(key="sheets_rule").set_value("trunc")
    at.selectbox(key="sheets_tokens").select(5)
    rerun(at)
    ex = make_exercise(7, difficulty="hard", variant="causal", scale_rule="trunc", tokens=5)
    assert exact_grid(at, "sheets_given_x").tolist() == ex.x.tolist()
    text = pdf_text(files["attention_by_hand_hard_causal_trunc_seed_0007_template_A4.pdf"])
    assert "seed 7 | hard | causal | trunc | 5 tokens" in text and "trunc(s / 2)" in text
    command = at.code[0].value
    assert "--difficulty hard --variant causal --rule trunc --tokens 5" in command


def test_tiles_variant_reaches_the_sheet_and_its_key(files):
    at = load(PAGE)
    at.selectbox(key="sheets_variant").select("tiles")
    rerun(at)
    ex = make_exercise(7, variant="tiles")
    assert any("8\\. In tiles" in m.value for m in at.markdown)  # the preview of the rules
    tiles = "attention_by_hand_easy_tiles_seed_0007"  # its own name: never the plain sheet's
    key = pdf_text(files[f"{tiles}_key_A4.pdf"])
    assert "seed 7 | easy | tiles" in key and "Block 2: c = 3^(m before - m)" in key
    assert all(frac_str(v) in key for v in ex.tiles[-1].l)
    workbook = openpyxl.load_workbook(io.BytesIO(files[f"{tiles}_key.xlsx"]))
    assert workbook.sheetnames[-1] == "8 Tiles"
    assert "--variant tiles" in at.code[0].value


def test_practice_offers_no_tiles_variant():
    """Practice checks steps 1-7 only: a tiles sheet's extra steps are for print."""
    at = load("pages/21_Practice.py")
    options = at.selectbox(key="practice_variant").options
    assert "two heads" in options and not [o for o in options if "tiles" in o]
    sheets = load(PAGE).selectbox(key="sheets_variant").options
    assert "in tiles (online softmax)" in sheets


def test_same_seed_same_sheet():
    at = load(PAGE)
    first = exact_grid(at, "sheets_given_x").tolist()
    at.number_input(key="sheets_seed").set_value(8)
    rerun(at)
    assert exact_grid(at, "sheets_given_x").tolist() != first
    at.number_input(key="sheets_seed").set_value(7)
    rerun(at)
    assert exact_grid(at, "sheets_given_x").tolist() == first


def test_class_set_zip_is_built_on_request(files):
    at = load(PAGE)
    at.number_input(key="sheets_count").set_value(3)
    rerun(at)
    assert "Class set" not in " ".join(b.label for b in at.get("download_button"))
    at.button(key="sheets_build").click()
    rerun(at)
    data = files["attention_by_hand_easy_plain_class_0007_3.zip"]  # difficulty, variant
    # its size in the app's one unit (kB = 1,000 bytes), not 1024s
    assert at.get("download_button")[-1].label == f"Class set ZIP ({formats.size(len(data))})"
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert {f"seed_{s:04d}_template.pdf" for s in (7, 8, 9)} <= set(names)
    assert "all_keys.pdf" in names and "seed_0010_template.pdf" not in names
    assert "--seed 7 --count 3" in at.code[0].value


def test_a_class_set_cut_off_by_its_server_is_reported_and_built_with_one_click(files):
    """A page that opens with `building=1` in its URL (its server died while building, and the
    browser reconnected to another replica) says so; one click builds it; a build in this
    session leaves no mark in the URL."""
    at = load(PAGE, query={"building": "1"})
    assert any("cut off" in w.value for w in at.warning), [w.value for w in at.warning]
    assert "building" not in at.query_params
    at.number_input(key="sheets_count").set_value(2)
    rerun(at)
    at.button(key="sheets_build").click()
    rerun(at)
    assert at.get("download_button")[-1].label.startswith("Class set ZIP")
    assert not any("cut off" in w.value for w in at.warning)
    assert "building" not in at.query_params  # no mark left once built


def test_download_names_carry_difficulty_variant_and_seed(files):
    at = load(PAGE)
    at.selectbox(key="sheets_difficulty").set_value("hard")
    at.selectbox(key="sheets_variant").set_value("causal")
    at.number_input(key="sheets_seed").set_value(12)
    rerun(at)
    stem = "attention_by_hand_hard_causal_seed_0012"
    assert {f"{stem}_template_A4.pdf", f"{stem}_key.xlsx", f"{stem}_givens.csv"} <= set(files)
    at.radio(key="sheets_rule").set_value("trunc")
    rerun(at)
    assert "attention_by_hand_hard_causal_trunc_seed_0012_key_A4.pdf" in files
