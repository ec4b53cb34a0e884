"""Cross-attention lab: the rectangle's rows are your tokens, its columns the second sentence's."""

import numpy as np

import attn_core
from attn_core.labs.cross import cross_attention
from attn_core.text import embed
from attn_ui.settings import DEFAULT_SENTENCE, MAX_SENTENCE_CHARS
from tests.support.apptest import (
    heatmaps,
    load,
    rerun,
    table,
)

PAGE = "pages/44_Cross_attention.py"
SECOND = "A tired kitten slept on the rug."
CROSS, SELF, Z = "Cross: A =", "Self: A =", "Cross: Z = A V"


def engine(sentence=DEFAULT_SENTENCE, memory=SECOND, d_model=16, d_k=None, seed=0):
    """Self- and cross-attention straight from attn_core (identity weights unless d_k)."""
    _, x = embed(sentence, d_model)
    _, y = embed(memory, d_model)
    if d_k is None:
        ws = [np.eye(d_model)] * 3
    else:
        w = attn_core.lesson_weights(d_model, d_k, seed=seed)
        ws = [w.w_q, w.w_k, w.w_v]
    return attn_core.self_attention(x, *ws), cross_attention(x, y, *ws)


def test_default_numbers_equal_the_engine(loaded):
    at = loaded(PAGE)
    own, cross = engine()
    assert table(at, CROSS).shape == (12, 8)  # 12 query tokens, 8 key tokens
    np.testing.assert_allclose(table(at, CROSS), cross.weights, atol=1e-12)
    np.testing.assert_allclose(table(at, SELF), own.weights, atol=1e-12)
    np.testing.assert_allclose(table(at, Z), cross.output, atol=1e-12)
    best = [df.value for df in at.dataframe if "strongest key" in df.value.columns][0]
    assert best.loc["1 cat", "strongest key"] == "2 kitten"


def test_second_sentence_changes_the_columns_only():
    at = load(PAGE)
    at.text_input(key="cross_memory").input("the rug")
    rerun(at)
    assert table(at, CROSS).shape == (12, 2)
    assert table(at, SELF).shape == (12, 12)
    np.testing.assert_allclose(table(at, CROSS), engine(memory="the rug")[1].weights, atol=1e-12)
    shapes = [df.value for df in at.dataframe if list(df.value.columns) == ["self", "cross"]][0]
    assert shapes.loc["A (weights)", "cross"] == "12 × 2"
    assert shapes.loc["A (weights)", "self"] == "12 × 12"
    assert shapes.loc["Z = A V", "cross"] == "12 × 16"


def test_first_sentence_changes_the_rows():
    at = load(PAGE)
    at.text_input(key="lesson_w_sentence").input("my cat")
    rerun(at)
    assert table(at, CROSS).shape == (2, 8)
    np.testing.assert_allclose(table(at, CROSS), engine(sentence="my cat")[1].weights, atol=1e-12)


def test_same_sentence_twice_gives_the_self_square():
    at = load(PAGE)
    at.text_input(key="cross_memory").input(DEFAULT_SENTENCE)
    rerun(at)
    np.testing.assert_allclose(table(at, CROSS), table(at, SELF), atol=1e-15)


def test_random_weights_d_k_and_seed():
    at = load(PAGE)
    at.radio(key="cross_weights").set_value("random")
    rerun(at)
    at.select_slider(key="cross_d_k").set_value(2)
    at.number_input(key="cross_seed").set_value(3)
    rerun(at)
    own, cross = engine(d_k=2, seed=3)
    np.testing.assert_allclose(table(at, CROSS), cross.weights, atol=1e-12)
    np.testing.assert_allclose(table(at, SELF), own.weights, atol=1e-12)
    assert table(at, Z).shape == (12, 2)


def test_d_model_slider_changes_the_weights():
    at = load(PAGE)
    before = table(at, CROSS)
    at.select_slider(key="cross_d_model").set_value(64)
    rerun(at)
    after = table(at, CROSS)
    assert not np.allclose(before, after)
    np.testing.assert_allclose(after, engine(d_model=64)[1].weights, atol=1e-12)


def test_empty_second_sentence_says_which_box():
    at = load(PAGE)
    at.text_input(key="cross_memory").input("  ")
    rerun(at)
    assert at.error and "Second sentence" in at.error[0].value and "empty" in at.error[0].value


def test_numbers_toggle_takes_the_numbers_off_the_cells():
    at = load(PAGE)
    assert len(heatmaps(at)) == 3 and all(f["numbers"] for f in heatmaps(at))
    at.toggle(key="cross_numbers").set_value(False)
    rerun(at)
    assert len(heatmaps(at)) == 3 and not any(f["numbers"] for f in heatmaps(at))


def test_second_sentence_is_one_line_and_a_long_paste_is_cut_with_a_notice():
    """The second box behaves like the lesson box: line breaks become spaces, and a paste over
    the limit is cut to it, with a notice (a text area dropped it without a word)."""
    at = load(PAGE)
    at.text_input(key="cross_memory").input("the\nrug")
    rerun(at)
    assert at.text_input(key="cross_memory").value == "the rug"
    assert table(at, CROSS).shape == (12, 2) and not at.warning
    long = " ".join(["rug"] * 200)  # 799 characters
    at.text_input(key="cross_memory").input(long)
    rerun(at)
    assert at.text_input(key="cross_memory").value == long[:MAX_SENTENCE_CHARS]
    assert any(f"Your text had {len(long)} characters" in w.value for w in at.warning)
