"""The heatmap rules (attn_ui.figures.heatmap) and what every page sends the browser's canvas.

One renderer draws every heatmap: these tests read what it is sent, decoded as its
JavaScript decodes it, and compare it with the numbers the page shows in its tables (which
the page tests compare with the engine). The drawing itself is checked in a browser
(tests/e2e/test_heatmaps_browser.py).
"""

import base64

import numpy as np
import pytest
from plotly.colors import get_colorscale

from attn_ui.figures import canvas_grid, heatmap
from attn_ui.figures.heatmap import MAX_CELLS_WITH_NUMBERS, figure
from tests.support.apptest import canvas_charts, heatmaps, load, open_tables

# Every page with a heatmap, and the settings that reach its rarer ones (a mask, heads).
PAGES = [
    "pages/00_Overview.py",
    "pages/01_Tokens.py",
    "pages/02_Projection.py",
    "pages/03_Scores.py",
    "pages/04_Scaling.py",
    "pages/05_Softmax.py",
    "pages/06_Weighted_sum.py",
    "pages/07_Masking.py",
    "pages/07_Masking.py?mask=causal",
    "pages/08_Multi-head.py",
    "pages/30_Model_explorer.py",
    "pages/40_Why_scale.py",
    "pages/42_Similarity.py",
    "pages/43_Additive.py",
    "pages/44_Cross_attention.py",
    "pages/45_Local_attention.py",
    "pages/47_Transformer_block.py",
]


def chart_tables(at) -> set[str]:
    """The names of the page's tables of a chart's numbers, not of a heatmap's: each chart's
    (tests/app/test_chart_numbers.py) and Scaling's curves' (tests/app/test_scaling.py)."""
    return {c["title"] for c in canvas_charts(at)} | {"these curves"}


def tables_by_name(at) -> dict[str, np.ndarray]:
    """Each "Numbers of <name> (...)" table of a heatmap, by <name> (the overview's one box:
    each choice)."""
    open_tables(at)
    charts, out = chart_tables(at), {}
    for exp in at.expander:
        if exp.label.startswith("Numbers of") and exp.dataframe and not exp.selectbox:
            name = exp.label.removeprefix("Numbers of ").split(" (table, CSV")[0]
            if name not in charts:
                out[name] = exp.dataframe[0].value.to_numpy(dtype=float)
    return out


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.split("/")[1].replace(".py", ""))
def test_every_heatmap_a_page_draws_is_the_table_it_shows(page, loaded):
    """Each table of a matrix has its heatmap, holding the same numbers (masked cells as
    -inf); every heatmap has its shape in its title, a label per row and column, and one of
    the colour scales. (The overview's one box of tables: tests/app/test_canvas_grid.py.)"""
    page, _, query = page.partition("?")
    if query:  # a link's settings: a page load of its own
        at = load(page, timeout=120, query=dict(p.split("=") for p in query.split("&")))
    else:  # the page at its defaults, shared with the other tests that only read it
        at = loaded(page)
    figs = heatmaps(at)
    assert figs
    drawn = {}
    for f in figs:
        name, shape = f["title"].rsplit("   (", 1)
        r, c = f["shape"]
        assert shape == f"{r} × {c})" and len(f["rows"]) == r and len(f["cols"]) == c
        assert f["scale"] in heatmap.SCALES.values()
        drawn[name] = f["m"]
    tables = tables_by_name(at)
    assert tables.keys() <= drawn.keys()
    assert not query or any(np.isneginf(m).any() for m in drawn.values())
    for name, want in tables.items():
        m = drawn[name]
        np.testing.assert_array_equal(np.where(np.isneginf(m), np.nan, m), want, err_msg=name)


def test_scales_are_plotlys_red_blue_and_blues():
    for kind, name in (("signed", "RdBu_r"), ("weights", "Blues")):
        plotly = get_colorscale(name)
        scale = heatmap.SCALES[kind]
        assert [p for p, _ in scale] == [p for p, _ in plotly]
        assert [f"rgb({r}, {g}, {b})" for _, (r, g, b) in scale] == [
            c.replace(" ", "").replace(",", ", ") for _, c in plotly
        ]
    stretched = heatmap.SCALES["weights_stretched"]
    assert stretched[0] == [0.0, [247, 251, 255]] and stretched[-1] == [1.0, [8, 48, 107]]
    assert stretched[5][0] == pytest.approx(0.25)  # the middle colour at a weight of 1/4


def test_signed_values_centre_at_zero_and_weights_run_from_zero_to_one():
    signed = figure(np.array([[1.0, -np.inf], [-2.5, 0.25]]), "ab", "cd", title="S")
    assert (signed["zmin"], signed["zmax"]) == (-2.5, 2.5)  # as wide as |-2.5|, masked ignored
    weights = figure(np.array([[0.2, 0.3]]), "a", "bc", title="A", kind="weights")
    assert (weights["zmin"], weights["zmax"]) == (0.0, 1.0)
    assert figure(np.zeros((2, 2)), "ab", "cd", title="0")["zmax"] == 1.0  # no magnitude
    fixed = figure(np.array([[0.01, -0.02]]), "a", "bc", title="J", limit=0.25)
    assert (fixed["zmin"], fixed["zmax"]) == (-0.25, 0.25)  # small values look small
    assert figure(np.full((1, 1), -np.inf), "a", "b", title="M")["zmax"] == 1.0  # all masked


def test_masked_cells_travel_as_minus_infinity():
    m = np.array([[1.0, -np.inf], [-0.001, 0.5]])
    f = figure(m, ["q0", "q1"], ["k0", "k1"], title="S")
    np.testing.assert_array_equal(heatmap.decode(f["z"], f["shape"]), m)  # bit for bit


def test_a_float32_matrix_travels_in_half_the_bytes_with_every_value_as_it_is():
    """A pretrained model's matrices are float32: sent as 4 bytes a value, they read back
    as exactly the values computed; a float64 matrix keeps its 8 bytes and every bit."""
    m32 = np.array([[0.1, -np.inf, 3.0], [-2.25, 1e-7, 0.5]], dtype=np.float32)
    f32 = figure(m32, ["q0", "q1"], ["k0", "k1", "k2"], title="X")
    m64 = m32.astype(np.float64) + 1e-12  # below float32's precision: only float64 keeps it
    f64 = figure(m64, ["q0", "q1"], ["k0", "k1", "k2"], title="X")
    assert len(base64.b64decode(f32["z"])) == 4 * 6 and len(base64.b64decode(f64["z"])) == 8 * 6
    np.testing.assert_array_equal(heatmap.decode(f32["z"], f32["shape"]), m32.astype(np.float64))
    np.testing.assert_array_equal(heatmap.decode(f64["z"], f64["shape"]), m64)


def test_numbers_on_cells_only_when_the_grid_is_small_enough():
    small = figure(np.zeros((24, 24)), "x" * 24, "y" * 24, title="S")
    large = figure(np.zeros((25, 24)), "x" * 25, "y" * 24, title="S")
    assert MAX_CELLS_WITH_NUMBERS == 24 * 24 and small["numbers"] and not large["numbers"]
    assert small["decimals"] == 1  # more than 8 columns: one decimal
    few = figure(np.zeros((2, 8)), "ab", "abcdefgh", title="S")
    assert few["decimals"] == 2
    off = figure(np.zeros((2, 2)), "ab", "cd", title="S", show_numbers=False)
    assert not off["numbers"]
    cols = [f"k{j}" for j in range(5)]
    assert figure(np.zeros((3, 4)), "abc", cols[:4], title="S", narrow=True)["numbers"]
    assert not figure(np.zeros((3, 5)), "abc", cols, title="S", narrow=True)["numbers"]


def test_labels_go_as_typed_and_numbered_features_are_marked():
    f = figure(np.zeros((2, 3)), ["<b>x</b>", "the"], ["f0", "f1", "f2"], title="<i>X</i>")
    assert f["rows"] == ["<b>x</b>", "the"]  # canvas text is never markup: no escaping
    assert f["title"] == "<i>X</i>   (2 × 3)"
    assert f["prefix"] == "f" and f["rowPrefix"] is None
    assert figure(np.zeros((2, 2)), "ab", ["f0", "cat"], title="S")["prefix"] is None
    assert "innerHTML" not in canvas_grid._JS and "textContent" in canvas_grid._JS


def test_extra_hover_and_band_travel_with_the_figure():
    hover = np.array([["q0·k0 = 1", "q0·k1 = 2"]], dtype=object)
    f = figure(np.ones((1, 2)), ["a"], ["b", "c"], title="S", hover=hover)
    assert f["hover"] == [["q0·k0 = 1", "q0·k1 = 2"]]
    assert "hover" not in figure(np.ones((1, 1)), "a", "b", title="S")
    band = figure(np.eye(3), "abc", "abc", title="A", kind="weights", band=1)["band"]
    assert band == {"width": 1, "colour": heatmap.BAND}


def test_small_figures_of_a_grid():
    f = heatmap.small(np.eye(2), "ab", "ab", title="layer 0, head 1", framed=True)
    assert f["small"] and f["frame"] == heatmap.FRAME and f["decimals"] == 3
    assert not f["numbers"] and f["title"] == "layer 0, head 1   (2 × 2)"
    bar = heatmap.colour_bar("weights_stretched", "weight")
    grid = canvas_grid.small_multiples(
        [f] * 4, row_labels=["L0", "L1"], col_labels=["H0", "H1"], bar=bar, name="heads"
    )
    assert grid["labels"] == {"rows": ["L0", "L1"], "cols": ["H0", "H1"]}
    assert grid["widths"] == [1.0, 1.0] and (bar["zmin"], bar["zmax"]) == (0.0, 1.0)
    with pytest.raises(ValueError, match="one figure per row and column"):
        canvas_grid.small_multiples([f] * 3, row_labels="ab", col_labels="ab", bar=bar, name="x")
    with pytest.raises(ValueError, match="at least one column"):
        canvas_grid.section([], widths=[])


def test_weights_keep_two_decimals_so_a_row_reads_as_summing_to_one():
    uniform = np.full((12, 12), 1 / 12)  # 0.08 each: at 1 decimal twelve 0.1s read as 1.2
    f = figure(uniform, "x" * 12, "y" * 12, title="A", kind="weights")
    assert f["decimals"] == 2 and f["unit"]  # cells write ".08": two decimals that fit
    signed = figure(uniform, "x" * 12, "y" * 12, title="S")
    assert signed["decimals"] == 1 and "unit" not in signed  # signed: narrower


def test_a_mask_is_drawn_as_two_values_with_a_legend():
    m = np.array([[0.0, -np.inf], [0.0, 0.0]])
    f = figure(m, "ab", "cd", title="M", kind="mask")
    assert f["decimals"] == 0  # "0", never "0.00"
    assert [item["text"] for item in f["legend"]] == ["0: may attend", "−∞: masked"]
    assert f["scale"][0][1] == f["scale"][-1][1] == heatmap.MAY_ATTEND  # one colour for 0
    np.testing.assert_array_equal(heatmap.decode(f["z"], f["shape"]), m)
    assert "legend" not in figure(m, "ab", "cd", title="S")  # other figures: a colour bar
