"""Agreement with PyTorch, from stored cases (no torch needed to run these tests).

The cases are written by tests/fixtures/make_reference.py from
F.scaled_dot_product_attention and nn.MultiheadAttention, in float64, with masks
and weights already converted to our conventions (see that script).
"""

import numpy as np
import pytest

import attn_core
from tests.support import reference
from tests.support.reference import case

SDPA = [
    "sdpa_plain",
    "sdpa_mask",
    "sdpa_causal",
    "sdpa_cross",
    "sdpa_cross_mask",
    "sdpa_scale",
    "sdpa_unscaled",
]
MHA = ["mha_plain", "mha_causal", "mha_mask", "mha_one_head"]
TOL = {"rtol": 1e-6, "atol": 1e-6}


@pytest.fixture(scope="module")
def ref():
    return reference.load("torch_reference.npz")


def test_fixture_holds_every_case(ref):
    assert sorted(ref["cases"]) == sorted(SDPA + MHA)
    assert str(ref["torch_version"]).startswith("2.")


@pytest.mark.parametrize("name", SDPA)
def test_scaled_dot_product_attention(ref, name):
    c = case(ref, name)
    assert c["q"].dtype == np.float64
    scale = None if name not in ("sdpa_scale", "sdpa_unscaled") else float(c["scale"])
    t = attn_core.attention(c["q"], c["k"], c["v"], mask=c.get("mask"), scale=scale)
    assert t.scale == pytest.approx(float(c["scale"]), rel=1e-15)
    np.testing.assert_allclose(t.weights, c["weights"], **TOL)
    np.testing.assert_allclose(t.output, c["output"], **TOL)
    if "mask" in c:
        assert np.all(c["weights"][~c["mask"]] == 0.0)  # the stored mask is ours: True = attend


def test_cross_attention_case_has_different_shapes(ref):
    c = case(ref, "sdpa_cross")
    (t_q, d_k), (t_k, d_v) = c["q"].shape, c["v"].shape
    assert t_q != t_k and d_k != d_v
    assert c["output"].shape == (t_q, d_v)


@pytest.mark.parametrize("name", MHA)
def test_multi_head_attention(ref, name):
    c = case(ref, name)
    n_heads = int(c["n_heads"])
    mh = attn_core.multi_head_attention(
        c["x"], c["w_q"], c["w_k"], c["w_v"], c["w_o"], n_heads, mask=c.get("mask")
    )
    t = c["x"].shape[0]
    assert c["weights"].shape == (n_heads, t, t)
    np.testing.assert_allclose(mh.weights, c["weights"], **TOL)  # per head, not averaged
    np.testing.assert_allclose(mh.output, c["output"], **TOL)


@pytest.mark.parametrize("name", ["mha_plain", "mha_causal"])
def test_transposed_weights_would_not_match(ref, name):
    """The stored weights really are in the x @ W layout: PyTorch's own layout fails."""
    c = case(ref, name)
    w = [c[n].T for n in ("w_q", "w_k", "w_v", "w_o")]
    mh = attn_core.multi_head_attention(c["x"], *w, int(c["n_heads"]), mask=c.get("mask"))
    assert not np.allclose(mh.output, c["output"], **TOL)
