"""Step pages 2-4 in a real browser: one interaction each, waiting on the app's state (the
Tokens page's typed sentence: tests/e2e/test_heatmaps_browser.py)."""

import pytest
from playwright.sync_api import expect

from attn_ui.compute import lesson_run
from attn_ui.settings import LessonSettings
from attn_ui.step_tables import dot_sum
from tests.support.browser import (
    canvas_chart,
    heatmap,
    hover_cell,
    open_page,
    wait_canvas_chart,
    wait_heatmap,
    wait_idle,
)

pytestmark = pytest.mark.e2e


def test_projection_d_v_slider_widens_v(page, app_url):
    """Moving the d_v slider changes the width of V only."""
    open_page(page, app_url, "Projection?weights=random")  # the seeded random head
    assert heatmap(page, "V with d_v")["shape"][1] == 4
    slider = page.get_by_role("slider", name="d_v (value size)")
    slider.focus()
    slider.press("ArrowRight")
    wait_idle(page)
    v = wait_heatmap(page, "V with d_v", "f.shape[1] === 8")
    assert heatmap(page, "Q = X W_Q")["shape"][1] == 4
    assert v["cols"] == [f"v{j}" for j in range(8)] and len(v["z"][0]) == 8


def test_scores_hover_writes_out_the_dot_product(page, app_url):
    """Hovering a cell of S shows that query's and key's sum of products, as the engine has it."""
    t = lesson_run(LessonSettings(weights="random")).trace
    open_page(page, app_url, "Scores?weights=random")  # the seeded random head
    hover = hover_cell(page, "S = Q K", 2, 1)
    expect(hover).to_contain_text("query 2: sat")
    expect(hover).to_contain_text("key 1: cat")
    expect(hover).to_contain_text("q2·k1 = ")
    text = hover.text_content()
    assert dot_sum(t.q[2], t.k[1], t.scores[2, 1], newline="").split(" = ")[-1] in text
    assert text.count("×") == t.d_k


def test_scaling_marks_your_d_k_on_the_curves(page, app_url):
    """Raising d_k in the sidebar moves the 'your d_k' line on the simulation curves."""
    open_page(page, app_url, "Scaling?weights=random")  # the seeded random head
    assert canvas_chart(page, "Variance")["mark"]["x"] == 4
    drawn = page.locator(".cg-chart canvas[aria-label^='Variance']").evaluate(
        "c => Number(c.closest('.cg-root').dataset.drawn)"
    )
    slider = page.get_by_role("slider", name="d_k (query/key size)")
    slider.focus()
    slider.press("ArrowRight")
    wait_idle(page)
    chart = wait_canvas_chart(page, "Variance", "c.mark.x === 8")
    assert chart["mark"]["text"] == "your d_k = 8"
    redrawn = page.locator(".cg-chart canvas[aria-label^='Variance']").evaluate(
        "c => Number(c.closest('.cg-root').dataset.drawn)"
    )
    assert redrawn > drawn  # drawn again in place, with the new mark
