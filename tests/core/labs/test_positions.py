"""Word order: attention is permutation-equivariant until positions are added."""

import math

import numpy as np
import pytest

from attn_core import AttentionInputError, lesson_weights
from attn_core.labs.positions import reorder_test, sinusoidal_positions


def naive_positions(t, d, base=10000.0):
    p = np.zeros((t, d))
    for i in range(t):
        for f in range(d):
            angle = i / base ** (2 * (f // 2) / d)
            p[i, f] = math.sin(angle) if f % 2 == 0 else math.cos(angle)
    return p


@pytest.mark.parametrize(("t", "d"), [(1, 1), (5, 4), (12, 7), (64, 384)])
def test_sinusoidal_positions_equal_the_formula_entry_by_entry(t, d):
    np.testing.assert_allclose(sinusoidal_positions(t, d), naive_positions(t, d), atol=1e-12)


def case(seed, t=7, d_model=8, d_k=4):
    rng = np.random.default_rng(seed)
    w = lesson_weights(d_model=d_model, d_k=d_k, seed=seed)
    return rng.normal(size=(t, d_model)), w, rng.permutation(t)


@pytest.mark.parametrize("seed", range(5))
def test_reordering_the_tokens_reorders_the_output_and_nothing_else(seed):
    x, w, order = case(seed)
    r = reorder_test(x, w.w_q, w.w_k, w.w_v, order)
    assert r.gap < 1e-12
    np.testing.assert_allclose(r.reordered.weights, r.plain.weights[np.ix_(order, order)])


@pytest.mark.parametrize("seed", range(5))
def test_positions_make_the_order_show(seed):
    x, w, _ = case(seed)
    r = reorder_test(x, w.w_q, w.w_k, w.w_v, np.arange(7)[::-1])
    assert r.gap_pos > 1e-3
    np.testing.assert_allclose(r.plain_pos.x, x + naive_positions(7, 8), atol=1e-12)


def test_the_same_order_changes_nothing_even_with_positions():
    x, w, _ = case(0)
    assert reorder_test(x, w.w_q, w.w_k, w.w_v, np.arange(7)).gap_pos == 0.0


@pytest.mark.parametrize("order", [[0, 1, 2, 3, 4, 5, 5], [0, 1, 2], [1, 2, 3, 4, 5, 6, 7]])
def test_an_order_that_is_not_a_permutation_is_refused(order):
    x, w, _ = case(0)
    with pytest.raises(AttentionInputError, match="each of the 7 positions"):
        reorder_test(x, w.w_q, w.w_k, w.w_v, order)


@pytest.mark.parametrize("bad", [0, -1, 2.5, True])
def test_positions_need_a_whole_number_of_rows(bad):
    with pytest.raises(AttentionInputError, match="whole number"):
        sinusoidal_positions(bad, 4)
