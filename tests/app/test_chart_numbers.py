"""Every chart of the labs, the decoder and the kernel pages has its numbers in a table under
it ("Numbers of <title>", tables.chart_table), the same numbers the chart draws: what a
screen reader or a keyboard reaches besides the chart's own reading (the arrow keys). The
explorer's lines have none of their own: they are the head view's weights, in its table."""

import numpy as np
import pytest

from attn_ui.figures import chart
from attn_ui.tables import chart_table
from tests.support.apptest import canvas_charts, load, open_tables

# The pages with a chart at their defaults (Cost and Train a head draw theirs after a
# button, through the same panels.chart).
PAGES = [
    "pages/30_Model_explorer.py",
    "pages/40_Why_scale.py",
    "pages/41_Softmax_lab.py",
    "pages/42_Similarity.py",
    "pages/43_Additive.py",
    "pages/45_Local_attention.py",
    "pages/47_Transformer_block.py",
    "pages/50_Tiled_attention.py",
    "pages/51_Gradients.py",
    "pages/62_KV_cache.py",
    "pages/63_Grouped_query.py",
    "pages/64_RoPE.py",
]


def _table_of(at, title: str):
    label = f"Numbers of {title} (table, CSV download)"
    (box,) = [e for e in at.expander if e.label == label]
    return box.dataframe[0].value


def _drawn(s: dict) -> np.ndarray:
    return np.array([np.nan if v is None else v for v in s["values"]], dtype=float)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.split("/")[1].removesuffix(".py"))
def test_every_chart_has_its_numbers_in_a_table(page):
    at = open_tables(load(page, timeout=120))  # its own run: opening the tables changes it
    charts = canvas_charts(at)
    assert charts, "the page draws a chart"
    labels = [e.label for e in at.expander]
    for c in charts:
        if c["chart"] == "links":  # the explorer's lines: the head view's table has them
            assert f"Numbers of {c['title']} (table, CSV download)" not in labels
            continue
        df = _table_of(at, c["title"])
        seen: list[str] = []
        for s in c["series"]:
            seen.append(name := s["name"])
            if seen.count(name) > 1:  # a repeated name: "name (2)"
                name = f"{name} ({seen.count(name)})"
            if df.index.name == "series":  # one row per point
                value = c["y"]["title"] if c.get("equal") else "value"
                got = df.loc[df.index == name, value].to_numpy(dtype=float)
            elif c["chart"] == "histogram":  # every sample counted once, in the drawn bins
                got = df[f"{name} (count)"].to_numpy(dtype=float)
            else:
                got = df[name].to_numpy(dtype=float)
            np.testing.assert_allclose(got, _drawn(s), err_msg=f"{c['title']}: {name}")


def test_a_bar_table_labels_positions_and_keeps_error_bars():
    c = chart.bars(
        ["the", "<b>", "the"],
        [chart.series("weight", [0.5, -np.inf, 0.25], error=[1, 2, 3])],
        title="t",
        x_title="key",
        y_title="w",
    )
    df = chart_table(c)
    # a repeated label ("the" twice) keeps every bar, named by its position; "<b>" as typed
    assert list(df.index) == ["0 the", "1 <b>", "2 the"] and df.index.name == "key"
    assert np.isnan(df["weight"].iloc[1])  # a masked value: an empty cell
    assert df["weight, error bar (±)"].tolist() == [1, 2, 3]


def test_lines_of_one_x_get_a_row_per_x_and_a_mark_a_row_per_point():
    lines = [chart.series("q·k", [1.0, 4.0, 16.0]), chart.series("q·k", [1.0, 1.1, 0.9])]
    c = chart.lines([1, 4, 16], lines, title="t", x_title="d", y_title="v")
    df = chart_table(c)
    assert df.index.name == "d" and list(df.index) == [1, 4, 16]
    np.testing.assert_allclose(df["q·k (2)"], [1.0, 1.1, 0.9])  # a repeated name: " (2)"
    yours = chart.series("at your d", [4.2], style="diamond", x=[4], legend=False)
    df = chart_table(chart.lines([1, 4, 16], [*lines, yours], title="t", x_title="d", y_title="v"))
    assert list(df.columns) == ["d", "value"] and len(df) == 7
    assert df.index[-1] == "at your d" and df.iloc[-1].tolist() == [4, 4.2]


def test_histogram_counts_are_the_bins_the_chart_draws():
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=500), 3 * rng.normal(size=300)
    c = chart.histogram([("a", a, "red"), ("b", b, "blue")], title="t", x_title="score")
    edges = chart.bin_edges([a, b])
    np.testing.assert_array_equal(c["x"]["edges"], edges)
    df = chart_table(c)
    assert len(df) == chart.HISTOGRAM_BINS and df.index.name == "score (bin)"
    np.testing.assert_array_equal(df["a (count)"], np.histogram(a, bins=edges)[0])
    assert df["b (count)"].sum() == 300 and edges[-1] > max(a.max(), b.max())


def test_a_plane_table_names_each_point_by_its_label():
    track = chart.series("q", [0.0, 1.0], x=[1.0, 0.0], text=["0", "1"], style="points")
    c = chart.plane([track], title="t", x_title="q_0", y_title="q_1", point_title="position")
    df = chart_table(c)
    assert list(df.columns) == ["position", "q_0", "q_1"]
    assert df.iloc[1].tolist() == ["1", 0.0, 1.0]
