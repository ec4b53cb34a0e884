"""attn_core.pretrained.bert_layer: MiniLM's encoder layer step by step, and its parts."""

import numpy as np
import pytest

from attn_core.pretrained import load_minilm
from attn_core.pretrained.bert_layer import STAGES, encoder_layer


@pytest.fixture(scope="module")
def model():
    return load_minilm()


@pytest.mark.parametrize("layer", [0, 3, 5])
def test_minilm_block_steps_rebuild_the_models_next_layer(model, layer):
    run = model.run("The driver could not drive the car fast enough because it had a problem.")
    p = model.layers[layer]
    b = encoder_layer(run.hidden_states[layer], p, model.n_heads, model.eps)
    np.testing.assert_allclose(b.out, run.hidden_states[layer + 1], atol=1e-6)
    np.testing.assert_allclose(b.weights, run.attentions[layer], atol=1e-7)
    np.testing.assert_allclose(b.res_1, b.x + b.attn, atol=1e-6)
    np.testing.assert_allclose(b.res_2, b.ln_1 + b.ffn, atol=1e-6)
    for norm in (b.norm_1, b.norm_2):  # each token: mean 0, variance 1 before gamma, beta
        np.testing.assert_allclose(norm.mean(axis=1), 0.0, atol=1e-5)
        np.testing.assert_allclose(norm.var(axis=1), 1.0, atol=1e-4)
    np.testing.assert_allclose(b.ln_1, b.norm_1 * p.ln_1[0] + p.ln_1[1], atol=1e-6)
    t = len(run.tokens)
    assert all(getattr(b, s).shape == (t, 384) for s in STAGES)
