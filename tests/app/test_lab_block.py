"""Transformer-block lab: both normalising directions, and MiniLM's layer rebuilt step by step."""

import numpy as np
import pytest

from attn_core.labs.normalisation import normalise, spread
from attn_core.pretrained import load_minilm
from attn_core.pretrained.bert_layer import encoder_layer
from attn_core.text import embed
from attn_ui.settings import DEFAULT_SENTENCE
from tests.support.apptest import load, rerun, table

PAGE = "pages/47_Transformer_block.py"


def frame(at, first_column, index_part=""):
    return next(
        df.value
        for df in at.dataframe
        if df.value.columns[0] == first_column and index_part in str(df.value.index[0])
    )


def engine(layer, sentence=DEFAULT_SENTENCE):
    model = load_minilm()
    run = model.run(sentence)
    return run, encoder_layer(run.hidden_states[layer], model.layers[layer], 12, model.eps)


def test_small_matrix_normalised_both_ways(loaded):
    at = loaded(PAGE)
    x = embed(DEFAULT_SENTENCE, 6)[1][:8]
    np.testing.assert_allclose(table(at, "X"), x, atol=1e-12)
    np.testing.assert_allclose(table(at, "Layer norm"), normalise(x, 1, 1e-12), atol=1e-12)
    np.testing.assert_allclose(table(at, "Batch norm"), normalise(x, 0, 1e-12), atol=1e-12)
    rows = frame(at, "mean", "0 ")  # per token: index "0 the", ...
    cols = frame(at, "mean", "f0")  # per feature: index "f0", ...
    assert len(rows) == 8 and len(cols) == 6
    np.testing.assert_allclose(rows["mean"], 0, atol=1e-6)
    np.testing.assert_allclose(rows["variance"], 1, atol=1e-4)
    np.testing.assert_allclose(cols["mean"], 0, atol=1e-6)
    np.testing.assert_allclose(cols["variance"], 1, atol=1e-4)


@pytest.mark.parametrize("layer", [0, 4])
def test_layer_slider_shows_that_layers_numbers(layer):
    at = load(PAGE)
    at.slider(key="block_layer").set_value(layer)
    rerun(at)
    run, b = engine(layer)
    std = frame(at, "x (input)", "[CLS]")  # the first table of each token's spread
    assert std.shape == (len(run.tokens), 9)
    np.testing.assert_allclose(std["attention"], np.round(spread(b.attn)[1], 4), atol=1e-6)
    np.testing.assert_allclose(std["LN 2 = output"], np.round(spread(b.out)[1], 4), atol=1e-6)
    np.testing.assert_allclose(std["LN 1 (no γ, β)"], 1.0, atol=1e-4)
    np.testing.assert_allclose(table(at, "Numbers of attention"), b.attn, atol=1e-6)
    assert float(at.metric[0].value) <= 1e-5  # our output against the model's next layer


def test_stage_picker_shows_that_stage():
    at = load(PAGE)
    at.selectbox(key="block_stage").set_value("ffn")
    rerun(at)
    np.testing.assert_allclose(table(at, "Numbers of FFN(h)"), engine(0)[1].ffn, atol=1e-6)


def test_one_word_is_a_batch_of_one():
    at = load(PAGE)
    at.text_input(key="lesson_w_sentence").input("cat")
    rerun(at)
    assert at.warning and "batch of one" in at.warning[0].value
    np.testing.assert_array_equal(table(at, "Batch norm"), 0.0)
    assert np.isfinite(table(at, "Layer norm")).all()
