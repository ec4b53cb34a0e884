"""Labs 40-43 in a real browser: one interaction each, waiting on the app's state."""

import re

import numpy as np
import pytest
from playwright.sync_api import expect

from tests.support.browser import (
    canvas_chart,
    heatmap,
    open_page,
    shot,
    wait_canvas_chart,
    wait_heatmap,
    wait_idle,
)

pytestmark = pytest.mark.e2e


def test_why_scale_d_slider_moves_every_curve_marker(page, app_url):
    """Pressing End on the d slider takes d to 1024: the charts mark it, the row saturates; the
    keyboard reads the variance curve point by point, with its error bar."""
    open_page(page, app_url, "Why_scale")
    assert canvas_chart(page, "Variance of the scores")["mark"]["x"] == 64
    slider = page.get_by_role("slider", name="d: entries in q and k")
    slider.focus()
    slider.press("End")
    wait_idle(page)
    wait_canvas_chart(page, "Variance of the scores", "c.mark.x === 1024")
    wait_canvas_chart(page, "Largest weight in a row", "c.mark.x === 1024")
    wait_canvas_chart(page, "The scores at d = 1024")
    canvas = page.locator(".cg-chart canvas[aria-label^='Variance of the scores']")
    canvas.focus()
    said = canvas.locator("xpath=..").locator(".cg-said")
    expect(said).to_have_text("d (log scale) = 1, closed form: d: 1")
    canvas.press("ArrowDown")
    canvas.press("ArrowDown")  # the closed forms, then the simulated unscaled variance
    canvas.press("End")
    expect(said).to_have_text(
        re.compile(r"^d \(log scale\) = 1024, q·k, simulated: [\d.]+ ± [\d.]+$")
    )
    shot(page, "labs_a_why_scale_1024")


def test_softmax_lab_typed_scores_redraw_the_bars(page, app_url):
    """Typing a new row of scores redraws soft and hard selection with one bar per score."""
    open_page(page, app_url, "Softmax_lab")
    assert len(canvas_chart(page, "Soft and hard selection")["x"]["labels"]) == 4
    box = page.get_by_label("Your scores: 2 to 12 numbers, separated by commas")
    box.fill("0, 5, 0")
    box.press("Enter")
    wait_idle(page)
    bars = wait_canvas_chart(page, "Soft and hard selection", "c.x.labels.length === 3")
    assert bars["x"]["labels"] == ["s0 = 0", "s1 = 5", "s2 = 0"]


def test_similarity_d_slider_changes_the_dot_products(page, app_url):
    """Moving the d slider down re-embeds the sentence: the dot-product heatmap changes."""
    open_page(page, app_url, "Similarity")
    before = np.array(heatmap(page, "dot product x_i")["z"])
    slider = page.get_by_role("slider", name="d: features per token (both parts)")
    slider.focus()
    slider.press("ArrowLeft")
    wait_idle(page)
    changed = "JSON.stringify(f.z) !== JSON.stringify(arg)"
    after = np.array(wait_heatmap(page, "dot product x_i", changed, before.tolist())["z"])
    assert after.shape == before.shape
    # fewer features (64 -> 32): every vector is shorter, so every |x|² on the diagonal is smaller
    assert np.all(np.diag(after) < np.diag(before))
    np.testing.assert_allclose(np.diag(heatmap(page, "cosine x_i")["z"]), 1.0)


def test_additive_seed_changes_the_network_not_the_dot_product(page, app_url):
    """A new seed redraws the additive alignment; the dot-product alignment has no weights."""
    open_page(page, app_url, "Additive")
    add, dot = (heatmap(page, t)["z"] for t in ("additive: softmax", "dot product: softmax"))
    seed = page.get_by_label("seed for W₁, W₂, v_a")
    seed.fill("5")
    seed.press("Enter")
    wait_idle(page)
    changed = "JSON.stringify(f.z) !== JSON.stringify(arg)"
    new = wait_heatmap(page, "additive: softmax", changed, add)["z"]
    assert not np.allclose(new, add)
    np.testing.assert_array_equal(heatmap(page, "dot product: softmax")["z"], dot)
    shot(page, "labs_a_additive_seed5")
