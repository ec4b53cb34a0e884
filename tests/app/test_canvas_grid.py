"""The overview's canvas heatmaps: what the browser is sent equals the engine's numbers.

The drawing itself is checked in a browser (tests/e2e/test_overview_canvas.py); here, the data the
component receives, decoded as its JavaScript decodes it.
"""

import numpy as np
import pytest
from plotly.colors import get_colorscale

from attn_ui import canvas_grid
from attn_ui.compute import lesson_run
from attn_ui.controls import LessonSettings
from tests.support.apptest import canvas_matrices, canvas_sections, load, rerun

PAGE = "pages/00_Overview.py"


def test_every_matrix_sent_is_the_engines():
    at = load(PAGE)
    at.text_area(key="lesson_w_sentence").input("the cat saw the cat").run()
    at.session_state["lesson_w_n_heads"] = 3
    rerun(at)
    run = lesson_run(LessonSettings(sentence="the cat saw the cat", n_heads=3), multi=True)
    t, got = run.trace, canvas_matrices(at)
    want = {
        "X": run.x,
        "Q = X W_Q": t.q,
        "K = X W_K": t.k,
        "V = X W_V": t.v,
        "S = Q Kᵀ": t.scores,
        f"S × {t.scale:.3g} (+ mask)": t.masked,
        "A = softmax by row": t.weights,
        "Z = A V": t.output,
        "concat(heads) W_O": run.multi.output,
    }
    want |= {f"head {h}: A": head.weights for h, head in enumerate(run.multi.heads)}
    assert got.keys() == want.keys()
    for name, m in want.items():
        np.testing.assert_array_equal(got[name], m, err_msg=name)  # float64, bit for bit
    rows = [it["rows"] for sec in canvas_sections(at) for it in sec["items"] if "z" in it]
    assert all(r == ["the", "cat", "saw", "the", "cat"] for r in rows)  # repeats keep a row


def test_a_mask_reaches_the_browser_as_minus_infinity():
    at = load(PAGE)
    at.selectbox(key="lesson_w_mask").select("causal")
    rerun(at)
    masked = next(v for k, v in canvas_matrices(at).items() if k.startswith("S × "))
    assert np.all(np.isneginf(masked[np.triu_indices_from(masked, 1)]))
    assert np.all(np.isfinite(masked[np.tril_indices_from(masked)]))


def test_scales_match_the_plotly_figures():
    signed = canvas_grid.figure(np.array([[1.0, -np.inf], [-2.5, 0.25]]), "ab", "cd", title="S")
    assert (signed["zmin"], signed["zmax"]) == (-2.5, 2.5)  # centred at 0, masked ignored
    weights = canvas_grid.figure(np.array([[0.2, 0.8]]), "a", "bc", title="A", kind="weights")
    assert (weights["zmin"], weights["zmax"]) == (0.0, 1.0)
    for fig, name in ((signed, "RdBu_r"), (weights, "Blues")):
        plotly = get_colorscale(name)
        assert [p for p, _ in fig["scale"]] == [p for p, _ in plotly]
        assert [f"rgb({r}, {g}, {b})" for _, (r, g, b) in fig["scale"]] == [
            c.replace(" ", "").replace(",", ", ") for _, c in plotly
        ]
    zeros = canvas_grid.figure(np.zeros((2, 2)), "ab", "cd", title="0")
    assert (zeros["zmin"], zeros["zmax"]) == (-1.0, 1.0)  # no magnitude: a unit scale


def test_figure_rules_numbers_digits_and_feature_axes():
    small = canvas_grid.figure(np.zeros((24, 24)), "x" * 24, "y" * 24, title="S")
    large = canvas_grid.figure(np.zeros((25, 24)), "x" * 25, "y" * 24, title="S")
    assert small["numbers"] and not large["numbers"]
    assert small["decimals"] == 1  # more than 8 columns: one decimal
    off = canvas_grid.figure(np.zeros((2, 2)), "ab", "cd", title="S", show_numbers=False)
    assert not off["numbers"] and off["decimals"] == 2
    feats = canvas_grid.figure(np.zeros((2, 3)), "ab", ["f0", "f1", "f2"], title="X")
    assert feats["prefix"] == "f" and feats["title"] == "X   (2 × 3)"
    tokens = canvas_grid.figure(np.zeros((2, 2)), "ab", ["f0", "cat"], title="S")
    assert tokens["prefix"] is None


def test_labels_go_to_the_browser_as_text():
    """Canvas text is never markup: labels travel unescaped (escaping would show "&lt;")."""
    fig = canvas_grid.figure(np.zeros((1, 1)), ["<b>x</b>"], ["<script>"], title="<i>S</i>")
    assert fig["rows"] == ["<b>x</b>"] and fig["cols"] == ["<script>"]
    js = canvas_grid._JS
    assert "innerHTML" not in js and "textContent" in js


def test_a_section_needs_columns():
    with pytest.raises(ValueError, match="at least one column"):
        canvas_grid.section([], widths=[])
