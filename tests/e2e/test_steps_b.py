"""Step pages 6 and 7 in a real browser: one interaction each, checked on the drawn figures
(heatmaps and bar charts, on canvases). Softmax's temperature and Multi-head's heads slider:
tests/e2e/test_phone_controls.py."""

import pytest
from playwright.sync_api import expect

from attn_ui.widgets import ROW_PX
from tests.support.browser import (
    heatmap,
    open_page,
    shot,
    wait_canvas_chart,
    wait_heatmap,
    wait_idle,
)

pytestmark = pytest.mark.e2e


def test_weighted_sum_diamonds_are_the_picked_row_of_z(page, app_url):
    """Picking another token redraws the stacked bars; their sum markers equal that row of Z."""
    open_page(page, app_url, "Weighted_sum?weights=random")  # row 3 is "on"
    box = page.get_by_role("combobox", name="Output row of token")
    box.click()
    box.fill("3 on")  # the selectbox filters its options as you type
    page.get_by_role("option", name="3 on", exact=True).click()  # Enter can beat the filter
    wait_idle(page)
    stack = wait_canvas_chart(page, "Row 3 of Z")["series"]
    z = heatmap(page, "Z = A V")["z"]
    assert stack[-1]["name"] == "sum = output row"
    assert stack[-1]["values"] == pytest.approx(z[3], abs=1e-9)
    assert len(stack) == len(z) + 1  # one stack segment per value row, plus the sum
    shot(page, "steps_b_weighted_sum_row")


def test_masking_a_ticked_cell_lets_the_query_look(page, app_url):
    """On the causal mask, ticking cell (query 0, key 1) in the custom grid gives it weight."""
    open_page(page, app_url, "Masking?mask=causal")
    right = wait_heatmap(page, "softmax(S/√d_k + M)")["z"]
    assert right[0][1] == 0  # causal: query 0 may not see key 1
    page.get_by_text("Edit the mask cell by cell").click()
    # the grid's caption: the rerun has drawn the grid (wait_idle alone may run before the
    # rerun starts, and then the first visible table is the sums table further down)
    expect(page.get_by_text("Ticked = may attend")).to_be_visible()
    wait_idle(page)
    grid = page.locator("[data-testid='stDataFrame']:visible").first  # not the folded tables
    grid.wait_for(state="visible")
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    page.mouse.click(box["x"] + 20, box["y"] + 1.5 * ROW_PX)  # the label cell of query 0
    expect(grid.get_by_test_id("data-grid-canvas")).to_be_focused()  # keys go to the grid
    page.keyboard.press("ArrowRight")  # key 0
    page.keyboard.press("ArrowRight")  # key 1
    page.keyboard.press("Space")  # tick it
    wait_idle(page)
    after = wait_heatmap(page, "softmax(S/√d_k + M)", "f.z[0][1] > 0")["z"]
    assert after[0][1] > 0 and sum(after[0]) == pytest.approx(1.0)
    n = len(after)
    assert all(after[i][j] == 0 for i in range(1, n) for j in range(i + 1, n))
    shot(page, "steps_b_masking_custom")
