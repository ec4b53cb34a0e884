"""Lab 40, why scale: the plotted and tabled numbers are the core's, and every control acts."""

import math

import numpy as np
import pytest

from attn_core.labs import scaling
from attn_ui.compute.labs import SWEEP_D
from attn_ui.lab_tables import SATURATION_ROWS
from tests.support.apptest import (
    canvas_chart,
    chart_values,
    chart_x,
    frame,
    load,
    rerun,
    table,
)
from tests.support.bad_input import no_html

PAGE = "pages/40_Why_scale.py"
FIELDS = list(SATURATION_ROWS.values())


def measured(at) -> dict:
    """The table at the learner's d, as {column: {field: value}}."""
    df = frame(at, "q·k / √d")
    names = dict(zip(df.index, [*FIELDS, "se"], strict=True))
    return {col: {names[i]: float(v) for i, v in df[col].items()} for col in df.columns}


def expected(d=64, n_keys=8, seed=0) -> dict:
    sample = scaling.sample_scores(d, n_keys, seed=seed)
    out = {}
    for col, scaled in (("q·k", False), ("q·k / √d", True)):
        sat = scaling.saturation(sample, scaled=scaled)
        se = scaling.variance_standard_error(d, sample.n_queries, n_keys, scaled=scaled)
        out[col] = {f: getattr(sat, f) for f in FIELDS} | {"se": se}
    return out


def check_table(at, **settings) -> dict:
    got, want = measured(at), expected(**settings)
    for col in want:
        for field, value in want[col].items():
            assert got[col][field] == pytest.approx(value, rel=1e-12), (col, field)
    return got


def test_default_table_is_the_core_and_within_sampling_error_of_the_closed_forms(loaded):
    got = check_table(loaded(PAGE))
    for col, closed in (("q·k", 64), ("q·k / √d", 1)):
        assert got[col]["closed_form"] == closed
        assert abs(got[col]["variance"] - closed) < 4 * got[col]["se"]


def error_bars(c: dict, name: str) -> np.ndarray:
    (s,) = [s for s in c["series"] if s["name"] == name]
    return np.asarray(s["error"])


def test_variance_chart_plots_the_sweep_and_the_closed_forms(loaded):
    fig = canvas_chart(loaded(PAGE), "Variance of the scores")
    sweep = scaling.scale_sweep(SWEEP_D, 8, seed=0)
    np.testing.assert_array_equal(chart_x(fig, "closed form: d"), SWEEP_D)
    np.testing.assert_array_equal(chart_values(fig, "closed form: d"), SWEEP_D)
    np.testing.assert_array_equal(chart_values(fig, "closed form: 1"), np.ones(len(SWEEP_D)))
    for name, scaled, closed in (("q·k", False, np.array(SWEEP_D)), ("q·k / √d", True, 1.0)):
        points = chart_values(fig, f"{name}, simulated")
        np.testing.assert_allclose(points, sweep.column("variance", scaled=scaled), rtol=1e-12)
        ses = [scaling.variance_standard_error(d, 500, 8, scaled=scaled) for d in SWEEP_D]
        assert np.all(np.abs(points - closed) < 4 * np.array(ses))
        # each point's error bar: 2 sampling errors of the sample (500 queries of 8 keys)
        want = [2 * scaling.variance_standard_error(d, 500, 8, scaled=scaled) for d in SWEEP_D]
        np.testing.assert_allclose(error_bars(fig, f"{name}, simulated"), want, rtol=1e-12)


def test_saturation_and_gradient_charts_follow_the_core(loaded):
    at = loaded(PAGE)
    sweep = scaling.scale_sweep(SWEEP_D, 8, seed=0)
    for title, field in (
        ("Largest weight", "max_weight"),
        ("Entropy", "entropy"),
        ("Size of the softmax Jacobian", "grad_norm"),
        ("Largest entry of the Jacobian", "grad_max"),
    ):
        fig = canvas_chart(at, title)
        for name, scaled in (("q·k", False), ("q·k / √d", True)):
            got = chart_values(fig, f"{name}, simulated")
            np.testing.assert_allclose(got, sweep.column(field, scaled=scaled), rtol=1e-12)
        unscaled = chart_values(fig, "q·k, simulated")
        if field == "max_weight":
            assert unscaled[-1] > 0.95  # saturated at d = 1024
        if field in ("grad_norm", "grad_max"):
            assert unscaled[-1] < chart_values(fig, "q·k / √d, simulated")[-1] / 5  # vanished


def test_d_slider_moves_the_sample_the_marker_and_the_jacobian():
    at = load(PAGE)
    at.slider(key="why_scale_d").set_value(1024)
    rerun(at)
    got = check_table(at, d=1024)
    assert got["q·k"]["closed_form"] == 1024 and got["q·k"]["max_weight"] > 0.95
    for title in ("Variance of the scores", "Largest weight", "Entropy"):
        assert canvas_chart(at, title)["mark"]["x"] == 1024
    weight = canvas_chart(at, "Largest weight")
    assert chart_x(weight, "q·k at your d") == [1024]
    assert chart_values(weight, "q·k at your d")[0] == got["q·k"]["max_weight"]
    sample = scaling.sample_scores(1024, 8)
    jac = table(at, "J of softmax(q·k)")
    np.testing.assert_allclose(jac, scaling.softmax_jacobian(sample.weights_unscaled[0]))
    assert np.abs(jac).max() < 0.05  # the saturated row passes almost no gradient
    hist = canvas_chart(at, "The scores at d = 1024")  # every score counted once, in its bins
    assert [sum(s["values"]) for s in hist["series"]] == [sample.scores.size] * 2
    counts, _ = np.histogram(sample.scaled, bins=hist["x"]["edges"])
    np.testing.assert_array_equal(chart_values(hist, "q·k / √d"), counts)


def test_d_of_one_makes_both_columns_equal():
    at = load(PAGE)
    at.slider(key="why_scale_d").set_value(1)
    rerun(at)
    got = check_table(at, d=1)
    assert got["q·k"]["variance"] == got["q·k / √d"]["variance"]


def test_keys_per_row_changes_the_rows_and_the_uniform_entropy():
    at = load(PAGE)
    at.select_slider(key="why_scale_keys").set_value(32)
    rerun(at)
    check_table(at, n_keys=32)
    fig = canvas_chart(at, "Entropy of a row")
    assert f"ln 32 = {math.log(32):.2f}" in fig["title"]
    sweep = scaling.scale_sweep(SWEEP_D, 32, seed=0)
    np.testing.assert_allclose(
        chart_values(fig, "q·k / √d, simulated"), sweep.column("entropy", scaled=True)
    )
    assert table(at, "J of softmax(q·k / √d)").shape == (32, 32)
    assert len(chart_values(canvas_chart(at, "Weights of query 0"), "softmax(q·k)")) == 32


def test_seed_draws_other_numbers():
    at = load(PAGE)
    before = measured(at)["q·k"]["variance"]
    at.number_input(key="why_scale_seed").set_value(7)
    rerun(at)
    got = check_table(at, seed=7)
    assert got["q·k"]["variance"] != before
    no_html(at)
