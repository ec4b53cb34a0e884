"""Causal mask in a real model: SmolLM2's heads as the model computes them, their types read
from the numbers, and MiniLM's heads on the same words."""

import numpy as np
import pytest

from attn_core.labs import decoder_heads as dh
from attn_core.pretrained import load_minilm, load_smollm
from attn_ui.settings import DEFAULT_SENTENCE
from tests.support.apptest import load, rerun, table, type_sentence

PAGE = "pages/61_Causal_decoder.py"


@pytest.fixture(scope="module")
def runs():
    return load_smollm().run(DEFAULT_SENTENCE), load_minilm().run(DEFAULT_SENTENCE)


def metric(at, part: str) -> str:
    return next(m.value for m in at.metric if part in m.label)


def test_upper_triangle_is_exactly_zero_in_smollm_and_not_in_minilm(loaded, runs):
    at = loaded(PAGE)
    smol, mini = runs
    assert metric(at, "SmolLM2, 270 heads") == "0"
    assert dh.upper_triangle(smol.attentions).max() == 0.0  # exactly, not rounded
    assert metric(at, "MiniLM, 72 heads") == f"{dh.upper_triangle(mini.attentions).max():.3f}"
    assert float(metric(at, "MiniLM, 72 heads")) > 0.5
    captions = " ".join(c.value for c in at.caption)
    assert "0 of its 17,820 weights above the diagonal are not 0" in captions
    assert "SmolLM2 reads 12 tokens; MiniLM reads 14" in captions


def test_head_scores_and_types_equal_the_core(loaded, runs):
    at = loaded(PAGE)
    att = runs[0].attentions
    previous, first = dh.previous_token_scores(att), dh.first_token_scores(att)
    np.testing.assert_allclose(table(at, "Previous-token score"), previous, atol=1e-12)
    np.testing.assert_allclose(table(at, "First-token score"), first, atol=1e-12)
    labels = dh.label_heads(previous, first, 0.5)
    types = next(d.value for d in at.dataframe if "type" in d.value.columns)
    assert len(types) == int((labels != dh.OTHER).sum())
    for row in types.itertuples(index=False):
        assert row.type == labels[row.layer, row.head]
        assert row[3] == pytest.approx(previous[row.layer, row.head])
    # the strongest previous-token head of this sentence is a real one: most of each row on t-1
    assert types.iloc[0]["type"] == dh.PREVIOUS and types.iloc[0, 3] > 0.7


def test_side_by_side_shows_each_models_own_head_and_tokens(loaded, runs):
    at = loaded(PAGE)
    smol, mini = runs
    layer, head = dh.top_heads(dh.previous_token_scores(smol.attentions), 1)[0]
    m_layer, m_head = dh.top_heads(dh.future_weight(mini.attentions), 1)[0]
    np.testing.assert_array_equal(
        table(at, f"SmolLM2 layer {layer}, head {head}: A"), smol.attentions[layer, head]
    )
    np.testing.assert_array_equal(
        table(at, f"MiniLM layer {m_layer}, head {m_head}: A"), mini.attentions[m_layer, m_head]
    )
    tokens = next(d.value for d in at.dataframe if "SmolLM2 token" in d.value.columns)
    assert tokens["SmolLM2 token"][1] == "␣cat" and tokens["MiniLM token"][0] == "[CLS]"


def test_choosing_heads_and_threshold(runs):
    at = load(PAGE)
    at.radio(key="causal_pick").set_value("choose")
    rerun(at)
    at.selectbox(key="causal_layer").select(7)
    at.selectbox(key="causal_head").select(4)
    at.selectbox(key="causal_m_layer").select(5)
    at.selectbox(key="causal_m_head").select(11)
    at.slider(key="causal_threshold").set_value(0.3)
    rerun(at)
    np.testing.assert_array_equal(table(at, "SmolLM2 layer 7, head 4: A"), runs[0].attentions[7, 4])
    np.testing.assert_array_equal(
        table(at, "MiniLM layer 5, head 11: A"), runs[1].attentions[5, 11]
    )
    att = runs[0].attentions
    labels = dh.label_heads(dh.previous_token_scores(att), dh.first_token_scores(att), 0.3)
    types = next(d.value for d in at.dataframe if "type" in d.value.columns)
    assert len(types) == int((labels != dh.OTHER).sum())
    # a visit to another page keeps every choice (Streamlit drops the widgets' own state)
    rerun(at.switch_page("pages/00_Overview.py"))
    rerun(at.switch_page(PAGE))
    assert at.radio(key="causal_pick").value == "choose"
    assert at.selectbox(key="causal_layer").value == 7
    assert at.slider(key="causal_threshold").value == 0.3


def test_two_tokens_say_why_there_are_no_types_and_still_show_the_heads():
    at = type_sentence(load(PAGE), "Hello world")
    assert any("at least 3 tokens" in e.value for e in at.error)
    assert at.radio(key="causal_pick").options == ["Choose a head"]
    assert table(at, "SmolLM2 layer 1, head 2: A").shape == (2, 2)
