"""Page 4, scaling: scaled and unscaled scores and weights, and the simulation, are the engine's."""

import numpy as np
import pytest

import attn_core
from attn_core.by_hand.exercises import DIFFICULTIES, SPECS
from attn_core.labs import scaling
from attn_ui.by_hand.inputs import EXAMPLE
from attn_ui.figures.scaling_charts import D_KS, N_SCORES
from tests.support.apptest import (
    RANDOM,
    canvas_chart,
    chart_values,
    frame,
    load,
    rerun,
    table,
)
from tests.support.apptest import (
    lesson as lesson_at,
)

PAGE = "pages/04_Scaling.py"

# These tests read the seeded random weights (d_model, d_k, seed): the lessons open on a real
# head, and a link with weights=random gives the random ones (tests/app/test_default_weights.py).


def lesson(**changes):
    return lesson_at(**(RANDOM | changes))


def test_scores_and_weights_with_and_without_scaling_equal_the_engine(loaded):
    at = loaded(PAGE, RANDOM)
    t = lesson().trace
    np.testing.assert_allclose(table(at, "S = Q Kᵀ"), t.scores, atol=1e-12)
    np.testing.assert_allclose(table(at, "S / √d_k"), t.scores / 2, atol=1e-12)  # d_k = 4
    np.testing.assert_allclose(table(at, "softmax(S) by row"), attn_core.softmax(t.scores))
    np.testing.assert_allclose(table(at, "softmax(S / √d_k)"), t.weights, atol=1e-12)
    summary = frame(at, "unscaled")
    u = scaling.softmax_summary(scaling.without_scaling(t))
    s = scaling.softmax_summary(t)
    np.testing.assert_allclose(summary["unscaled"], [u.spread, u.max_weight, u.entropy, u.grad])
    np.testing.assert_allclose(summary["÷ √d_k"], [s.spread, s.max_weight, s.entropy, s.grad])
    assert r"d_k = 4" in at.latex[-1].value


def test_large_d_k_saturates_only_the_unscaled_softmax():
    at = load(PAGE, query=RANDOM)
    at.select_slider(key="lesson_w_d_k").set_value(64)
    rerun(at)
    summary = frame(at, "unscaled")
    spread, largest = summary.iloc[0], summary.iloc[1]
    assert spread["unscaled"] == pytest.approx(8 * spread["÷ √d_k"])
    assert largest["unscaled"] > largest["÷ √d_k"]
    unscaled = table(at, "softmax(S) by row")
    np.testing.assert_allclose(unscaled.sum(axis=1), 1.0)
    assert unscaled.max(axis=1).mean() == pytest.approx(largest["unscaled"])


def test_curves_show_variance_d_k_unscaled_and_1_scaled(loaded):
    at = loaded(PAGE, RANDOM)
    fig = canvas_chart(at, "Variance of the scores")
    assert fig["x"]["values"] == list(D_KS) and fig["x"]["log"] and fig["y"]["log"]
    unscaled, scaled = chart_values(fig, "q·k"), chart_values(fig, "q·k / √d_k")
    np.testing.assert_allclose(unscaled / np.array(D_KS), 1.0, rtol=0.2)
    np.testing.assert_allclose(scaled, 1.0, rtol=0.2)
    np.testing.assert_allclose(chart_values(fig, "d_k"), D_KS)  # the dashed guide
    peak = canvas_chart(at, "Largest weight")
    assert chart_values(peak, "q·k")[-1] > 0.9 > chart_values(peak, "q·k / √d_k")[-1]


def test_curves_are_the_simulation_and_their_numbers_are_a_table(loaded):
    """Each curve is the seeded simulation's column, and the table under the curves holds
    the same numbers, one row per d_k (a screen reader's way to the curves)."""
    at = loaded(PAGE, RANDOM)
    sweep = scaling.scale_sweep(D_KS, len(lesson().tokens), n_scores=N_SCORES)
    for title, field in (("Entropy", "entropy"), ("gradient", "grad_norm")):
        fig = canvas_chart(at, title)
        np.testing.assert_allclose(chart_values(fig, "q·k"), sweep.column(field, scaled=False))
        np.testing.assert_allclose(
            chart_values(fig, "q·k / √d_k"), sweep.column(field, scaled=True)
        )
    numbers = table(at, "these curves")
    assert numbers.shape == (len(D_KS), 8)
    np.testing.assert_allclose(numbers[:, 0], sweep.column("variance", scaled=False))
    np.testing.assert_allclose(numbers[:, 7], sweep.column("grad_norm", scaled=True))


def test_your_d_k_is_marked_and_moves():
    at = load(PAGE, query=RANDOM)
    assert canvas_chart(at, "Variance")["mark"]["x"] == 4
    at.select_slider(key="lesson_w_d_k").set_value(16)
    rerun(at)
    assert canvas_chart(at, "Variance")["mark"]["x"] == 16
    assert canvas_chart(at, "Entropy")["mark"]["text"] == "your d_k = 16"


def test_entropy_curve_uses_the_sentence_length(loaded):
    at = loaded(PAGE, RANDOM)
    t = len(lesson().tokens)
    assert f"ln {t}" in canvas_chart(at, "Entropy")["title"]


def test_temperature_reaches_both_softmaxes():
    at = load(PAGE, query=RANDOM)
    at.slider(key="lesson_w_temperature").set_value(2.0)
    rerun(at)
    t = lesson(temperature=2.0).trace
    np.testing.assert_allclose(table(at, "softmax(S / √d_k)"), t.weights, atol=1e-12)
    np.testing.assert_allclose(table(at, "softmax(S) by row"), attn_core.softmax(t.scores / 2))


def test_on_paper_names_the_d_k_the_sheets_use(loaded):
    at = loaded(PAGE, RANDOM)
    (line,) = [c.value for c in at.caption if "floor(x / 2)" in c.value]
    assert f"d_k = {len(EXAMPLE['w_q'])}" in line  # the By hand page's classic sheet
    for level in DIFFICULTIES:
        lo, hi = SPECS[level].d_k
        assert (f"{lo} ({level})" if lo == hi else f"{lo} to {hi} ({level})") in line
