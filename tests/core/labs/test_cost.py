"""Cost: the slope fit on synthetic data, and measurements that are positive, finite, shaped.

No timing is asserted: the numbers depend on the machine and its load.
"""

import math

import numpy as np
import pytest

from attn_core import AttentionInputError
from attn_core.labs.cost import fit_slope, measure, operation_counts, rnn_states, time_attention


@pytest.mark.parametrize("slope, c", [(2.0, 3e-9), (1.0, 0.5), (0.5, 7.0), (-1.0, 2.0)])
def test_fit_recovers_an_exact_power_law(slope, c):
    x = np.array([16, 32, 64, 128, 256, 512, 1024, 2048], dtype=float)
    fit = fit_slope(x, c * x**slope)
    assert fit.slope == pytest.approx(slope, abs=1e-9)
    assert fit.coefficient == pytest.approx(c, rel=1e-9)


def test_fit_on_noisy_quadratic_is_near_two():
    rng = np.random.default_rng(0)
    x = np.geomspace(16, 4096, 12)
    y = 1e-9 * x**2 * np.exp(rng.normal(0, 0.05, x.size))  # 5 % multiplicative noise
    assert abs(fit_slope(x, y).slope - 2.0) < 0.05


def test_fit_rejects_what_has_no_logarithm():
    with pytest.raises(AttentionInputError, match="positive"):
        fit_slope([1, 2, 3], [1, 0, 4])
    with pytest.raises(AttentionInputError, match="two different"):
        fit_slope([4, 4], [1, 2])
    with pytest.raises(AttentionInputError, match="equal length"):
        fit_slope([1, 2, 3], [1, 2])


def test_measure_returns_positive_finite_numbers_of_the_right_shape():
    c = measure([16, 32, 64], [8, 8, 8], repeats=1)
    for a in (c.t, c.d, c.seconds, c.weights_bytes, c.trace_bytes, c.rnn_seconds):
        assert a.shape == (3,)
        assert np.all(np.isfinite(a)) and np.all(a > 0)
    np.testing.assert_array_equal(c.weights_bytes, 4 * c.t**2)  # float32 (T, T)
    np.testing.assert_array_equal(c.trace_bytes, 3 * 4 * c.t**2)  # scores, scaled, weights
    assert measure([16], [4], repeats=1, rnn=False).rnn_seconds is None


def test_time_attention_checks_its_sizes():
    seconds, weights_bytes, _ = time_attention(10, 3, repeats=2)
    assert math.isfinite(seconds) and seconds > 0 and weights_bytes == 400
    for bad in ({"t": 0, "d": 4}, {"t": 5000, "d": 4}, {"t": 8, "d": 4.0}):
        with pytest.raises(AttentionInputError):
            time_attention(bad["t"], bad["d"])


def test_rnn_states_follow_the_recurrence():
    rng = np.random.default_rng(1)
    x, w_x, w_h = rng.normal(size=(5, 3)), rng.normal(size=(3, 3)), rng.normal(size=(3, 3))
    h = rnn_states(x, w_x, w_h)
    prev = np.zeros(3)
    for t in range(5):
        prev = np.tanh(x[t] @ w_x + prev @ w_h)
        np.testing.assert_allclose(h[t], prev, atol=1e-12)


def test_operation_counts():
    c = operation_counts([16, 64], 8)
    np.testing.assert_array_equal(
        c["attention: multiplications"], [2 * 16 * 16 * 8, 2 * 64 * 64 * 8]
    )
    np.testing.assert_array_equal(c["attention: sequential steps"], [1, 1])
    np.testing.assert_array_equal(c["RNN: multiplications"], [2 * 16 * 64, 2 * 64 * 64])
    np.testing.assert_array_equal(c["RNN: sequential steps"], [16, 64])
