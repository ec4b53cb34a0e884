"""Page 4, scaling: scaled and unscaled scores and weights, and the simulation, are the engine's."""

import numpy as np
import pytest

import attn_core
from attn_core.by_hand.exercises import DIFFICULTIES, SPECS
from attn_core.labs import scaling
from attn_ui.by_hand.inputs import EXAMPLE
from attn_ui.figures.scaling_charts import D_KS
from tests.support.apptest import (
    chart,
    frame,
    load,
    rerun,
    table,
    values,
)
from tests.support.apptest import (
    lesson as lesson_at,
)

PAGE = "pages/04_Scaling.py"

# These tests read the seeded random weights (d_model, d_k, seed): the lessons open on a real
# head, and a link with weights=random gives the random ones (tests/app/test_default_weights.py).
RANDOM = {"weights": "random"}


def lesson(**changes):
    return lesson_at(**(RANDOM | changes))


def test_scores_and_weights_with_and_without_scaling_equal_the_engine(loaded):
    at = load(PAGE, query=RANDOM)
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
    at = load(PAGE, query=RANDOM)
    fig = chart(at, "Variance of the scores")
    unscaled, scaled = (values(d["y"]) for d in fig["data"][:2])
    np.testing.assert_allclose(unscaled / np.array(D_KS), 1.0, rtol=0.2)
    np.testing.assert_allclose(scaled, 1.0, rtol=0.2)
    peak = chart(at, "Largest weight")["data"]
    assert values(peak[0]["y"])[-1] > 0.9 > values(peak[1]["y"])[-1]


def test_your_d_k_is_marked_and_moves():
    at = load(PAGE, query=RANDOM)
    assert chart(at, "Variance")["layout"]["shapes"][0]["x0"] == 4
    at.select_slider(key="lesson_w_d_k").set_value(16)
    rerun(at)
    assert chart(at, "Variance")["layout"]["shapes"][0]["x0"] == 16
    assert "your d_k = 16" in chart(at, "Entropy")["layout"]["annotations"][0]["text"]


def test_entropy_curve_uses_the_sentence_length(loaded):
    at = load(PAGE, query=RANDOM)
    t = len(lesson().tokens)
    assert f"ln {t}" in chart(at, "Entropy")["layout"]["title"]["text"]


def test_temperature_reaches_both_softmaxes():
    at = load(PAGE, query=RANDOM)
    at.slider(key="lesson_w_temperature").set_value(2.0)
    rerun(at)
    t = lesson(temperature=2.0).trace
    np.testing.assert_allclose(table(at, "softmax(S / √d_k)"), t.weights, atol=1e-12)
    np.testing.assert_allclose(table(at, "softmax(S) by row"), attn_core.softmax(t.scores / 2))


def test_on_paper_names_the_d_k_the_sheets_use(loaded):
    at = load(PAGE, query=RANDOM)
    (line,) = [c.value for c in at.caption if "floor(x / 2)" in c.value]
    assert f"d_k = {len(EXAMPLE['w_q'])}" in line  # the By hand page's classic sheet
    for level in DIFFICULTIES:
        lo, hi = SPECS[level].d_k
        assert (f"{lo} ({level})" if lo == hi else f"{lo} to {hi} ({level})") in line
