"""The model explorer in a real browser: the heatmaps keep every token, lines follow a pick."""

import pytest
from playwright.sync_api import expect

from tests.support.browser import (
    heatmaps,
    hover_cell,
    open_page,
    shot,
    wait_canvas_chart,
    wait_heatmap,
    wait_idle,
)

pytestmark = pytest.mark.e2e


def type_sentence(pg, sentence: str) -> None:
    box = pg.get_by_role("textbox", name="Your sentence")
    box.fill(sentence)
    box.press("Enter")
    wait_idle(pg)


def test_repeated_word_gets_a_row_per_token(page, app_url):
    """A sentence with "the" and "cat" twice: seven rows, [CLS] and [SEP] included."""
    open_page(page, app_url, "Model_explorer")
    type_sentence(page, "the cat saw the cat")
    head = wait_heatmap(page, "Layer 0, head 0: A", "f.rows.length === 7")
    assert head["rows"] == ["[CLS]", "the", "cat", "saw", "the", "cat", "[SEP]"]
    z = head["z"]
    assert len(z) == 7 and all(sum(row) == pytest.approx(1.0, abs=1e-5) for row in z)
    wait_heatmap(page, "layer 5, head 11", "f.rows.length === 7")
    grid = [f for f in heatmaps(page) if f["title"].startswith("layer ")]
    assert len(grid) == 72 and all(f["shape"] == [7, 7] and f["colours"] > 1 for f in grid)
    assert grid[0]["z"] == z  # layer 0, head 0 is the head view's matrix
    tip = hover_cell(page, "layer 2, head 3", 4, 2)
    expect(tip).to_contain_text("layer 2, head 3")
    expect(tip).to_contain_text("query 4: the")
    expect(tip).to_contain_text("key 2: cat")
    shot(page, "explorer_repeated_word")


def test_picking_a_token_keeps_only_its_lines(page, app_url):
    """Choosing "it" in 'Lines of' leaves only lines that start at the query "it", each one of
    its weights of 0.01 or more; the keys read its weights out."""
    open_page(page, app_url, "Model_explorer")
    page.get_by_role("combobox", name="Lines of").click()
    page.keyboard.type("11 it")
    page.get_by_role("option", name="11 it", exact=True).click()  # Enter can beat the filter
    wait_idle(page)
    lines = wait_canvas_chart(page, "Layer 0, head 0: the lines of query 11")
    t = len(lines["tokens"])
    row = lines["weights"][11 * t : 12 * t]
    assert lines["lines"] == [[11, j] for j in range(t) if row[j] >= 0.01]
    canvas = page.locator(".cg-chart canvas[aria-label^='Layer 0, head 0: the lines']")
    canvas.focus()
    canvas.press("ArrowRight")
    said = canvas.locator("xpath=..").locator(".cg-said")
    expect(said).to_have_text(f"query 11: it, key 1: {lines['tokens'][1]}, weight: {row[1]:.3f}")
    shot(page, "explorer_lines_of_it")


def test_phone_width(tab, app_url):
    """At phone width the grid of 72 heads and the head view draw without an error."""
    pg = tab(390, 844)
    open_page(pg, app_url, "Model_explorer")
    wait_heatmap(pg, "Layer 0, head 0: A", "f.rows.length === 17")
    grid = [f for f in heatmaps(pg) if f["title"].startswith("layer ")]
    assert len(grid) == 72 and all(0 < f["width"] < 40 for f in grid)  # 12 across
    shot(pg, "explorer_phone")
