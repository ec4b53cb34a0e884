"""The model explorer in a real browser: the heatmaps keep every token, lines follow a pick."""

import pytest
from playwright.sync_api import expect

from tests.support.browser import (
    heatmaps,
    hover_cell,
    open_page,
    shot,
    wait_heatmap,
    wait_idle,
)

pytestmark = pytest.mark.e2e

# The lines figure (Plotly; the heatmaps are canvases, tests.support.browser.heatmaps): its traces'
# x, y, z as plain lists, trace types, y tick labels.
FIGURE = """(t) => {
    const is = {lines: g => ((g.layout.xaxis || {}).ticktext || [])[0] === 'queries'};
    const gd = [...document.querySelectorAll('.js-plotly-plot')].find(g => is[t](g));
    if (!gd) return null;
    const plain = a => (a == null ? null : Array.from(a, r => (r && r.length !== undefined
        && typeof r !== 'string') ? Array.from(r) : r));
    return {ticks: gd.layout.yaxis.ticktext || null, types: gd._fullData.map(d => d.type),
            data: gd._fullData.map(d => ({x: plain(d.x), y: plain(d.y), z: plain(d.z)}))};
}"""


def wait_figure(pg, title, condition: str = "true"):
    """Wait until the figure exists and `condition` (JS over `fig`) holds; return it."""
    pg.wait_for_function(
        f"(t) => {{ const fig = ({FIGURE})(t); return fig !== null && ({condition}); }}",
        arg=title,
        timeout=90_000,  # a loaded machine runs the model and draws 72 heatmaps slowly
    )
    return pg.evaluate(FIGURE, title)


def type_sentence(pg, sentence: str) -> None:
    box = pg.get_by_role("textbox", name="Your sentence")
    box.fill(sentence)
    box.press("Enter")
    wait_idle(pg)


def test_repeated_word_gets_a_row_per_token(page, app_url):
    """A sentence with "the" and "cat" twice: seven rows, [CLS] and [SEP] included."""
    open_page(page, app_url, "Model_explorer")
    type_sentence(page, "the cat saw the cat")
    head = wait_heatmap(page, "Layer 0, head 0: A", "f.rows.length === 7")
    assert head["rows"] == ["[CLS]", "the", "cat", "saw", "the", "cat", "[SEP]"]
    z = head["z"]
    assert len(z) == 7 and all(sum(row) == pytest.approx(1.0, abs=1e-5) for row in z)
    wait_heatmap(page, "layer 5, head 11", "f.rows.length === 7")
    grid = [f for f in heatmaps(page) if f["title"].startswith("layer ")]
    assert len(grid) == 72 and all(f["shape"] == [7, 7] and f["colours"] > 1 for f in grid)
    assert grid[0]["z"] == z  # layer 0, head 0 is the head view's matrix
    tip = hover_cell(page, "layer 2, head 3", 4, 2)
    expect(tip).to_contain_text("layer 2, head 3")
    expect(tip).to_contain_text("query 4: the")
    expect(tip).to_contain_text("key 2: cat")
    shot(page, "explorer_repeated_word")


def test_picking_a_token_keeps_only_its_lines(page, app_url):
    """Choosing "it" in 'Lines of' leaves only lines that start at the query "it"."""
    open_page(page, app_url, "Model_explorer")
    page.get_by_role("combobox", name="Lines of").click()
    page.keyboard.type("11 it")
    page.keyboard.press("Enter")
    wait_idle(page)
    only_it = "fig.data.slice(0, -2).every(d => d.y.every((y, i) => d.x[i] !== 0 || y === 11))"
    lines = wait_figure(page, "lines", only_it)  # the last two traces: the token columns
    starts = [y for d in lines["data"][:-2] for x, y in zip(d["x"], d["y"], strict=True) if x == 0]
    assert starts and set(starts) == {11}
    shot(page, "explorer_lines_of_it")


def test_phone_width(browser, app_url):
    """At phone width the grid of 72 heads and the head view draw without an error."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    pg = ctx.new_page()
    try:
        open_page(pg, app_url, "Model_explorer")
        wait_heatmap(pg, "Layer 0, head 0: A", "f.rows.length === 17")
        grid = [f for f in heatmaps(pg) if f["title"].startswith("layer ")]
        assert len(grid) == 72 and all(0 < f["width"] < 40 for f in grid)  # 12 across
        shot(pg, "explorer_phone")
    finally:
        ctx.close()
