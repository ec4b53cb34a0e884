"""The why-scale and softmax labs in a real browser: one interaction each, waiting on the app's
state. The similarity and additive labs' controls are tested below the page
(tests/app/test_lab_similarity.py, test_lab_additive.py): in a browser they would only repeat
what these show, a control that redraws its figure in place."""

import re

import pytest
from playwright.sync_api import expect

from tests.support.browser import (
    canvas_chart,
    open_page,
    shot,
    wait_canvas_chart,
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
