"""The heatmap fast path: specs built as plain dicts must still be valid Plotly, cell for cell.

Pages send `heatmap_spec` dicts without Plotly's validation (attn_ui.heatmap.chart), so
these tests do that validation instead, on the specs and on every figure the step pages draw.
"""

import base64
import json

import numpy as np
import plotly.graph_objects as go
import pytest

from attn_ui.heatmap import MAX_CELLS_WITH_NUMBERS, heatmap_spec
from tests.support.apptest import figures

STEP_PAGES = [  # the overview draws on canvases instead: tests/app/test_canvas_grid.py
    "pages/01_Tokens.py",
    "pages/02_Projection.py",
    "pages/03_Scores.py",
    "pages/04_Scaling.py",
    "pages/05_Softmax.py",
    "pages/06_Weighted_sum.py",
    "pages/07_Masking.py",
    "pages/08_Multi-head.py",
]


def decoded(v: dict) -> np.ndarray:
    """A typed array as Plotly.js reads it: base64 bytes of `dtype`, in `shape`."""
    shape = [int(n) for n in v["shape"].split(",")]
    return np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"]).reshape(shape)


def validated(spec: dict) -> dict:
    """Plotly's own validation (raises on any unknown or ill-typed property), back as a dict."""
    return go.Figure(spec).to_dict()


CASES = {
    "signed with a masked cell": (np.array([[1.0, -np.inf], [-2.5, 0.25]]), {}),
    "weights": (np.array([[0.3, 0.7], [1.0, 0.0]]), {"kind": "weights"}),
    "one cell": (np.array([[4.0]]), {"title": "S"}),
    "extra hover": (np.ones((2, 3)), {"hover": np.array([["a", "b", "c"], ["d", "e", "f"]])}),
    "no numbers": (np.zeros((3, 3)), {"show_numbers": False}),
    "all masked": (np.full((2, 2), -np.inf), {}),
    "wide model features": (np.random.default_rng(0).normal(size=(5, 384)), {}),
}


@pytest.mark.parametrize("case", CASES)
def test_every_kind_of_spec_is_valid_plotly_and_keeps_every_setting(case):
    m, kwargs = CASES[case]
    rows = [f"r{i}" for i in range(m.shape[0])]
    cols = [f"c{j}" for j in range(m.shape[1])]
    spec = heatmap_spec(m, rows, cols, **kwargs)
    checked = validated(spec)
    trace, layout = checked["data"][0], checked["layout"]
    assert set(spec["data"][0]) <= set(trace)  # nothing we set was dropped
    # colours as Python's Plotly means them: Plotly.js reads names like "Blues" differently
    assert spec["data"][0]["colorscale"] == [list(c) for c in trace["colorscale"]]
    assert isinstance(spec["data"][0]["colorscale"], list)
    np.testing.assert_array_equal(decoded(spec["data"][0]["z"]), np.where(np.isinf(m), np.nan, m))
    assert layout["yaxis"]["autorange"] == "reversed"  # row 0 on top
    trace = spec["data"][0]
    per_cell = decoded(trace["customdata"]) if "customdata" in trace else trace["hovertext"]
    assert per_cell.shape[:2] == m.shape  # every cell has its hover


def test_masked_cells_are_empty_and_labelled_minus_infinity():
    spec = heatmap_spec(np.array([[1.0, -np.inf], [-0.001, 0.5]]), ["q0", "q1"], ["k0", "k1"])
    trace = spec["data"][0]
    z = decoded(trace["z"])
    assert np.isnan(z[0, 1]) and z[0, 0] == 1.0 and z[1, 0] == -0.001
    assert trace["text"].tolist() == [["1.0", "-∞"], ["0.0", "0.5"]]  # and never "-0.0"
    assert "value: %{text}" in trace["hovertemplate"] and trace["texttemplate"] == "%{text}"
    assert (trace["zmin"], trace["zmax"], trace["zmid"]) == (-1.0, 1.0, 0.0)  # from finite cells


def test_hover_names_each_cell_by_position_and_token():
    tokens = ["the", "<b>x</b>", "the"]
    spec = heatmap_spec(np.eye(3), tokens, tokens, kind="weights", decimals=3)
    layout, trace = spec["layout"], spec["data"][0]
    assert layout["yaxis"]["tickvals"] == [0, 1, 2]  # a row per token, repeated ones too
    assert layout["yaxis"]["ticktext"] == ["the", "&lt;b&gt;x&lt;/b&gt;", "the"]
    assert decoded(trace["customdata"])[2, 0].tolist() == [2, 0]  # query 2, key 0
    # Plotly fills %{y} / %{x} with the tick label of the cell's row / column.
    assert trace["hovertemplate"] == (
        "query %{customdata[0]}: %{y}<br>key %{customdata[1]}: %{x}"
        "<br>value: %{z:.3f}<extra></extra>"
    )
    assert "text" not in trace and trace["texttemplate"] == "%{z:.3f}"


def test_extra_hover_and_long_axes_write_every_cell_out():
    extra = np.array([["<br>a"], ["<br>b"]], dtype=object)
    trace = heatmap_spec(np.array([[1.0], [2.0]]), ["x", "<i>y</i>"], ["k"], hover=extra)["data"][0]
    want = "query 1: &lt;i&gt;y&lt;/i&gt;<br>key 0: k<br>value: 2.0<br>b"
    assert trace["hovertext"][1, 0] == want
    wide = heatmap_spec(np.zeros((2, 384)), ["a", "b"], [f"f{j}" for j in range(384)])["data"][0]
    assert wide["hovertext"][1, 300] == "query 1: b<br>key 300: f300<br>value: 0.0"


def test_numbers_on_cells_only_when_the_grid_is_small_enough():
    small = heatmap_spec(np.zeros((24, 24)), list("x" * 24), list("y" * 24))["data"][0]
    large = heatmap_spec(np.zeros((25, 24)), list("x" * 25), list("y" * 24))["data"][0]
    assert MAX_CELLS_WITH_NUMBERS == 24 * 24
    assert small["texttemplate"] == "%{z:.1f}" and "texttemplate" not in large
    cols = [f"k{j}" for j in range(5)]
    narrow4 = heatmap_spec(np.zeros((3, 4)), list("abc"), cols[:4], narrow=True)["data"][0]
    narrow5 = heatmap_spec(np.zeros((3, 5)), list("abc"), cols, narrow=True)["data"][0]
    assert "texttemplate" in narrow4 and "texttemplate" not in narrow5


@pytest.mark.parametrize("page", STEP_PAGES)
def test_every_figure_a_step_page_draws_is_valid_plotly(page, loaded):
    at = loaded(page)
    specs = figures(at)
    assert specs
    for spec in specs:
        validated(json.loads(json.dumps(spec)))


def test_numbered_features_get_a_few_level_ticks_and_tokens_get_every_one():
    feats = [f"f{j}" for j in range(32)]
    spec = heatmap_spec(np.zeros((3, 32)), ["a", "b", "a"], feats, col_title="feature")
    x, trace = spec["layout"]["xaxis"], spec["data"][0]
    assert (x["tickmode"], x["tickprefix"], x["tickangle"]) == ("auto", "f", 0)
    assert "feature %{customdata[1]}: f%{customdata[1]}<br>" in trace["hovertemplate"]
    tokens = [f"w{j}" for j in range(7)] + ["f7"]  # not all numbered: tokens
    x = heatmap_spec(np.zeros((2, 8)), ["a", "b"], tokens)["layout"]["xaxis"]
    assert x["ticktext"] == tokens and x["tickangle"] == -90
    few = heatmap_spec(np.zeros((2, 4)), ["a", "b"], ["k0", "k1", "k2", "k3"])["layout"]["xaxis"]
    assert few["ticktext"] == ["k0", "k1", "k2", "k3"] and few["tickangle"] == 0
    keys = [f"k{j}" for j in range(8)]  # up to 8: every one, as in the why-scale lab
    eight = heatmap_spec(np.zeros((2, 8)), ["a", "b"], keys)["layout"]["xaxis"]
    assert eight["ticktext"] == keys and eight["tickangle"] == -90


def test_margins_make_room_for_the_longest_label_before_plotly_measures():
    def left(rows: list[str]) -> int:
        return heatmap_spec(np.zeros((2, 12)), rows, list("abcdefghijkl"))["layout"]["margin"]["l"]

    px = {n: round(7.5 * n) for n in (4, 8, 20, 40)}  # 7.5 px a character
    base = left(["abcd", "b"])
    assert left(["abcd", "internationalization"]) - base == px[20] - px[4]
    assert left(["abcd", "<b>x</b>"]) - base == px[8] - px[4]  # as typed: 8 characters
    assert left(["abcd", "x" * 500]) - base == px[40] - px[4]  # capped at 40 characters
    assert left(["a", "b"]) == left(["ab", "c"]) > 22  # one or two characters: a floor
    short = heatmap_spec(np.zeros((2, 12)), ["a", "b"], [f"w{j}" for j in range(12)])
    turned = heatmap_spec(np.zeros((2, 12)), ["a", "b"], ["a", "internationalization"] * 6)
    assert turned["layout"]["margin"]["b"] > short["layout"]["margin"]["b"]  # upright labels
    long_key = heatmap_spec(np.zeros((2, 12)), ["a", "b"], ["a", "x" * 500] * 6)["layout"]
    for lay in (short["layout"], turned["layout"], long_key):  # the labels never eat the cells
        assert lay["height"] - lay["margin"]["t"] - lay["margin"]["b"] >= 2 * 24
    for spec in (short, turned):
        assert spec["layout"]["xaxis"]["ticklabeloverflow"] == "allow"
        assert spec["layout"]["yaxis"]["ticklabeloverflow"] == "allow"


def test_a_narrow_matrix_has_its_colour_bar_below_with_its_range():
    m = np.array([[-2.0, 1.0, 0.5], [0.0, 1.5, -0.25]])
    narrow = heatmap_spec(m, ["a", "b"], ["k0", "k1", "k2"])
    bar, margin = narrow["data"][0]["colorbar"], narrow["layout"]["margin"]
    assert bar["orientation"] == "h" and bar["tickvals"] == [-2.0, 0.0, 2.0]
    assert bar["ticktext"] == ["-2", "0", "2"] and margin["r"] < 20
    weights = heatmap_spec(np.full((2, 2), 0.5), ["a", "b"], ["a", "b"], kind="weights")
    assert weights["data"][0]["colorbar"]["ticktext"] == ["0", "0.5", "1"]
    wide = heatmap_spec(np.zeros((2, 9)), ["a", "b"], list("abcdefghi"))
    assert "orientation" not in wide["data"][0]["colorbar"] and wide["layout"]["margin"]["r"] > 60
    in_a_column = heatmap_spec(np.zeros((2, 9)), ["a", "b"], list("abcdefghi"), narrow=True)
    assert in_a_column["data"][0]["colorbar"]["orientation"] == "h"
    assert in_a_column["layout"]["margin"]["r"] < 20
