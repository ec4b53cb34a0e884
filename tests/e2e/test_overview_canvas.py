"""The overview in a real browser: its canvas heatmaps (attn_ui/figures/canvas_grid.js) are
drawn, labelled, coloured and explained on hover, follow the controls, and fit a phone."""

import pytest
from playwright.sync_api import Page, expect

from attn_ui.compute import lesson_run
from attn_ui.settings import LessonSettings
from tests.support.browser import (
    open_page,
    shot,
    until,
    wait_idle,
)

pytestmark = pytest.mark.e2e

CANVASES = "[...document.querySelectorAll('.cg-root canvas')]"
SENTENCE = "the cat saw the cat"


def figures(pg: Page) -> list[dict]:
    """Each canvas: title, rows, shape, drawn size, and how many distinct colours it shows."""
    return pg.evaluate(
        f"""() => {CANVASES}.map(c => {{
            const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            const colours = new Set();
            for (let i = 0; i < px.length; i += 4 * 97) {{
                colours.add(px[i] << 16 | px[i + 1] << 8 | px[i + 2]);
            }}
            return {{ title: c.getAttribute('aria-label'), rows: JSON.parse(c.dataset.rows),
                      shape: c.dataset.shape, width: c.clientWidth, height: c.clientHeight,
                      colours: colours.size }};
        }})"""
    )


def wait_rows(pg: Page, rows: list[str]) -> None:
    """Until every canvas shows these row labels."""
    until(
        pg,
        f"""(rows) => {CANVASES}.length > 0
            && {CANVASES}.every(c => c.dataset.rows === JSON.stringify(rows))""",
        arg=rows,
    )


def cell(canvas, i: int, j: int) -> dict:
    """The middle of cell (i, j) of a canvas figure, relative to the canvas; it is scrolled
    into view first."""
    canvas.scroll_into_view_if_needed()
    x, y = canvas.evaluate(
        "(c, [i, j]) => { const L = c.parentElement.layout;"
        " return [L.left + (j + 0.5) * L.cellW, L.top + (i + 0.5) * L.cellH]; }",
        [i, j],
    )
    return {"x": x, "y": y}


def hover(page: Page, canvas, i: int, j: int):
    """Move the mouse over cell (i, j); the figure's hover box."""
    at, box = cell(canvas, i, j), canvas.bounding_box()
    page.mouse.move(box["x"] + at["x"], box["y"] + at["y"])
    return canvas.locator("xpath=..").locator(".cg-hover")


def test_repeated_word_gets_a_row_and_d_k_changes_q(page, app_url):
    open_page(page, app_url, "Overview?weights=random")  # the d_k slider: random weights
    box = page.get_by_role("textbox", name="Your sentence")
    box.fill("the cat saw the cat")
    box.press("Enter")
    wait_rows(page, ["the", "cat", "saw", "the", "cat"])
    figs = figures(page)
    assert [f["title"].split("   (")[0] for f in figs[:4]] == [
        "X",
        "Q = X W_Q",
        "K = X W_K",
        "V = X W_V",
    ]
    assert figs[1]["shape"] == "5x4"
    assert all(f["colours"] > 5 and f["width"] > 100 and f["height"] > 150 for f in figs)
    slider = page.get_by_role("slider", name="d_k (query/key size)")
    slider.focus()
    slider.press("ArrowLeft")
    wait_idle(page)
    until(page, f"() => {CANVASES}[1].dataset.shape === '5x2'")
    shot(page, "overview_repeated_word")


def test_text_that_looks_like_html_stays_text(page, app_url):
    open_page(page, app_url, "Overview?sentence=%3Cb%3Ex%3C%2Fb%3E%20%3Cscript%3E")
    until(page, f"() => {CANVASES}.length > 0")
    assert page.locator(".cg-root b, .cg-root script").count() == 0
    rows = figures(page)[0]["rows"]
    assert "<" in rows and "b" in rows  # WordPiece splits the tags; each piece drawn as text


@pytest.fixture(scope="module")
def causal(worker_tab, app_url):
    """One overview, opened by a link with a repeated word and the causal mask, for the
    tests below that only hover and download (they leave the page as it was). It is the
    worker's desktop tab: no test that borrows it (`page`) comes between them."""
    pg = worker_tab(1400, 1000)
    open_page(
        pg, app_url, f"Overview?sentence={SENTENCE.replace(' ', '%20')}&mask=causal&weights=random"
    )
    wait_rows(pg, SENTENCE.split())
    return pg


def test_hover_names_position_token_and_value(causal):
    """A weights cell's hover gives query and key by position and word (repeated words too)."""
    t = lesson_run(LessonSettings(sentence=SENTENCE, mask="causal", weights="random")).trace
    canvas = causal.locator(".cg-root canvas[aria-label^='A = softmax']")
    tip = hover(causal, canvas, 4, 3)
    expect(tip).to_be_visible()
    expect(tip).to_contain_text("query 4: cat")
    expect(tip).to_contain_text("key 3: the")
    expect(tip).to_contain_text(f"value: {t.weights[4, 3]:.2f}")
    box = canvas.bounding_box()
    causal.mouse.move(box["x"] + 2, box["y"] + 2)  # off the cells: the hover goes
    expect(tip).to_be_hidden()


def test_masked_cells_say_so_on_hover(causal):
    canvas = causal.locator(".cg-root canvas[aria-label^='S ×']")
    expect(hover(causal, canvas, 0, 2)).to_contain_text("value: -∞ (masked)")


def test_png_download(causal):
    with causal.expect_download() as dl:
        causal.locator(".cg-figure").first.get_by_text("PNG").click()
    assert dl.value.suggested_filename == "X.png"
    with open(dl.value.path(), "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"


def test_phone_width(tab, app_url):
    """At phone width every figure gets its own line, fits the screen, arrows point down,
    and a tap on a cell explains it (there is no mouse to hover with)."""
    pg = tab(390, 844, touch=True)
    open_page(pg, app_url, "Overview?weights=random")  # X of 8 features (384 scroll)
    until(pg, f"() => {CANVASES}.length >= 8")
    figs = figures(pg)
    assert all(0 < f["width"] <= 390 for f in figs)
    assert pg.locator(".cg-arrow").first.inner_text() == "↓"
    canvas = pg.locator(".cg-root canvas[aria-label^='A = softmax']")
    canvas.tap(position=cell(canvas, 0, 0))
    expect(canvas.locator("xpath=..").locator(".cg-hover")).to_contain_text("query 0: the")
    shot(pg, "overview_phone")
