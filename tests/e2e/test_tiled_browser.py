"""Attention in tiles in a real browser: stepping to the last block, and the page at 390 px."""

import pytest
from playwright.sync_api import expect

from tests.support.browser import (
    heatmap,
    open_page,
    press_slider,
    shot,
    wait_canvas_chart,
    wait_heatmap,
)

pytestmark = pytest.mark.e2e


def test_stepping_to_the_last_block_reaches_full_attention(page, app_url):
    """From block 1 of 3 to block 3: the tile moves to keys 8-11, the difference fades."""
    open_page(page, app_url, "Tiled_attention?weights=random")
    assert heatmap(page, "Tile 1: S / √d_k + M")["shape"] == [12, 4]
    wait_canvas_chart(page, "Memory of one head's scores", "c.series.length === 2")
    press_slider(page, "Blocks read so far", "ArrowRight", 2)
    tile = wait_heatmap(page, "Tile 3: S / √d_k + M", "f.shape[1] === 4")
    assert tile["cols"] == ["cat", "was", "tired", "."]  # keys 8 to 11
    gap = wait_heatmap(page, "Z after block 3 − Z", "true")["z"]
    assert max(abs(x) for row in gap for x in row) < 1e-12
    expect(page.get_by_text("1. Block 3 of 3: keys 8 to 11")).to_be_visible()
    expect(page.get_by_text("U / l after the last block is the sheet's Z")).to_be_visible()
    shot(page, "tiles_last_block")


def test_tiles_at_phone_width(tab, app_url):
    """At 390 px the page draws its figures within the screen, with no exception, and the
    running table shows all its columns without scrolling sideways (issue 27)."""
    pg = tab(390, 844)
    open_page(pg, app_url, "Tiled_attention?weights=random")
    tile = wait_heatmap(pg, "Tile 1: S / √d_k + M", "f.width > 0")
    assert 0 < tile["width"] <= 390
    expect(pg.locator(".st-key-tiles_hand_zf table")).to_be_attached()
    expect(pg.locator("[data-testid='stException']")).to_have_count(0)
    column = pg.get_by_text("Each query row after this block").locator(
        "xpath=ancestor::div[@data-testid='stVerticalBlock'][1]"
    )
    grid = column.locator("[data-testid=stDataFrame] .dvn-scroller")  # the running table
    grid.wait_for()
    assert grid.evaluate("e => e.scrollWidth <= e.clientWidth"), "a column is off-screen"
    shot(pg, "tiles_390")
