"""The model explorer in a real browser: the head heatmap keeps every token, lines follow a pick."""

import pytest

from tests.support.browser import open_page, shot, wait_idle

pytestmark = pytest.mark.e2e

# The figure whose title starts with `t` (tags stripped), or "lines" (the lines figure) or
# "grid" (the 72 heads): its traces' x, y, z as plain lists, trace types, y tick labels.
FIGURE = """(t) => {
    const title = g => ((g.layout.title || {}).text || '').replace(/<[^>]*>/g, '');
    const is = {
        lines: g => ((g.layout.xaxis || {}).ticktext || [])[0] === 'queries',
        grid: g => g._fullData.length === 72,
    };
    const gd = [...document.querySelectorAll('.js-plotly-plot')]
        .find(g => (is[t] ? is[t](g) : title(g).startsWith(t)));
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
    box.press("Control+Enter")
    wait_idle(pg)


def test_repeated_word_gets_a_row_per_token(page, app_url):
    """A sentence with "the" and "cat" twice: seven rows, [CLS] and [SEP] included."""
    open_page(page, app_url, "Model_explorer")
    type_sentence(page, "the cat saw the cat")
    head = wait_figure(page, "Layer 0, head 0: A", "fig.ticks.length === 7")
    assert head["ticks"] == ["[CLS]", "the", "cat", "saw", "the", "cat", "[SEP]"]
    z = head["data"][0]["z"]
    assert len(z) == 7 and all(sum(row) == pytest.approx(1.0, abs=1e-5) for row in z)
    grid = wait_figure(page, "grid", "fig.data[0].z.length === 7")
    assert grid["types"] == ["heatmap"] * 72
    assert all(len(d["z"]) == 7 for d in grid["data"])
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
        wait_figure(pg, "Layer 0, head 0: A", "fig.ticks.length === 17")
        grid = wait_figure(pg, "grid", "fig.data[0].z.length === 17")  # the 72 heads
        assert grid["types"] == ["heatmap"] * 72
        shot(pg, "explorer_phone")
    finally:
        ctx.close()
