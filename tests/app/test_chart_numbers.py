"""Every Plotly chart (the labs', the explorer's, the decoder and kernel pages') has its
numbers in a table under it: what a screen reader or a keyboard reaches, since a Plotly
chart reads nothing out (the step pages' charts are canvas ones, read by the arrow keys)."""

import html

import numpy as np
import plotly.graph_objects as go
import pytest

from attn_ui.figures import plots
from tests.support.apptest import figures, load, open_tables, values

# The pages with a Plotly chart at their defaults (Cost and Train a head draw theirs after a
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


def _table_of(at, spec: dict):
    label = f"Numbers of {plots.chart_name(go.Figure(spec))} (table, CSV download)"
    (box,) = [e for e in at.expander if e.label == label]
    return box.dataframe[0].value


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.split("/")[1].removesuffix(".py"))
def test_every_plotly_chart_has_its_numbers_in_a_table(page):
    at = open_tables(load(page, timeout=120))  # its own run: opening the tables changes it
    specs = figures(at)
    assert specs, "the page draws a Plotly chart"
    for spec in specs:
        title = plots.chart_name(go.Figure(spec))
        df = _table_of(at, spec)
        seen: list[str] = []
        for k, trace in enumerate(spec["data"]):
            name = html.unescape(trace.get("name") or f"series {k}")
            seen.append(name)
            if seen.count(name) > 1:  # a repeated name: "name (2)"
                name = f"{name} ({seen.count(name)})"
            if trace["type"] == "histogram":  # every sample counted once, in the drawn bins
                assert df[f"{name} (count)"].sum() == len(values(trace["x"])), title
                continue
            drawn = values(trace["x" if trace.get("orientation") == "h" else "y"])
            if df.index.name == "series":  # one row per point
                got = df.loc[df.index == name, "value"].to_numpy(dtype=float)
            else:
                got = df[name].dropna().to_numpy(dtype=float)
            np.testing.assert_allclose(got, drawn.astype(float), err_msg=f"{title}: {name}")


def test_a_table_labels_positions_with_the_axis_labels_and_keeps_error_bars():
    fig = go.Figure()
    fig.add_bar(x=[0, 1, 2], y=[0.5, 0.25, 0.25], name="weight", error_y={"array": [1, 2, 3]})
    fig.add_scatter(x=[1], y=[0.25], name="yours")
    fig.update_xaxes(title="key", tickvals=[0, 1, 2], ticktext=["the", "&lt;b&gt;", "the"])
    df = plots.numbers_table(fig)
    # a repeated label ("the" twice) keeps every bar: one row per point, named by its label
    names = {"weight", "weight, error bar (±)", "yours"}
    assert len(df) == 3 + 3 + 1 and set(df.index) == names
    assert df.loc["weight", "key"].tolist() == ["the", "<b>", "the"]
    assert df.loc["weight, error bar (±)", "value"].tolist() == [1, 2, 3]


def test_a_table_has_one_row_per_x_and_a_column_per_line():
    fig = go.Figure()
    fig.add_scatter(x=[1, 4, 16], y=[1.0, 4.0, 16.0], name="q·k")
    fig.add_scatter(x=[1, 4, 16], y=[1.0, 1.1, 0.9], name="q·k / √d")
    fig.add_scatter(x=[4], y=[4.2], name="at your d")
    fig.update_xaxes(title="d")
    df = plots.numbers_table(fig)  # the mark is at one d only: one row per point
    assert list(df.columns) == ["d", "value"] and len(df) == 7
    assert df.index[-1] == "at your d" and df.iloc[-1].tolist() == [4, 4.2]
    fig.data = fig.data[:2]
    df = plots.numbers_table(fig)
    assert df.index.name == "d" and list(df.index) == [1, 4, 16]
    np.testing.assert_allclose(df["q·k / √d"], [1.0, 1.1, 0.9])


def test_histogram_counts_are_the_bins_the_chart_draws():
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=500), 3 * rng.normal(size=300)
    fig = plots.histogram([("a", a, "red"), ("b", b, "blue")], title="t", x_title="score")
    edges = plots.bin_edges([a, b])
    assert fig.data[0].xbins.start == edges[0] and fig.data[0].xbins.size == edges[1] - edges[0]
    df = plots.numbers_table(fig)
    assert len(df) == plots.HISTOGRAM_BINS
    np.testing.assert_array_equal(df["a (count)"], np.histogram(a, bins=edges)[0])
    assert df["b (count)"].sum() == 300 and edges[-1] > max(a.max(), b.max())
