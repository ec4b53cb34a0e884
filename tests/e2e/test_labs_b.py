"""The cost lab in a real browser: a long measurement run from its button, drawn on its charts.

The other labs' controls are tested below the page (tests/app/test_lab_*.py); in a browser,
cross-attention's second sentence in tests/e2e/test_phone_controls.py and the local window in
tests/e2e/test_heatmaps_browser.py."""

import pytest
from playwright.sync_api import expect

from tests.support.browser import (
    open_page,
    press_slider,
    shot,
    wait_canvas_chart,
    wait_idle,
)

pytestmark = pytest.mark.e2e


def test_cost_run_draws_the_measurement(page, app_url):
    """Pressing Run with T up to 256 draws time and memory for T = 16 ... 256."""
    open_page(page, app_url, "Cost")
    expect(page.get_by_text("to time attention and an RNN on this machine")).to_be_visible()
    press_slider(page, "Longest T", "ArrowLeft", 3)  # 2048 -> 256
    page.get_by_role("button", name="Run the measurement").click()
    page.wait_for_selector("[data-testid=stMetric]", timeout=120_000)
    wait_idle(page, 120_000)
    memory = wait_canvas_chart(page, "Memory against T", "c.x.values.length === 5")
    assert memory["x"]["ticks"] == [16, 32, 64, 128, 256]
    expect(page.get_by_text("slope 2.00").first).to_be_visible()  # the counted memory: exactly T^2
    shot(page, "labs_b_cost_measured")
