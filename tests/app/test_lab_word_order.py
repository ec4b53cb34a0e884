"""Word-order lab: reordering the tokens moves the weights and nothing else, until positions."""

from dataclasses import replace

import numpy as np

from attn_core.labs.positions import reorder_test, sinusoidal_positions
from attn_ui.compute import lesson_run
from attn_ui.settings import LessonSettings
from tests.support.apptest import (
    load,
    rerun,
    table,
)

PAGE = "pages/48_Word_order.py"

# These tests read the seeded random weights (d_model, d_k, seed): the lessons open on a real
# head, and a link with weights=random gives the random ones (tests/app/test_default_weights.py).
RANDOM = {"weights": "random"}


def engine(order, **changes):
    t = lesson_run(replace(LessonSettings(**(RANDOM | changes)), mask="none")).trace
    return reorder_test(t.x, t.w_q, t.w_k, t.w_v, order)


def test_reversed_sentence_numbers_equal_the_engine(loaded):
    at = load(PAGE, query=RANDOM)
    r = engine(np.arange(12)[::-1])
    np.testing.assert_allclose(table(at, "no positions: your order"), r.plain.weights, atol=1e-12)
    np.testing.assert_allclose(
        table(at, "no positions: new order"), r.reordered.weights, atol=1e-12
    )
    np.testing.assert_allclose(table(at, "x + p: new order"), r.reordered_pos.weights, atol=1e-12)
    np.testing.assert_allclose(table(at, "P (sin, cos)"), sinusoidal_positions(12, 8), atol=1e-12)
    gap, gap_pos = (m.value for m in at.metric)
    assert float(gap) < 1e-12 and gap == f"{r.gap:.1e}"
    assert float(gap_pos) > 1e-3 and gap_pos == f"{r.gap_pos:.3f}"


def test_without_positions_the_new_order_holds_the_same_weights_moved():
    at = load(PAGE, query=RANDOM)
    at.radio(key="order_how").set_value("shuffled")
    rerun(at)
    order = np.random.default_rng(0).permutation(12)
    plain = table(at, "no positions: your order")
    np.testing.assert_allclose(table(at, "no positions: new order"), plain[np.ix_(order, order)])
    assert not np.allclose(
        table(at, "x + p: new order"), table(at, "x + p: your order")[np.ix_(order, order)]
    )
