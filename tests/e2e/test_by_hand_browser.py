"""The by-hand pages in a real browser: stepping through the example, downloading a worksheet.
(The by-hand page at 390 px: the survey, tests/e2e/test_accessibility.py.)"""

import io
from pathlib import Path

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from attn_core.by_hand.trace import hand_attention
from attn_ui.by_hand.inputs import EXAMPLE
from tests.support.browser import (
    open_page,
    shot,
    wait_idle,
)

pytestmark = pytest.mark.e2e


def test_next_step_shows_the_q_grid_and_show_all_reaches_the_weights_flag(page, app_url):
    """Pressing Next step adds step 1, whose grid holds the first row of Q = W_Q X; Show all
    then draws every step, the weights with fractions, and the flag on query t3."""
    open_page(page, app_url, "By_hand")
    q_grid = page.locator(".st-key-hand_grid_q table")
    expect(q_grid).to_have_count(0)
    page.get_by_role("button", name="Next step").first.click()
    wait_idle(page)
    expect(page.get_by_role("heading", name="Step 1. Q = W_Q X")).to_be_visible()
    expect(q_grid).to_be_visible()
    q = hand_attention(EXAMPLE["x"], EXAMPLE["w_q"], EXAMPLE["w_k"], EXAMPLE["w_v"]).q
    first_row = q_grid.locator("tbody tr").first.locator("td")
    expect(first_row).to_have_text([str(v) for v in q[0]])
    shot(page, "by_hand_step_1")
    expect(page.locator(".st-key-hand_grid_z table")).to_have_count(0)
    page.get_by_role("button", name="Show all").click()
    wait_idle(page)
    expect(page.locator(".st-key-hand_grid_z table")).to_be_visible()
    expect(page.locator(".st-key-hand_grid_weights")).to_contain_text("3/4 ≈ 0.750")
    expect(page.get_by_text("⚑ Query t3: by hand")).to_be_visible()


def test_template_pdf_downloads(page, app_url):
    """The worksheets page hands the browser a real PDF with the sheet's seed on it."""
    open_page(page, app_url, "Worksheets")
    with page.expect_download() as info:
        page.get_by_role("button", name="Template PDF (A4)").click()
    download = info.value
    assert download.suggested_filename == "attention_by_hand_easy_plain_seed_0007_template_A4.pdf"
    data = Path(download.path()).read_bytes()
    assert data.startswith(b"%PDF")
    text = PdfReader(io.BytesIO(data)).pages[0].extract_text()
    assert "Attention by hand" in text and "seed 7 | easy" in text
