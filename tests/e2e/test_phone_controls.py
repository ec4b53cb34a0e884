"""A phone's first minutes in a real browser: the home page draws attention on the learner's own
sentence; the step pages' key controls sit above their figures at 390 px (not in the drawer)
and change them; the model explorer's and cross-attention's own boxes apply on Enter and cut a
long paste with a notice; the live Generate figure has its table."""

import numpy as np
import pytest
from playwright.sync_api import expect

from attn_ui import first_screen
from attn_ui.compute import explorer, lesson_run
from attn_ui.settings import MASKS, MAX_SENTENCE_CHARS, LessonSettings
from tests.support.browser import (
    heatmap,
    open_page,
    shot,
    wait_canvas_chart,
    wait_heatmap,
    wait_idle,
)

pytestmark = pytest.mark.e2e

HOME_A = "A: how much each query attends"


@pytest.fixture
def phone(tab):
    """A tab the size of a phone (390 x 844), no cookies, no session."""
    return tab(390, 844)


def above_the_fold_in_main(pg, control) -> None:
    """`control` is in the main column (not the sidebar drawer) and visible without opening
    anything."""
    expect(control).to_be_visible()
    assert control.evaluate("e => !e.closest('[data-testid=stSidebar]')")
    assert control.evaluate("e => Boolean(e.closest('[data-testid=stMain]'))")


@pytest.mark.parametrize("width", [1400, 390])
def test_home_draws_a_on_the_learners_sentence(tab, app_url, width):
    """The home page's figure is the lessons' head's A on the default sentence; a new sentence
    and Enter redraw it for that sentence, with the sentence on what to notice read from it."""
    pg = tab(width, 1000)
    open_page(pg, app_url)
    a = np.array(wait_heatmap(pg, HOME_A)["z"])
    np.testing.assert_allclose(a, lesson_run(LessonSettings()).trace.weights, atol=1e-5)
    box = pg.get_by_role("textbox", name="Your sentence")
    above_the_fold_in_main(pg, box)
    box.fill("the dog chased the ball")
    box.press("Enter")
    wait_idle(pg)
    run = lesson_run(LessonSettings(sentence="the dog chased the ball"))
    f = wait_heatmap(pg, HOME_A, "JSON.stringify(f.rows) === JSON.stringify(arg)", run.tokens)
    np.testing.assert_allclose(np.array(f["z"]), run.trace.weights, atol=1e-5)
    i, j = first_screen.strongest_row(run.trace.weights, run.tokens)
    said = f"gives {run.trace.weights[i, j]:.2f} of its attention to “{run.tokens[j]}”"
    expect(pg.get_by_text(said)).to_be_visible()
    assert "sentence=the+dog+chased+the+ball" in pg.url
    # the steps follow: the overview opens on the same sentence
    pg.get_by_role("link", name="See every step on your sentence").click()
    wait_heatmap(pg, "A = softmax", "JSON.stringify(f.rows) === JSON.stringify(arg)", run.tokens)
    shot(pg, f"home_live_{width}")


def test_home_weights_switch_to_random_in_one_click(phone, app_url):
    """The seeded random weights are one tap away on the home page, and the figure follows."""
    open_page(phone, app_url)
    random = phone.locator("[data-testid=stRadio] label").filter(has_text="Random, seeded")
    above_the_fold_in_main(phone, random)
    random.click()
    wait_idle(phone)
    want = lesson_run(LessonSettings(weights="random")).trace.weights
    wait_heatmap(phone, HOME_A, "f.rows[0] !== '[CLS]'")
    np.testing.assert_allclose(np.array(heatmap(phone, HOME_A)["z"]), want, atol=1e-6)
    assert "weights=random" in phone.url


def test_phone_scaling_d_k_is_above_the_figures_and_changes_them(phone, app_url):
    """At 390 px Scaling's d_k slider is in the page, above its figures; moving it with the
    keyboard changes the scaled scores to S / √d_k of the new d_k, and the link keeps it."""
    open_page(phone, app_url, "Scaling?weights=random")
    slider = phone.get_by_role("slider", name="d_k (query/key size)")
    above_the_fold_in_main(phone, slider)
    figure_top = phone.locator(".cg-figure canvas[aria-label^='S / √d_k']").first.bounding_box()
    assert slider.bounding_box()["y"] < figure_top["y"]
    slider.focus()
    slider.press("ArrowRight")  # d_k 4 -> 8
    wait_idle(phone)
    t = lesson_run(LessonSettings(weights="random", d_k=8)).trace
    f = wait_heatmap(phone, "S / √d_k", "Math.abs(f.z[0][0] - arg) < 1e-6", t.scaled[0, 0])
    # the server runs one BLAS thread (serve.py): sums in another order than this process
    np.testing.assert_allclose(np.array(f["z"]), t.scaled, atol=1e-6)
    assert "d_k=8" in phone.url
    shot(phone, "phone_scaling_d_k")


def test_phone_masking_mask_is_above_the_figures_and_changes_them(phone, app_url):
    """At 390 px the Mask box is in the page above the figures; choosing None there leaves no
    masked cell in the right-way weights."""
    open_page(phone, app_url, "Masking")
    mask = phone.get_by_role("combobox", name="Mask", exact=True)
    above_the_fold_in_main(phone, mask)
    right = wait_heatmap(phone, "softmax(S/√d_k + M)")
    assert np.allclose(np.triu(np.array(right["z"]), 1), 0)  # opens on the causal mask
    mask.click()
    mask.fill("None")  # the selectbox filters its options as you type
    # click the option itself: Enter pressed before the filter applies (a busy machine)
    # re-chose the highlighted current one, Causal
    phone.get_by_role("option", name=MASKS["none"], exact=True).click()
    wait_idle(phone)
    want = lesson_run(LessonSettings()).trace.weights
    f = wait_heatmap(phone, "softmax(S/√d_k + M)", "f.z[0][1] > 0")
    np.testing.assert_allclose(np.array(f["z"]), want, atol=1e-5)
    assert "mask=none" in phone.url


def test_phone_multihead_heads_slider_is_in_the_page(phone, app_url):
    """At 390 px Multi-head's heads slider is in the page; one step right draws three heads."""
    open_page(phone, app_url, "Multi-head")
    slider = phone.get_by_role("slider", name="heads")
    above_the_fold_in_main(phone, slider)
    slider.focus()
    slider.press("ArrowRight")  # 2 -> 3 heads
    wait_idle(phone)
    wait_heatmap(phone, "head 2: A_2")
    assert "n_heads=3" in phone.url


def test_a_page_key_control_is_one_setting_with_the_sidebar_of_another(page, app_url):
    """The temperature set above Softmax's figures sharpens the chosen row (its largest weight
    grows) and is the one the sidebar of Scores shows."""
    open_page(page, app_url, "Softmax")
    before = wait_canvas_chart(page, "Weights of row 1")["series"][0]["values"]
    slider = page.get_by_role("slider", name="temperature")
    above_the_fold_in_main(page, slider)
    slider.focus()
    slider.press("ArrowLeft")  # 1.0 -> 0.9
    wait_idle(page)
    wait_heatmap(page, "A = softmax by row, τ = 0.9")
    after = wait_canvas_chart(
        page, "Weights of row 1", "Math.max(...c.series[0].values) > arg", max(before)
    )["series"][0]["values"]
    assert max(after) > max(before) and sum(after) == pytest.approx(1.0)
    page.locator("[data-testid=stSidebar]").get_by_role("link", name="3. Scores").click()
    wait_idle(page)
    side = page.locator("[data-testid=stSidebar]").get_by_role("slider", name="temperature")
    expect(side).to_have_value("0.9")
    assert "temperature=0.9" in page.url


@pytest.mark.parametrize(
    ("page_name", "label", "limit", "figure"),
    [
        ("Model_explorer", "Your sentence", explorer.MAX_CHARS, "Layer 0, head 0"),
        ("Cross_attention", "Second sentence", MAX_SENTENCE_CHARS, "Cross: A"),
    ],
)
def test_own_boxes_apply_on_enter_and_cut_a_long_paste(
    page, app_url, page_name, label, limit, figure
):
    """The explorer's and cross-attention's own boxes are one line: Enter applies a sentence
    (no newline anywhere), and a paste over the limit is cut to it with a notice."""
    open_page(page, app_url, page_name)
    box = page.get_by_role("textbox", name=label)
    assert box.evaluate("e => e.tagName") == "INPUT"  # one line, not a text area
    box.fill("the rug")
    box.press("Enter")
    wait_idle(page)
    wait_heatmap(page, figure, "f.cols.includes('rug') && !f.cols.includes('kitten')")
    expect(box).to_have_value("the rug")
    text = " ".join(["rug"] * (limit // 4 + 10))
    box.fill(text)
    box.press("Enter")
    wait_idle(page)
    expect(page.get_by_text(f"Your text had {len(text)} characters")).to_be_visible()
    expect(box).to_have_value(text[:limit])
    assert "%0A" not in page.url
    shot(page, f"own_box_cut_{page_name}")
