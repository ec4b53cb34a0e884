"""attention_backward against torch autograd, from stored cases (no torch needed here).

The cases are written by tests/fixtures/make_backward_reference.py: F.scaled_dot_product_attention
forward, ``out.backward(d_output)``, float64, masks and weights in our conventions.
"""

import numpy as np
import pytest

import attn_core
from tests.support import reference
from tests.support.reference import case

SDPA = [
    "plain",
    "mask",
    "causal",
    "cross",
    "cross_mask",
    "scale",
    "unscaled_saturated",
    "temperature",
    "heads",
]
SELF = ["self", "self_causal"]
TOL = {"rtol": 1e-10, "atol": 1e-10}


@pytest.fixture(scope="module")
def ref():
    return reference.load("backward_reference.npz")


def test_fixture_holds_every_case(ref):
    assert sorted(ref["cases"]) == sorted(SDPA + SELF)
    assert str(ref["torch_version"]).startswith("2.")


@pytest.mark.parametrize("name", SDPA)
def test_gradients_equal_torch_autograd(ref, name):
    c = case(ref, name)
    assert c["q"].dtype == np.float64
    t = attn_core.attention(
        c["q"],
        c["k"],
        c["v"],
        mask=c.get("mask"),
        scale=float(c["scale"]),
        temperature=float(c["temperature"]),
    )
    np.testing.assert_allclose(t.output, c["output"], **TOL)
    g = attn_core.attention_backward(t, c["d_output"])
    for field in ("dq", "dk", "dv"):
        np.testing.assert_allclose(getattr(g, field), c[field], **TOL, err_msg=field)
    assert g.dx is None and g.dw_q is None  # no projections in this trace
    if "mask" in c:
        assert np.all(g.d_scaled[..., ~c["mask"]] == 0.0)


@pytest.mark.parametrize("name", SELF)
def test_projection_gradients_equal_torch_autograd(ref, name):
    c = case(ref, name)
    t = attn_core.self_attention(c["x"], c["w_q"], c["w_k"], c["w_v"], mask=c.get("mask"))
    g = attn_core.attention_backward(t, c["d_output"])
    for field in ("dx", "dw_q", "dw_k", "dw_v"):
        np.testing.assert_allclose(getattr(g, field), c[field], **TOL, err_msg=field)


def test_saturated_case_really_saturates(ref):
    """The unscaled case is the gradient view of why we scale: its dS is tiny."""
    c = case(ref, "unscaled_saturated")
    t = attn_core.attention(c["q"], c["k"], c["v"], scale=1.0)
    assert np.median(t.weights.max(axis=-1)) > 0.99  # most rows: one weight near 1
    g = attn_core.attention_backward(t, c["d_output"])
    scaled = attn_core.attention_backward(
        attn_core.attention(c["q"], c["k"], c["v"]), c["d_output"]
    )
    row_size = np.abs(g.d_scaled).max(axis=-1)  # (T_q,): the largest |dS| of each row
    assert np.median(row_size) < np.median(np.abs(scaled.d_scaled).max(axis=-1)) / 100


def test_a_wrong_transpose_would_not_match(ref):
    """dk = d_scores^T q, not d_scores q: on a cross case the shapes even differ."""
    c = case(ref, "plain")
    t = attn_core.attention(c["q"], c["k"], c["v"])
    g = attn_core.attention_backward(t, c["d_output"])
    assert not np.allclose(g.d_scores @ c["q"], c["dk"], **TOL)
