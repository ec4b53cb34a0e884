"""The model explorer shows MiniLM's own weights for the learner's text, head by head."""

import numpy as np
import pytest

from attn_core.pretrained import load_minilm
from attn_ui.compute import explorer
from attn_ui.compute.explorer import DEFAULT_SENTENCE
from attn_ui.figures.heatmap import SCALES, decode
from tests.support.apptest import (
    canvas_charts,
    heatmap,
    heatmaps,
    load,
    open_tables,
    rerun,
    table,
)

OVERVIEW = "pages/00_Overview.py"
PAGE = "pages/30_Model_explorer.py"


@pytest.fixture(scope="module")
def model():
    return load_minilm()


def type_sentence(at, sentence: str):
    at.text_input(key="explorer_sentence").input(sentence)
    return rerun(at)


def test_head_view_is_the_models_head(model):
    at = load(PAGE)
    att = model.run(DEFAULT_SENTENCE).attentions
    np.testing.assert_array_equal(table(at, "Layer 0, head 0: A"), att[0, 0])
    at.selectbox(key="explorer_layer").select(4)
    at.selectbox(key="explorer_head").select(7)
    rerun(at)
    np.testing.assert_array_equal(table(at, "Layer 4, head 7: A"), att[4, 7])


def test_grid_is_every_head_with_the_chosen_one_framed(model):
    """The model view's 72 small heatmaps, layer by layer, are the model's weights."""
    at = load(PAGE)
    att = model.run(DEFAULT_SENTENCE).attentions  # (layers, heads, T, T)
    at.selectbox(key="explorer_layer").select(1)
    at.selectbox(key="explorer_head").select(3)
    small = [f for f in heatmaps(rerun(at)) if f.get("small")]
    assert len(small) == att.shape[0] * att.shape[1]
    for n, f in enumerate(small):
        np.testing.assert_array_equal(f["m"], att[divmod(n, att.shape[1])])
    assert [n for n, f in enumerate(small) if f.get("frame")] == [1 * att.shape[1] + 3]
    assert small[0]["scale"] == SCALES["weights_stretched"]


@pytest.mark.parametrize("how", ["mean", "max"])
def test_aggregate_over_a_layer_equals_numpy(model, how):
    at = load(PAGE)
    at.selectbox(key="explorer_layer").select(2)
    at.radio(key="explorer_how").set_value(how)
    rerun(at)
    heads = model.run(DEFAULT_SENTENCE).attentions[2].astype(np.float64)  # (12, T, T)
    want = heads.mean(axis=0) if how == "mean" else heads.max(axis=0)
    np.testing.assert_allclose(table(at, f"Layer 2, {how} over heads"), want, atol=1e-6)


def test_repeated_word_keeps_a_row_per_token(model):
    at = open_tables(type_sentence(load(PAGE), "the cat saw the cat"))
    exp = next(e for e in at.expander if "Layer 0, head 0" in e.label)
    assert list(exp.dataframe[0].value.index) == [
        "0 [CLS]",
        "1 the",
        "2 cat",
        "3 saw",
        "4 the",
        "5 cat",
        "6 [SEP]",
    ]
    np.testing.assert_array_equal(
        table(at, "Layer 0, head 0"), model.run("the cat saw the cat").attentions[0, 0]
    )


def test_long_input_is_cut_and_the_cut_is_shown():
    words = ["the", "cat", "sat"] * 50 + ["never", "seen"]  # 152 one-piece words
    at = type_sentence(load(PAGE), " ".join(words))
    notice = " ".join(w.value for w in at.warning)
    assert "154 tokens" in notice and "dropped" in notice  # 152 words + [CLS] + [SEP]
    assert at.code[0].value == " ".join(words[126:])  # 128 kept = [CLS] + 126 words + [SEP]
    assert table(at, "Layer 0, head 0").shape == (128, 128)


def test_empty_input_asks_for_a_word():
    at = type_sentence(load(PAGE), "   ")
    assert at.info and "at least one word" in at.info[0].value
    assert not at.error and not [e for e in at.expander if e.label.startswith("Numbers of")]


def test_text_the_vocabulary_lacks_shows_unk():
    at = open_tables(type_sentence(load(PAGE), "Привет 🙂 мир"))
    exp = next(e for e in at.expander if "Layer 0, head 0" in e.label)
    rows = list(exp.dataframe[0].value.index)
    assert rows[0] == "0 [CLS]" and any(r.endswith(" [UNK]") for r in rows)
    assert any("[UNK]" in c.value for c in at.caption)


def test_markup_in_the_text_reaches_the_figures_as_typed():
    """Every figure draws canvas text, never HTML: "<" stays "<" on the heatmaps and the
    lines, which join each query to the keys it weighs, the head view's own weights."""
    at = type_sentence(load(PAGE), "<b>bold</b> <i>x</i>")
    (lines,) = canvas_charts(at)
    assert "<" in lines["tokens"] and "&lt;" not in lines["tokens"]  # "<" is a token of its own
    assert all("<" in f["rows"] and "&lt;" not in f["rows"] for f in heatmaps(at))
    head = heatmap(at, "Layer 0, head 0: A")
    assert lines["tokens"] == head["rows"] and lines["query"] is None
    np.testing.assert_array_equal(decode(lines["weights"], head["shape"]), head["m"])


def test_worked_example_ranks_the_heads_by_it_to_car(model):
    at = load(PAGE)
    run = model.run(DEFAULT_SENTENCE)
    it, car = run.tokens.index("it"), run.tokens.index("car")
    to_car = run.attentions[:, :, it, car]  # (layers, heads)
    links = next(d.value for d in at.dataframe if "layer" in d.value.columns)
    assert links.iloc[0, 2] == to_car.max()
    assert (links.iloc[0]["layer"], links.iloc[0]["head"]) == np.unravel_index(
        to_car.argmax(), to_car.shape
    )
    assert list(links.iloc[:, 2]) == sorted(to_car.ravel(), reverse=True)[:5]
    at.button(key="explorer_example").click()
    rerun(at)
    layer, head = (int(links.iloc[0][c]) for c in ("layer", "head"))
    np.testing.assert_array_equal(
        table(at, f"Layer {layer}, head {head}: A"), run.attentions[layer, head]
    )
    assert at.selectbox(key="explorer_token").value == it


def test_open_in_lessons_shows_the_real_head_on_the_overview(model):
    at = load(PAGE)
    at.session_state["lesson"] = {"mask": "causal", "temperature": 2.0}  # reset by the button
    type_sentence(at, "the cat saw the dog")
    at.selectbox(key="explorer_layer").select(3)
    at.selectbox(key="explorer_head").select(1)
    rerun(at)
    at.button(key="explorer_open").click()
    rerun(at)
    assert at.title[0].value.startswith("Overview")
    at.switch_page(OVERVIEW)  # AppTest reruns the page it was last given; stay on this one
    want = model.run("the cat saw the dog").attentions[3, 1]
    np.testing.assert_allclose(table(at, "A = softmax"), want, atol=1e-6)
    assert table(at, "Q = X W_Q").shape == (7, 32)  # d_k = 32


def test_a_long_text_opens_in_the_lessons_cut_to_what_they_take(model):
    words = ["the", "cat", "sat"] * 50 + ["never", "seen"]
    at = type_sentence(load(PAGE), " ".join(words))
    assert any("first 64 of your 126 word pieces" in c.value for c in at.caption)
    at.button(key="explorer_open").click()
    rerun(at)
    assert at.title[0].value.startswith("Overview") and not at.error
    at.switch_page(OVERVIEW)
    want = model.run(" ".join(words[:64])).attentions[0, 0]  # 64 words + [CLS] + [SEP]
    np.testing.assert_allclose(table(at, "A = softmax"), want, atol=1e-6)


def test_sentence_survives_a_visit_to_another_page():
    at = type_sentence(load(PAGE), "a short visit")
    at.switch_page("pages/00_Overview.py")
    rerun(at)
    at.switch_page(PAGE)
    rerun(at)
    assert at.text_input(key="explorer_sentence").value == "a short visit"
    assert table(at, "Layer 0, head 0").shape == (5, 5)


def test_a_paste_over_the_limit_is_cut_with_a_notice_and_never_holds_a_newline():
    """The explorer's box is one line like the lesson box: a paste over MAX_CHARS is cut to it
    with a notice under the box, and line breaks become spaces."""
    text = "first line\nsecond " + "word " * 1000
    at = type_sentence(load(PAGE), text)
    box = at.text_input(key="explorer_sentence")
    assert box.value == text.replace("\n", " ")[: explorer.MAX_CHARS] and "\n" not in box.value
    assert any(f"Your text had {len(text)} characters" in w.value for w in at.warning)
    assert table(at, "Layer 0, head 0").shape == (explorer.MAX_TOKENS, explorer.MAX_TOKENS)
