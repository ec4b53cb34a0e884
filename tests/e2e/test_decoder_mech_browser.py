"""The decoder pages on the mechanisms (causal mask, grouped-query attention, RoPE) in a real
browser: every figure drawn with its numbers, no exception; RoPE's slider also on a phone.
(Every page's figures at 390 px, these among them: tests/e2e/test_accessibility.py.)"""

import pytest
from playwright.sync_api import expect

from tests.support.browser import (
    heatmap,
    heatmaps,
    open_page,
    shot,
    wait_canvas_chart,
    wait_idle,
    wait_plots_drawn,
)

pytestmark = pytest.mark.e2e
WIDTHS = (1400, 390)


@pytest.fixture(params=WIDTHS, ids=lambda w: f"{w}px")
def sized(tab, request):
    """A tab at a desktop or a phone width, no cookies, no session."""
    return tab(request.param, 1000), request.param


def drawn(pg) -> list[dict]:
    """Every heatmap, each checked drawn: a size, colours, a label per row."""
    wait_plots_drawn(pg)
    figs = heatmaps(pg)
    for f in figs:
        assert f["width"] > 0 and f["height"] > 0, f["title"]
        assert f["colours"] > 1, f["title"]
        assert len(f["rows"]) == f["shape"][0], f["title"]
    return figs


def test_causal_decoder_draws_smollm_triangles_beside_minilm(page, app_url):
    """SmolLM2's head is 0 above the diagonal as drawn; MiniLM's is not; the gallery's 8 heads."""
    open_page(page, app_url, "Causal_decoder")
    figs = drawn(page)
    assert sum(f["small"] for f in figs) == 8  # 4 previous-token and 4 first-token heads
    smol = heatmap(page, "SmolLM2 layer")["z"]
    assert all(smol[i][j] == 0 for i in range(len(smol)) for j in range(i + 1, len(smol)))
    mini = heatmap(page, "MiniLM layer")["z"]
    assert any(mini[i][j] > 0 for i in range(len(mini)) for j in range(i + 1, len(mini)))
    expect(page.get_by_text("0 of its 17,820 weights above the diagonal are not 0")).to_be_visible()
    shot(page, "decoder_causal_1400")


def test_grouped_query_draws_one_group_and_the_cache(page, app_url):
    """The grouping, the group's three heads and its shared K, and the cache chart's 3 lines."""
    open_page(page, app_url, "Grouped_query")
    titles = [f["title"] for f in drawn(page)]
    assert sum(t.startswith("L0 query head") for t in titles) == 3
    assert any(t.startswith("Which K/V head") for t in titles)
    cache = wait_canvas_chart(page, "KV cache (float32)")
    assert [s["name"] for s in cache["series"]] == ["MHA", "GQA", "MQA"]
    expect(page.get_by_text("query head 4 reads it")).to_be_visible()
    shot(page, "decoder_gqa_1400")


def test_rope_shift_to_the_end_keeps_smollms_score_not_minilms(sized, app_url):
    """Pressing End on the shift slider (s = 400): SmolLM2's score stays, MiniLM's moves."""
    pg, width = sized
    open_page(pg, app_url, "RoPE")
    drawn(pg)
    wait_canvas_chart(pg, "Score against the distance", "c.x.values.length === 97")
    slider = pg.get_by_role("slider", name="Shift s (both)")
    slider.focus()
    slider.press("End")
    wait_idle(pg)
    expect(pg.get_by_text("SmolLM2: at (m + s, n + s) = (405, 402)")).to_be_visible()
    values = pg.locator("[data-testid=stMetricValue]").all_inner_texts()
    smol_score, smol_shifted, smol_diff, _, _, mini_diff = values
    assert smol_score == smol_shifted and abs(float(smol_diff)) < 1e-9
    assert abs(float(mini_diff)) > 1e-3
    shot(pg, f"decoder_rope_{width}")
