"""Labs 44-47 in a real browser: one interaction each, waiting on the app's state."""

import json

import pytest
from playwright.sync_api import expect

from tests.support.browser import (
    canvas_chart,
    heatmap,
    open_page,
    press_slider,
    shot,
    wait_canvas_chart,
    wait_heatmap,
    wait_idle,
)

pytestmark = pytest.mark.e2e


def test_cross_second_sentence_sets_the_columns(page, app_url):
    """Typing a two-word second sentence leaves 12 query rows and gives 2 key columns."""
    open_page(page, app_url, "Cross_attention")
    assert len(heatmap(page, "Cross: A")["cols"]) == 8
    box = page.get_by_role("textbox", name="Second sentence")
    box.fill("the rug")
    box.press("Enter")
    wait_idle(page)
    cross = wait_heatmap(page, "Cross: A", "f.cols.length === 2")
    assert cross["cols"] == ["the", "rug"] and cross["shape"] == [12, 2]
    assert heatmap(page, "Self: A")["shape"] == [12, 12]
    shot(page, "labs_b_cross_two_keys")


def test_local_window_slider_narrows_the_band(page, app_url):
    """Moving the window from 2 to 0 leaves only the diagonal: every other weight is 0."""
    open_page(page, app_url, "Local_attention?weights=random")
    press_slider(page, "Window w: neighbours each token sees on each side", "ArrowLeft", 2)
    z = wait_heatmap(page, "Local, w = 0", "f.z.length === 12")["z"]
    assert all(z[i][j] == (1 if i == j else 0) for i in range(12) for j in range(12))
    expect(page.get_by_text("144 scores")).to_be_visible()
    expect(page.get_by_text("12 scores", exact=True)).to_be_visible()  # T(2*0+1) - 0
    shot(page, "labs_b_local_w0")


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


def test_block_layer_slider_moves_to_another_layer(page, app_url):
    """Moving the layer slider redraws the stage chart with that layer's numbers."""
    open_page(page, app_url, "Transformer_block")
    title = "One line per token"
    before = canvas_chart(page, title)["series"][0]["values"]  # the first token's line
    press_slider(page, "MiniLM layer", "ArrowRight")
    expect(page.get_by_role("heading", name="2. MiniLM layer 1, step by step")).to_be_visible()
    wait_canvas_chart(page, title, "JSON.stringify(c.series[0].values) !== arg", json.dumps(before))
    expect(page.get_by_text("0.0e+00")).to_be_visible()  # our steps equal the model's output
    shot(page, "labs_b_block_layer1")
