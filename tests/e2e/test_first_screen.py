"""A learner's first screen in a real browser: the sentence box applies on Enter, a long
paste is cut with a notice, random weights stay one click away. (That the default weights
visibly choose is read from the accessibility survey's visits: test_accessibility.py.)"""

import numpy as np
import pytest
from playwright.sync_api import expect

from attn_ui.compute import lesson_run
from attn_ui.settings import MAX_SENTENCE_CHARS, LessonSettings
from tests.support.browser import heatmap, open_page, shot, wait_heatmap, wait_idle

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("page_name", ["Scores", "Overview"])
def test_enter_applies_the_sentence(page, app_url, page_name):
    """Typing a sentence and pressing Enter redraws the figures for it; no newline lands in
    the box or the URL."""
    open_page(page, app_url, page_name)
    box = page.get_by_role("textbox", name="Your sentence")
    box.fill("the dog saw the cat")
    box.press("Enter")
    wait_idle(page)
    tokens = list(lesson_run(LessonSettings(sentence="the dog saw the cat")).tokens)
    title = "S = Q" if page_name == "Scores" else "A = softmax"
    wait_heatmap(page, title, "JSON.stringify(f.rows) === JSON.stringify(arg)", tokens)
    expect(box).to_have_value("the dog saw the cat")
    assert "%0A" not in page.url and "sentence=the+dog+saw+the+cat" in page.url


def test_a_long_paste_is_cut_with_a_notice(page, app_url):
    """A paste over the limit is cut to it, the box shows the cut text, and a notice says so."""
    open_page(page, app_url, "Scores")
    text = " ".join(f"w{i}" for i in range(200))
    box = page.get_by_role("textbox", name="Your sentence")
    box.fill(text)
    box.press("Enter")
    wait_idle(page)
    expect(page.get_by_text(f"Your text had {len(text)} characters")).to_be_visible()
    expect(box).to_have_value(text[:MAX_SENTENCE_CHARS])
    shot(page, "sentence_cut_notice")


def test_random_weights_stay_one_click_away(page, app_url):
    """An explicit weights=random link still gives the seeded random head (near uniform)."""
    open_page(page, app_url, "Softmax?weights=random")
    a = np.array(heatmap(page, "A = softmax")["z"])
    expected = lesson_run(LessonSettings(weights="random")).trace.weights
    np.testing.assert_allclose(a, expected, atol=1e-12)
    expect(page.get_by_text("Random, seeded", exact=False).first).to_be_visible()


def test_a_wide_x_scrolls_instead_of_blurring(page, app_url):
    """The real head's X (384 features) gets at least 2 px a column in a box that scrolls
    sideways, and its title says so: never a partial-looking matrix."""
    open_page(page, app_url, "Overview")
    x = wait_heatmap(page, "X ")
    assert x["shape"][1] == 384 and x["width"] >= 2 * 384
    box = page.evaluate(
        """() => { const b = [...document.querySelectorAll('.cg-figure')]
                     .find(b => b.figure.title.startsWith('X '));
                   return { scroll: b.scrollWidth, client: b.clientWidth,
                            lines: b.layout.titleLines, cellW: b.layout.cellW }; }"""
    )
    assert box["scroll"] > box["client"] and box["cellW"] >= 2
    assert "scroll sideways: all 384 columns" in box["lines"]
