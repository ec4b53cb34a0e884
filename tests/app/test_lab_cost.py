"""Cost lab: counts before the run; after it, the measurement and the slopes fitted to it.

No timing is asserted: only that the numbers are positive, finite, and the ones the core gave.
"""

import numpy as np

from attn_core.labs.cost import fit_slope, operation_counts
from attn_ui.compute import labs
from tests.support.apptest import load, rerun

PAGE = "pages/46_Cost.py"


def frame(at, column):
    return next(df.value for df in at.dataframe if column in df.value.columns)


def small(at, d=16):
    """A quick measurement: T up to 256, one repeat."""
    at.select_slider(key="cost_max_t").set_value(256)
    at.select_slider(key="cost_d").set_value(d)
    at.slider(key="cost_repeats").set_value(1)
    at.button(key="cost_run").click()
    return rerun(at)


def test_before_the_run_the_counts_equal_the_core(loaded):
    at = loaded(PAGE)
    assert at.info and "Run the measurement" in at.info[0].value
    df = frame(at, "RNN: sequential steps")
    expected = operation_counts([16, 32, 64, 128, 256, 512, 1024, 2048], 64)
    for name, values in expected.items():
        np.testing.assert_array_equal(df[name], values)
    assert not at.metric


def test_d_changes_the_counts():
    at = load(PAGE)
    at.select_slider(key="cost_d").set_value(16)
    rerun(at)
    df = frame(at, "attention: multiplications")
    np.testing.assert_array_equal(df["attention: multiplications"], 2 * df["T"] ** 2 * 16)


def test_run_measures_and_shows_the_cores_numbers():
    at = small(load(PAGE))
    over_t, over_d = labs.cost_curves(256, 16, 1, press=1)  # cached: what the page shows
    df = frame(at, "RNN, T steps (ms)")
    np.testing.assert_array_equal(df["T"], [16, 32, 64, 128, 256])
    np.testing.assert_allclose(df["attention (ms)"], over_t.seconds * 1e3)
    np.testing.assert_allclose(df["RNN, T steps (ms)"], over_t.rnn_seconds * 1e3)
    np.testing.assert_allclose(df["weights (kB)"], 4 * df["T"] ** 2 / 1000)  # decimal kB
    values = df.to_numpy(dtype=float)
    assert np.isfinite(values).all() and (values > 0).all()
    by_d = [d.value for d in at.dataframe if "RNN, T steps (ms)" not in d.value.columns][-1]
    np.testing.assert_array_equal(by_d["d"], labs.D_SWEEP)
    slopes = [m.value for m in at.metric]
    assert slopes[1] == "slope 2.00"  # memory of the (T, T) float32 weights: exactly T^2
    rnn = fit_slope(over_t.t, over_t.rnn_seconds).slope
    assert slopes[2] == f"slope {rnn:.2f}"


def test_changed_settings_after_a_run_ask_for_another():
    at = small(load(PAGE))
    assert not at.warning
    at.select_slider(key="cost_d").set_value(32)
    rerun(at)
    assert at.warning and "Run the measurement" in at.warning[0].value
    assert frame(at, "RNN, T steps (ms)")["d"].tolist() == [16] * 5  # still the measured run


def test_longest_t_sets_the_rows_and_a_second_press_measures_again():
    at = load(PAGE)
    at.select_slider(key="cost_max_t").set_value(512)
    rerun(at)
    np.testing.assert_array_equal(
        frame(at, "RNN: sequential steps")["T"], [16, 32, 64, 128, 256, 512]
    )
    at = small(at)
    assert at.subheader[-1].value == "2. Measured: T from 16 to 256, d = 16, best of 1"
    at.button(key="cost_run").click()
    rerun(at)
    assert at.session_state["cost_press"] == 2
    over_t, _ = labs.cost_curves(256, 16, 1, press=2)
    np.testing.assert_allclose(
        frame(at, "RNN, T steps (ms)")["attention (ms)"], over_t.seconds * 1e3
    )
