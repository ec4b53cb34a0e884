"""Lab 43, additive attention: alignment, close-up and cost tables are the core's."""

import numpy as np
import pytest

import attn_core
from attn_core.labs import additive
from attn_core.text import embed
from tests.support.apptest import canvas_chart, chart_values, frame, load, rerun, table
from tests.support.bad_input import no_html

PAGE = "pages/43_Additive.py"
SOURCE = "The agreement on the European Economic Area was signed in August 1992."
TARGET = "L'accord sur la zone économique européenne a été signé en août 1992."


def core(source=SOURCE, target=TARGET, d=16, d_a=16, seed=0):
    _, h = embed(source, d)
    _, s = embed(target, d)
    add = additive.additive_alignment(s, h, *additive.additive_params(d, d, d_a, seed=seed))
    return add, attn_core.attention(s, h, h)


def test_alignments_are_the_core_and_rows_are_distributions(loaded):
    at = loaded(PAGE)
    add, dot = core()
    got = table(at, "additive: softmax")
    assert got.shape == (22, 13)  # 22 target pieces, 13 source pieces
    np.testing.assert_allclose(got, add.weights, rtol=1e-12)
    np.testing.assert_allclose(got.sum(axis=1), 1.0)
    np.testing.assert_allclose(table(at, "dot product: softmax"), dot.weights, rtol=1e-12)


def test_seed_changes_only_the_additive_network():
    at = load(PAGE)
    dot_before, add_before = table(at, "dot product: softmax"), table(at, "additive: softmax")
    at.number_input(key="additive_seed").set_value(3)
    rerun(at)
    np.testing.assert_allclose(table(at, "additive: softmax"), core(seed=3)[0].weights)
    assert not np.allclose(table(at, "additive: softmax"), add_before)
    np.testing.assert_array_equal(table(at, "dot product: softmax"), dot_before)


def test_picked_target_token_shows_its_scores_and_hidden_layer():
    at = load(PAGE)
    at.selectbox(key="additive_pos").select(5)  # "zone"
    rerun(at)
    add, dot = core()
    fig = canvas_chart(at, "Scores over the source tokens")
    np.testing.assert_allclose(chart_values(fig, "additive e_t,i"), add.scores[5], rtol=1e-12)
    np.testing.assert_allclose(chart_values(fig, "dot product s·h / √d"), dot.scaled[5], rtol=1e-12)
    hidden = table(at, "hidden layer")
    np.testing.assert_allclose(hidden, add.hidden[5], rtol=1e-12)
    assert np.all(np.abs(hidden) < 1)  # tanh


def test_sizes_reach_the_network_and_the_cost_table():
    at = load(PAGE)
    cost = frame(at, "multiply-adds")
    c = additive.score_costs(22, 13, 16, 16)
    np.testing.assert_array_equal(cost["multiply-adds"], [c.dot, c.additive, c.additive_naive])
    assert c.dot == 22 * 13 * 16
    at.select_slider(key="additive_d_a").set_value(4)
    at.select_slider(key="additive_d").set_value(32)
    rerun(at)
    assert table(at, "hidden layer").shape == (13, 4)
    np.testing.assert_allclose(table(at, "additive: softmax"), core(d=32, d_a=4)[0].weights)
    c = additive.score_costs(22, 13, 32, 4)
    cost = frame(at, "multiply-adds")
    np.testing.assert_array_equal(cost["multiply-adds"], [c.dot, c.additive, c.additive_naive])
    np.testing.assert_array_equal(cost["tanh"], [0, c.tanh, c.tanh])
    assert any(f"**{c.additive / c.dot:.2g}×**" in m.value for m in at.markdown)


def test_own_sentences_and_html_are_plain_text():
    at = load(PAGE)
    at.text_input(key="additive_source").input("<b>the cat</b> sat")
    at.text_input(key="additive_target").input("le chat **assis**")
    rerun(at)
    add, dot = core("<b>the cat</b> sat", "le chat **assis**")
    np.testing.assert_allclose(table(at, "additive: softmax"), add.weights, rtol=1e-12)
    no_html(at)


@pytest.mark.parametrize(
    ("key", "text", "where", "word"),
    [
        ("additive_source", "", "Source sentence", "empty"),
        ("additive_target", "  ", "Target sentence", "empty"),
        ("additive_target", " ".join(["a"] * 100), "Target sentence", "at most 64"),
    ],
)
def test_bad_sentence_says_which_one_and_what_to_do(key, text, where, word):
    at = load(PAGE)
    at.text_input(key=key).input(text)
    rerun(at)
    assert at.error and at.error[0].value.startswith(where) and word in at.error[0].value
    assert not at.exception
