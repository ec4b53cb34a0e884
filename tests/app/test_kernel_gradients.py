"""Gradients page: the loss, every gradient, one step, saturation and the by-hand pass."""

import numpy as np

from attn_core.by_hand import make_exercise
from attn_core.labs.gradients import gradient_step, saturation
from attn_core.pretrained import load_minilm
from attn_ui.compute.kernel import SATURATION_D
from attn_ui.settings import LessonSettings
from tests.support.apptest import (
    canvas_chart,
    chart_values,
    frame,
    load,
    rerun,
    table,
    type_sentence,
)
from tests.support.apptest import lesson as lesson_at

PAGE = "pages/51_Gradients.py"

# These tests read the seeded random weights (d_model, d_k, seed): the lessons open on a real
# head, and a link with weights=random gives the random ones (tests/app/test_default_weights.py).
RANDOM = {"weights": "random"}


def lesson(**changes):
    return lesson_at(**(RANDOM | changes))


def engine(row=None, toward=1, lr=0.05, **changes):
    t = lesson(**changes).trace
    n = t.x.shape[0]
    return gradient_step(
        t.x, t.w_q, t.w_k, t.w_v, row=n - 2 if row is None else row, toward=toward, lr=lr
    )


def metrics(at) -> dict:
    return {m.label: m.value for m in at.metric}


def test_defaults_show_the_engines_gradients_and_step(loaded):
    at = load(PAGE, query=RANDOM)
    step = engine()
    g = step.grads
    for title, m in (
        ("dZ = dL/dZ", g.d_output),
        ("dV = Aᵀ dZ", g.dv),
        ("dA = dZ Vᵀ", g.d_weights),
        ("dS = A ⊙", g.d_scaled),
        ("dQ = dS K", g.dq),
        ("dK = dSᵀ Q", g.dk),
        ("dW_Q = Xᵀ dQ", g.dw_q),
        ("dW_K = Xᵀ dK", g.dw_k),
        ("dW_V = Xᵀ dV", g.dw_v),
    ):
        np.testing.assert_allclose(table(at, title), m, atol=1e-12, err_msg=title)
    shown = metrics(at)
    assert shown["L = ½ ‖z_i − v_j‖²"] == f"{step.loss:.4f}"
    assert shown["Loss after the step"] == f"{step.loss_after:.4f}"
    assert step.loss_after < step.loss  # the default step goes downhill
    assert shown["Weight of token i on token j"] == f"{step.after.weights[-2, 1]:.4f}"
    # dS rows sum to 0, and only row i of dZ is non-zero
    np.testing.assert_allclose(table(at, "dS = A ⊙").sum(axis=1), 0.0, atol=1e-12)
    assert np.flatnonzero(np.abs(table(at, "dZ = dL/dZ")).sum(axis=1)).tolist() == [10]
    row = canvas_chart(at, "Row i of A")  # row i before and after the step, bar by bar
    np.testing.assert_allclose(chart_values(row, "before the step"), step.before.weights[10])
    np.testing.assert_allclose(chart_values(row, "after the step"), step.after.weights[10])
    largest = [np.abs(w).max() for w in (g.dw_q, g.dw_k, g.dw_v)]
    moved = frame(at, "largest change, lr · |dW|")
    np.testing.assert_allclose(moved["largest change, lr · |dW|"], 0.05 * np.array(largest))


def test_a_link_to_a_real_head_trains_that_head():
    """weights=pretrained with a layer and a head: the gradients are MiniLM's head's own
    (its X, W's and biases), not the random head's."""
    at = load(PAGE, query={"weights": "pretrained", "layer": "3", "head": "5"})
    model = load_minilm()
    run = model.run(LessonSettings.sentence)
    t, n = model.head_trace(run, 3, 5), len(run.tokens)
    step = gradient_step(
        t.x, t.w_q, t.w_k, t.w_v, row=n - 2, toward=1, lr=0.05, bias=model.head_bias(3, 5)
    )
    np.testing.assert_array_equal(step.before.weights, run.attentions[3, 5])  # the model's A
    g = step.grads
    for title, m in (("dS = A ⊙", g.d_scaled), ("dQ = dS K", g.dq), ("dW_Q = Xᵀ dQ", g.dw_q)):
        np.testing.assert_allclose(table(at, title), m, rtol=1e-6, atol=0, err_msg=title)
    assert table(at, "dW_V = Xᵀ dV").shape == (384, 32)
    shown = metrics(at)
    assert shown["L = ½ ‖z_i − v_j‖²"] == f"{step.loss:.4f}"
    assert shown["Loss after the step"] == f"{step.loss_after:.4f}"
    assert any("384 × 32" in i.value for i in at.info)


def test_choices_move_the_numbers():
    at = load(PAGE, query=RANDOM)
    at.selectbox(key="grads_row").set_value(2)
    at.selectbox(key="grads_toward").set_value(5)
    at.select_slider(key="grads_lr").set_value(0.2)
    rerun(at)
    step = engine(row=2, toward=5, lr=0.2)
    np.testing.assert_allclose(table(at, "dW_Q = Xᵀ dQ"), step.grads.dw_q, atol=1e-12)
    assert metrics(at)["Loss after the step"] == f"{step.loss_after:.4f}"


def test_causal_mask_gives_zero_gradient_in_masked_cells():
    at = load(PAGE, query=RANDOM | {"mask": "causal"})
    ds = table(at, "dS = A ⊙")
    assert np.all(ds[np.triu_indices(len(ds), 1)] == 0.0)
    t = lesson(mask="causal").trace
    step = gradient_step(
        t.x, t.w_q, t.w_k, t.w_v, row=10, toward=1, lr=0.05, mask=np.tril(np.ones((12, 12), bool))
    )
    np.testing.assert_allclose(ds, step.grads.d_scaled, atol=1e-12)


def test_saturation_table_is_the_cores(loaded):
    at = load(PAGE, query=RANDOM)
    df = frame(at, "typical max |dS| of a row, unscaled")
    assert list(df.index) == list(SATURATION_D)
    for d in SATURATION_D:
        s = saturation(d, seed=0)
        assert df.loc[d, "typical max |dS| of a row, scaled"] == s.row_ds_scaled
        assert df.loc[d, "typical max |dS| of a row, unscaled"] == s.row_ds_unscaled
    # the point of the table: unscaled, dS vanishes as d grows; scaled, it does not
    assert (
        df.loc[1024, "typical max |dS| of a row, unscaled"]
        < df.loc[1024, "typical max |dS| of a row, scaled"] / 10
    )


def test_by_hand_backward_is_the_worksheets_key(loaded):
    at = load(PAGE, query=RANDOM)
    ex = make_exercise(2, variant="backward")
    text = "\n".join(str(t.value.to_string()) for t in at.table)
    for a in ex.grads.dq.ravel():
        assert str(a) in text
    for a in ex.grads.d_scaled.ravel():
        assert str(a) in text


def test_bad_sentence_and_single_token():
    at = load(PAGE, query=RANDOM)
    type_sentence(at, "")
    assert any("empty" in e.value for e in at.error)
    type_sentence(at, "cat")
    assert any("single token" in w.value for w in at.warning)
    assert metrics(at)["L = ½ ‖z_i − v_j‖²"] == "0.0000"  # one token: z = v, nothing to learn
