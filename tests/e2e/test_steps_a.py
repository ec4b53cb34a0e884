"""Step pages 1-4 in a real browser: one interaction each, waiting on the app's state."""

import pytest
from playwright.sync_api import expect

from attn_ui.compute import lesson_run
from attn_ui.controls import LessonSettings
from attn_ui.first_steps import dot_sum
from tests.support.browser import chart, open_page, shot, wait_chart, wait_idle

pytestmark = pytest.mark.e2e


def test_tokens_repeated_word_gets_its_own_rows(page, app_url):
    """Typing a sentence with repeated words gives one row of X per token and a repeats table."""
    open_page(page, app_url, "Tokens")
    box = page.get_by_role("textbox", name="Your sentence")
    box.fill("the cat saw the cat")
    box.press("Control+Enter")
    wait_idle(page)
    wait_chart(page, "X ", "g.layout.yaxis.ticktext.length === 5")
    assert chart(page, "X ", "g.layout.yaxis.ticktext") == [
        "the",
        "cat",
        "saw",
        "the",
        "cat",
    ]
    expect(page.get_by_text("Repeated tokens")).to_be_visible()
    shot(page, "steps_tokens_repeated")


def test_projection_d_v_slider_widens_v(page, app_url):
    """Moving the d_v slider changes the width of V only."""
    open_page(page, app_url, "Projection")
    width = "g._fullData[0].z[0].length"  # columns as Plotly drew them
    assert chart(page, "V with d_v", width) == 4
    slider = page.get_by_role("slider", name="d_v (value size)")
    slider.focus()
    slider.press("ArrowRight")
    wait_idle(page)
    wait_chart(page, "V with d_v", f"{width} === 8")
    assert chart(page, "Q = X W_Q", width) == 4
    assert chart(page, "V with d_v", "g.layout.xaxis.ticktext.length") == 8


def test_scores_hover_writes_out_the_dot_product(page, app_url):
    """Hovering a cell of S shows that query's and key's sum of products, as the engine has it."""
    t = lesson_run(LessonSettings()).trace
    open_page(page, app_url, "Scores")
    plot = page.locator(".js-plotly-plot").filter(has_text="S = Q K").first
    plot.scroll_into_view_if_needed()
    grid = plot.locator(".nsewdrag").first.bounding_box()
    n = len(t.scores)
    page.mouse.move(grid["x"] + 1.5 * grid["width"] / n, grid["y"] + 2.5 * grid["height"] / n)
    hover = plot.locator(".hoverlayer")
    expect(hover).to_contain_text("q2·k1 = ")
    text = hover.text_content()
    assert dot_sum(t.q[2], t.k[1], t.scores[2, 1], newline="").split(" = ")[-1] in text
    assert text.count("×") == t.d_k


def test_scaling_marks_your_d_k_on_the_curves(page, app_url):
    """Raising d_k in the sidebar moves the 'your d_k' line on the simulation curves."""
    open_page(page, app_url, "Scaling")
    assert chart(page, "Variance", "g.layout.shapes[0].x0") == 4
    slider = page.get_by_role("slider", name="d_k (query/key size)")
    slider.focus()
    slider.press("ArrowRight")
    wait_idle(page)
    wait_chart(page, "Variance", "g.layout.shapes[0].x0 === 8")
    expect(page.get_by_text("your d_k = 8").first).to_be_visible()
