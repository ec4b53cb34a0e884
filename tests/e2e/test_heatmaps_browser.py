"""The step pages' and labs' heatmaps in a real browser (the canvas component that draws every
heatmap; the overview's own checks are in test_overview_canvas.py): hover on a cell and on a
masked cell, text that looks like HTML and a repeated word, the local band and its window,
PNG downloads, a phone's width."""

import urllib.request

import pytest
from playwright.sync_api import expect

from attn_ui.compute import lesson_run
from attn_ui.figures import canvas_grid, js_bundle
from attn_ui.figures.heatmap import BAND
from attn_ui.settings import LessonSettings
from tests.support.browser import (
    heatmap,
    heatmaps,
    hover_cell,
    open_page,
    press_slider,
    shot,
    wait_heatmap,
    wait_idle,
)

pytestmark = pytest.mark.e2e

JS_TYPES = ("text/javascript", "application/javascript")  # what a module may be served as


def test_hover_names_the_cell_and_a_masked_cell_says_so(page, app_url):
    """On the masking page: query and key by position and word, the value as on the cell;
    a masked score is "-∞ (masked)"."""
    s = LessonSettings(sentence="the cat saw the cat", mask="causal", weights="random")
    t = lesson_run(s).trace
    link = "Masking?mask=causal&sentence=the%20cat%20saw%20the%20cat&weights=random"
    open_page(page, app_url, link)
    scores = wait_heatmap(page, "S/√d_k + M", "f.rows.length === 5")
    assert scores["z"][0][1] == float("-inf")
    tip = hover_cell(page, "S/√d_k + M", 3, 1)
    expect(tip).to_contain_text("query 3: the")
    expect(tip).to_contain_text("key 1: cat")
    expect(tip).to_contain_text(f"value: {t.masked[3, 1]:.2f}")
    expect(hover_cell(page, "S/√d_k + M", 0, 4)).to_contain_text("value: -∞ (masked)")
    # the figures' script came once for the page, as a file of the app's static folder
    # (attn_ui/figures/js_bundle.py `publish`), not inside each figure element
    fetched = page.evaluate(
        "() => performance.getEntriesByType('resource').map(e => e.name)"
        ".filter(n => n.includes('/app/static/'))"
    )
    name = js_bundle.file_name(canvas_grid._JS, "figures")
    assert [url.rsplit("/", 1)[-1] for url in fetched] == [name]
    with urllib.request.urlopen(f"{app_url}/app/static/{name}") as served:
        assert served.headers["Content-Type"].split(";")[0] in JS_TYPES
        assert served.read().decode("utf-8") == canvas_grid._JS


def test_text_that_looks_like_html_stays_text_and_a_repeated_word_gets_its_own_rows(page, app_url):
    """Tags in the sentence are drawn as text; then a typed sentence with repeated words gives
    one row of X per token and a repeats table."""
    open_page(page, app_url, "Tokens?sentence=%3Cb%3Ex%3C%2Fb%3E%20%3Cscript%3E&weights=random")
    x = wait_heatmap(page, "X ", "f.rows.includes('<')")
    assert page.locator(".cg-root b, .cg-root script").count() == 0
    assert "b" in x["rows"] and "script" in x["rows"]  # WordPiece splits the tags; drawn as text
    expect(hover_cell(page, "X ", 0, 0)).to_contain_text("token 0: <")
    box = page.get_by_role("textbox", name="Your sentence")
    box.fill("the cat saw the cat")
    box.press("Enter")
    wait_idle(page)
    x = wait_heatmap(page, "X ", "f.rows.length === 5")
    assert x["rows"] == ["the", "cat", "saw", "the", "cat"]
    assert x["z"][1] == x["z"][4] and x["colours"] > 5
    expect(page.get_by_text("Repeated tokens")).to_be_visible()


def test_local_band_is_outlined_and_the_window_narrows_it(page, app_url):
    """The window's band is drawn in its colour on the local weights, and only there; moving
    the window from 2 to 0 leaves only the diagonal: every other weight is 0."""
    open_page(page, app_url, "Local_attention?weights=random")
    wait_heatmap(page, "Local, w = 2")
    band = page.evaluate(
        """(hex) => [...document.querySelectorAll('.cg-figure canvas')].map(c => {
            const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            const [r, g, b] = [1, 3, 5].map(k => parseInt(hex.slice(k, k + 2), 16));
            let n = 0;
            for (let i = 0; i < px.length; i += 4) {
                n += px[i] === r && px[i + 1] === g && px[i + 2] === b;
            }
            return [c.getAttribute('aria-label'), n];
        })""",
        BAND,
    )
    drawn = {title.split(":")[0]: n for title, n in band}
    assert drawn["Local, w = 2"] > 100 and drawn["Global"] == 0
    press_slider(page, "Window w: neighbours each token sees on each side", "ArrowLeft", 2)
    z = wait_heatmap(page, "Local, w = 0", "f.z.length === 12")["z"]
    assert all(z[i][j] == (1 if i == j else 0) for i in range(12) for j in range(12))
    expect(page.get_by_text("144 scores")).to_be_visible()
    expect(page.get_by_text("12 scores", exact=True)).to_be_visible()  # T(2*0+1) - 0


def test_png_downloads(page, app_url):
    """A heatmap's PNG link saves that figure; the model explorer's saves its grid of heads."""
    open_page(page, app_url, "Scores")
    scores = page.locator(".cg-figure").filter(has=page.locator("canvas[aria-label^='S = Q']"))
    with page.expect_download() as dl:
        scores.get_by_text("PNG").click()
    assert dl.value.suggested_filename == "S_Q_Kᵀ.png"  # ᵀ is a letter: kept
    with open(dl.value.path(), "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    open_page(page, app_url, "Model_explorer")
    with page.expect_download() as dl:
        page.locator(".cg-root").first.get_by_text("PNG").last.click()
    assert dl.value.suggested_filename == "every_head.png"


def test_phone_width(tab, app_url):
    """At 390 px the step page's figures fit the screen one under the other, stay coloured
    and labelled, and a tap on a cell explains it."""
    pg = tab(390, 844, touch=True)
    open_page(pg, app_url, "Multi-head?n_heads=4")
    figs = heatmaps(pg)
    assert len(figs) >= 7
    assert all(0 < f["width"] <= 390 and f["colours"] > 3 for f in figs)
    tip = hover_cell(pg, "head 0: A_0", 0, 0, tap=True)
    expect(tip).to_contain_text("query 0: the")
    assert heatmap(pg, "head 0: A_0")["rows"][0] == "the"
    shot(pg, "multihead_phone")
