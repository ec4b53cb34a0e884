"""The decoder pages in a real browser: Generate streams its tokens as they are written; the
KV cache page draws its charts. At 390 px both are read by the survey
(tests/e2e/test_accessibility.py: no error, every canvas's text and the page within the
screen), as the causal decoder and grouped query are."""

import re

import pytest
from playwright.sync_api import Page, expect

from attn_ui.compute import kv_cache
from tests.support.browser import heatmaps, open_page, shot, until, wait_canvas_chart, wait_idle

pytestmark = pytest.mark.e2e

FIRST_RUN = 240_000  # a first visit writes the default text (24 tokens) unless already written
WRITING = re.compile(r"Writing: (\d+) token\(s\) so far")
COUNT = """() => {
    const t = [...document.querySelectorAll('[data-testid=stCaptionContainer]')]
        .map(e => e.innerText).find(s => s.startsWith('Writing: '));
    return t ? Number(t.match(/\\d+/)[0]) : 0;
}"""


def written_so_far(pg: Page, more_than: int) -> int:
    """Wait until the page, still writing, shows more than `more_than` tokens; that count."""
    until(pg, f"() => ({COUNT})() > {more_than}", timeout=120_000)
    return pg.evaluate(COUNT)


def test_enter_streams_the_tokens_one_by_one(page, app_url):
    """Enter in the prompt box starts the writing; the count of tokens grows on screen in at
    least two steps before the end, and the finished text and triangle follow."""
    open_page(page, app_url, "Generate", timeout_ms=FIRST_RUN)
    box = page.get_by_role("textbox", name="Prompt (press Enter to write)")
    box.fill("The little robot opened the door and")
    box.press("Enter")
    first = written_so_far(page, 0)
    second = written_so_far(page, first)
    assert 1 <= first < second
    expect(page.get_by_text(re.compile(r"\d+ token\(s\) written"))).to_be_visible(timeout=120_000)
    wait_idle(page, 120_000)
    expect(page.get_by_text(WRITING)).to_have_count(0)
    expect(page.get_by_text("The little robot opened the door and").first).to_be_visible()
    titles = [f["title"] for f in heatmaps(page)]
    assert any(t.startswith("Causal attention, layer 26, head 6   (") for t in titles), titles
    shot(page, "decoder_generate_written")


def test_kv_cache_page_draws_its_charts(page, app_url):
    """The memory and FLOPs charts are drawn, one point per context length, and the proof
    shows the same next token both ways."""
    open_page(page, app_url, "KV_cache", timeout_ms=FIRST_RUN)
    n = len(kv_cache.CONTEXTS)
    wait_canvas_chart(page, "Memory of the KV cache", f"c.x.values.length === {n}")
    wait_canvas_chart(page, "FLOPs to read one more token", f"c.x.values.length === {n}")
    expect(page.get_by_text("The cache after your 22 tokens and the model's one")).to_be_visible()
    expect(page.get_by_text("both ways choose the same next token")).to_be_visible()
    shot(page, "decoder_kv_cache")
