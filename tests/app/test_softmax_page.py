"""The softmax page: rows become distributions, the steps of one row, and the temperature."""

import numpy as np

from attn_core.labs import softmax_facts
from tests.support.apptest import (
    RANDOM,
    canvas_chart,
    canvas_charts,
    chart_values,
    frame,
    heatmaps,
    load,
    rerun,
    shown,
    table,
    type_sentence,
)
from tests.support.apptest import (
    lesson as lesson_at,
)

PAGE = "pages/05_Softmax.py"

# These tests read the seeded random weights (d_model, d_k, seed): the lessons open on a real
# head, and a link with weights=random gives the random ones (tests/app/test_default_weights.py).


def lesson(**changes):
    return lesson_at(**(RANDOM | changes))


def expected(**changes):
    return lesson(**changes).trace


def steps_table(at):
    return frame(at, "exp(s/τ − max)")


def test_weights_and_row_sums_equal_the_engine(loaded):
    at = loaded(PAGE, RANDOM)
    t = expected()
    np.testing.assert_allclose(table(at, "A = softmax by row"), t.weights, atol=1e-12)
    np.testing.assert_allclose(table(at, "S / √d_k + M"), t.masked, atol=1e-12)
    sums = frame(at, "row sum of A").to_numpy(dtype=float)[:, 0]
    np.testing.assert_allclose(sums, 1.0, atol=1e-4)
    assert len(sums) == len(t.weights)


def test_one_row_up_close_follows_the_picked_query():
    at = load(PAGE, query=RANDOM)
    t = expected()
    np.testing.assert_allclose(steps_table(at)["weight"], t.weights[1].round(4))
    at.selectbox(key="sm_query").select(4)
    rerun(at)
    steps = steps_table(at)
    np.testing.assert_allclose(steps["weight"], t.weights[4].round(4))
    np.testing.assert_allclose(steps["score s"], t.masked[4].round(4))
    assert steps["s/τ − max"].max() == 0.0 and steps["exp(s/τ − max)"].max() == 1.0


def test_temperature_sharpens_the_weights():
    at = load(PAGE, query=RANDOM)
    flat = table(at, "A = softmax by row")
    at.slider(key="lesson_w_temperature").set_value(0.2)
    rerun(at)
    sharp = table(at, "A = softmax by row, τ = 0.2")
    np.testing.assert_allclose(sharp, expected(temperature=0.2).weights, atol=1e-12)
    assert np.all(sharp.max(axis=1) > flat.max(axis=1))  # every row piles onto its argmax
    sweep = softmax_facts.temperature_sweep(expected().masked[1], [0.2])
    np.testing.assert_allclose(steps_table(at)["weight"], sweep[0].round(4))


def test_causal_mask_gives_exact_zeros_and_spells_out_minus_infinity():
    at = load(PAGE, query=RANDOM)
    at.selectbox(key="lesson_w_mask").select("causal")
    rerun(at)
    w = table(at, "A = softmax by row")
    assert np.all(w[np.triu_indices_from(w, 1)] == 0.0)
    np.testing.assert_allclose(w.sum(axis=1), 1.0)
    steps = steps_table(at)  # query 1 may see keys 0 and 1 only
    assert list(steps["score s"][2:]) == ["−∞ (masked)"] * (len(w) - 2)
    assert list(steps["weight"][2:]) == [0.0] * (len(w) - 2)


def test_numbers_on_cells_toggle_reaches_the_heatmaps():
    at = load(PAGE, query=RANDOM)
    figs = heatmaps(at)
    assert len(figs) == 3 and all(f["numbers"] for f in figs)
    at.toggle(key="lesson_w_show_numbers").set_value(False)
    rerun(at)
    figs = heatmaps(at)
    assert len(figs) == 3 and not any(f["numbers"] for f in figs)


def test_repeated_word_keeps_every_row():
    """...and the query picker shows the new sentence's token at the position it kept."""
    at = load(PAGE, query=RANDOM)
    box = at.selectbox(key="sm_query")
    before = box.options[box.index]
    type_sentence(at, "the dog saw the dog")
    box = at.selectbox(key="sm_query")
    assert (before, box.value) == ("1 cat", 1)
    assert shown(box, before) == box.options[1] == "1 dog"
    assert table(at, "A = softmax by row").shape == (5, 5)
    assert len(steps_table(at)) == 5


def test_bars_are_the_picked_rows_scores_and_weights():
    """The two bar charts are the picked query's scaled, masked scores over τ and its
    weights, one bar per key; a masked key is sent as masked (drawn as −∞), not as 0."""
    at = load(PAGE, query=RANDOM | {"mask": "causal", "temperature": "2.0"})
    at.selectbox(key="sm_query").select(2)
    rerun(at)
    t = expected(mask="causal", temperature=2.0)
    assert len(canvas_charts(at)) == 2
    scores = canvas_chart(at, "Scores of row 2")
    np.testing.assert_allclose(chart_values(scores, "s / τ"), t.masked[2] / 2.0)
    assert chart_values(scores, "s / τ")[3] == -np.inf  # causal: query 2 cannot see key 3
    weights = canvas_chart(at, "Weights of row 2")
    np.testing.assert_allclose(chart_values(weights, "weight"), t.weights[2], atol=1e-12)
    assert weights["x"]["labels"] == list(lesson(mask="causal").tokens)
    assert weights["y"]["range"] == [0, 1.1]
