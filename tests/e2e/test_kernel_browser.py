"""Inside the kernel in a real browser: the Gradients page draws; Train a head trains,
scrubs and reads a typed sequence, also at 390 px."""

import pytest
from playwright.sync_api import expect

from tests.support.browser import (
    heatmap,
    open_page,
    shot,
    wait_canvas_chart,
    wait_heatmap,
    wait_idle,
)

pytestmark = pytest.mark.e2e


def no_exception(pg) -> None:
    expect(pg.locator("[data-testid='stException']")).to_have_count(0)


def test_gradients_page_draws_every_gradient(page, app_url):
    """Every gradient is drawn as a heatmap, dS has one row per token, and nothing fails."""
    open_page(page, app_url, "Gradients")
    ds = wait_heatmap(page, "dS = A ⊙")
    assert ds["shape"] == [12, 12]
    for title in ("dZ = dL/dZ", "dV = Aᵀ dZ", "dA = dZ Vᵀ", "dQ = dS K", "dW_Q", "dW_V"):
        assert heatmap(page, title) is not None, title
    expect(page.get_by_text("dS = A ⊙ (dA − c)", exact=True)).to_be_visible()  # by hand
    no_exception(page)
    shot(page, "kernel_gradients")


def test_train_a_head_trains_and_scrubs(page, app_url):
    """Train draws the loss and the trained pattern; step 0 is near uniform; a typed
    sequence is attended."""
    open_page(page, app_url, "Train_a_head")
    page.get_by_role("button", name="Train").click()
    wait_idle(page)
    trained = wait_heatmap(page, "A after 200 steps")
    assert trained["z"][3][2] > 0.9  # query 3 on key 2: the previous token
    loss = wait_canvas_chart(page, "Loss and weight on the right key")
    assert len(loss["series"][0]["values"]) == 200  # a loss per step
    slider = page.get_by_role("slider", name="Show the head after step")
    slider.focus()
    slider.press("Home")
    wait_idle(page)
    first = wait_heatmap(page, "A after 0 steps")
    assert first["z"][3][2] < 0.5
    box = page.get_by_role("textbox", name="Your sequence (letters a to p)")
    box.fill("a b c d")
    box.press("Enter")
    wait_idle(page)
    assert wait_heatmap(page, "A on your sequence", "f.shape[0] === 4")["shape"] == [4, 4]
    no_exception(page)
    shot(page, "kernel_train")


def test_train_a_head_at_phone_width(tab, app_url):
    """At 390 px, Train draws the trained head without an error. (Gradients on a phone's first
    visit: tests/e2e/test_accessibility.py `test_a_narrowed_page_reads_as_a_phones_first_visit`,
    every canvas as the survey drew it, dS among them.)"""
    pg = tab(390, 844)
    open_page(pg, app_url, "Train_a_head")
    pg.get_by_role("button", name="Train").click()
    wait_idle(pg)
    wait_heatmap(pg, "A after 200 steps")
    no_exception(pg)
    shot(pg, "kernel_Train_a_head_phone")
