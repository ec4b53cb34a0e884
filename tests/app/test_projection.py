"""Page 2, projection: W_Q, W_K, W_V and Q, K, V on screen are the engine's, with their shapes."""

import numpy as np

import attn_core
from attn_ui.compute.lessons import real_head
from attn_ui.settings import DEFAULT_SENTENCE, LessonSettings
from tests.support.apptest import (
    RANDOM,
    frame,
    load,
    rerun,
    table,
)
from tests.support.apptest import (
    lesson as lesson_at,
)

PAGE = "pages/02_Projection.py"

# These tests read the seeded random weights (d_model, d_k, seed): the lessons open on a real
# head, and a link with weights=random gives the random ones (tests/app/test_default_weights.py).


def lesson(**changes):
    return lesson_at(**(RANDOM | changes))


def test_default_weights_and_projections_equal_the_engine(loaded):
    at = loaded(PAGE, RANDOM)
    run = lesson()
    w = attn_core.lesson_weights(8, 4, seed=0)
    np.testing.assert_allclose(table(at, "Numbers of W_Q"), w.w_q, atol=1e-12)
    np.testing.assert_allclose(table(at, "Numbers of W_V"), w.w_v, atol=1e-12)
    x, q = table(at, "Numbers of X"), table(at, "Q = X W_Q")
    np.testing.assert_allclose(q, run.trace.q, atol=1e-12)
    np.testing.assert_allclose(q, x @ table(at, "Numbers of W_Q"), atol=1e-12)
    np.testing.assert_allclose(table(at, "K = X W_K"), run.trace.k, atol=1e-12)
    np.testing.assert_allclose(table(at, "V = X W_V"), run.trace.v, atol=1e-12)
    t = len(run.tokens)
    shapes = frame(at, "rows × columns")["rows × columns"]
    assert shapes["X"] == f"{t} × 8" and shapes["W_Q"] == "8 × 4" and shapes["Q"] == f"{t} × 4"


def test_d_k_slider_changes_q_and_k_together():
    at = load(PAGE, query=RANDOM)
    at.select_slider(key="lesson_w_d_k").set_value(2)
    rerun(at)
    assert table(at, "Numbers of W_Q").shape == (8, 2)
    assert table(at, "Q = X W_Q").shape[1] == table(at, "K = X W_K").shape[1] == 2
    np.testing.assert_allclose(table(at, "K = X W_K"), lesson(d_k=2).trace.k, atol=1e-12)
    assert frame(at, "rows × columns")["rows × columns"]["W_K"] == "8 × 2"


def test_seed_changes_the_weights_not_x():
    at = load(PAGE, query=RANDOM)
    x, w_q = table(at, "Numbers of X"), table(at, "Numbers of W_Q")
    at.number_input(key="lesson_w_seed").set_value(7)
    rerun(at)
    np.testing.assert_array_equal(table(at, "Numbers of X"), x)
    assert not np.allclose(table(at, "Numbers of W_Q"), w_q)
    np.testing.assert_allclose(table(at, "Q = X W_Q"), lesson(seed=7).trace.q, atol=1e-12)


def test_d_v_changes_v_and_the_output_width_only():
    at = load(PAGE, query=RANDOM)
    q = table(at, "Q = X W_Q")
    at.select_slider(key="proj_d_v").set_value(16)
    rerun(at)
    v = table(at, "V with d_v = 16")
    t = q.shape[0]
    assert v.shape == (t, 16)
    shapes = [df.value for df in at.dataframe if "rows × columns" in df.value.columns][1]
    assert list(shapes["rows × columns"]) == [f"{t} × 4", f"{t} × 4", f"{t} × 16", f"{t} × 16"]
    run = lesson()
    w = attn_core.lesson_weights(8, 4, 16, seed=0)
    np.testing.assert_allclose(v, run.x @ w.w_v, atol=1e-12)
    np.testing.assert_allclose(w.w_q, attn_core.lesson_weights(8, 4, seed=0).w_q)  # same Q
    np.testing.assert_array_equal(table(at, "Q = X W_Q"), q)


def test_similarity_weights_give_q_k_v_equal_to_x():
    at = load(PAGE, query=RANDOM)
    at.radio(key="lesson_w_weights").set_value("similarity")
    rerun(at)
    x = table(at, "Numbers of X")
    for name in ("Q = X W_Q", "K = X W_K", "V = X W_V"):
        np.testing.assert_allclose(table(at, name), x)
    np.testing.assert_array_equal(table(at, "Numbers of W_Q"), np.eye(8))
    assert "proj_d_v" not in [w.key for w in at.select_slider]  # d_v is free with Random only


def test_real_head_shows_its_weights_and_bias():
    at = load(PAGE, query=RANDOM)
    at.radio(key="lesson_w_weights").set_value("pretrained")
    rerun(at)
    w_q, x, q = table(at, "Numbers of W_Q"), table(at, "Numbers of X"), table(at, "Q = X W_Q")
    assert w_q.shape == (384, 32) and q.shape[1] == 32
    real = LessonSettings()  # the default real head: its layer and head
    head, (b_q, _, _) = real_head(DEFAULT_SENTENCE, real.layer, real.head)
    np.testing.assert_allclose(q, head.q, atol=1e-6)
    np.testing.assert_allclose(q, x @ w_q + b_q, atol=1e-4)  # MiniLM adds a bias
    assert any("bias" in c.value for c in at.caption)
