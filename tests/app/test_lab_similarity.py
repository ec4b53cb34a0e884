"""Lab 42, similarity: dot and cosine on the learner's tokens, and the search, as the core."""

import numpy as np
import pytest

from attn_core.labs import similarity
from attn_core.text import embed
from attn_ui.settings import DEFAULT_SENTENCE
from tests.support.apptest import (
    canvas_chart,
    chart_values,
    frame,
    load,
    rerun,
    table,
    type_sentence,
)
from tests.support.bad_input import no_html

PAGE = "pages/42_Similarity.py"
OWN = "Type my own..."


def core(sentence=DEFAULT_SENTENCE, d=64):
    return similarity.compare(embed(sentence, d)[1])


def search(query="kitten videos", d=64, tau=0.1):
    keys = np.stack([similarity.text_vector(v.title, d)[1] for v in similarity.CATALOGUE])
    q = similarity.text_vector(query, d)[1]
    return similarity.retrieve(q, keys, similarity.catalogue_values(), tau)


def results(at):
    return frame(at, "score: cosine")


def test_dot_and_cosine_heatmaps_are_the_core_and_cosine_is_normalised(loaded):
    at = loaded(PAGE)
    t = core()
    dots, cos = table(at, "dot product x_i · x_j"), table(at, "cosine x_i · x_j")
    np.testing.assert_allclose(dots, t.dots, rtol=1e-12)
    np.testing.assert_allclose(cos, t.cosines, rtol=1e-12, atol=1e-15)
    assert cos.min() >= -1 and cos.max() <= 1 and cos.min() < 0
    np.testing.assert_allclose(np.diag(cos), 1.0)
    np.testing.assert_allclose(np.diag(dots), t.norms**2)  # a token with itself: |x|²
    np.testing.assert_allclose(chart_values(canvas_chart(at, "Length |x_i|"), "|x|"), t.norms)


def test_pair_table_shows_dot_as_lengths_times_cosine():
    at = load(PAGE)
    at.selectbox(key="similarity_i").select(2)
    at.selectbox(key="similarity_j").select(5)
    rerun(at)
    pair = frame(at, "value")["value"].to_numpy()
    t = core()
    lengths = t.norms[2] * t.norms[5]
    np.testing.assert_allclose(
        pair, [t.norms[2], t.norms[5], t.cosines[2, 5], lengths * t.cosines[2, 5], t.dots[2, 5]]
    )
    assert pair[3] == pytest.approx(pair[4])


def test_d_slider_and_sentence_change_the_vectors():
    at = load(PAGE)
    at.select_slider(key="similarity_d").set_value(8)
    rerun(at)
    np.testing.assert_allclose(table(at, "dot product"), core(d=8).dots, rtol=1e-12)
    type_sentence(at, "the cat saw the cat")
    cos = table(at, "cosine x_i")
    assert cos.shape == (5, 5) and cos[1, 4] == pytest.approx(1.0)
    np.testing.assert_allclose(table(at, "dot product"), core("the cat saw the cat", 8).dots)
    np.testing.assert_allclose(results(at)["weight"], search(d=8).weights, rtol=1e-12)


def test_default_search_returns_the_core_soft_and_hard_answers(loaded):
    at = loaded(PAGE)
    r = search()
    df = results(at)
    assert list(df["key: title"]) == [v.title for v in similarity.CATALOGUE]
    np.testing.assert_allclose(df["score: cosine"], r.scores, rtol=1e-12)
    np.testing.assert_allclose(df["weight"], r.weights, rtol=1e-12)
    assert df["best match"].iloc[r.best] == "◀ best"
    assert similarity.CATALOGUE[r.best].title == "Funny cats and kittens"
    value = canvas_chart(at, "What comes back")
    np.testing.assert_allclose(chart_values(value, "soft: weighted mix of values"), r.soft)
    np.testing.assert_array_equal(chart_values(value, "hard: value of the best match"), r.hard)
    which = canvas_chart(at, "Which videos come back")
    np.testing.assert_allclose(chart_values(which, "soft: softmax weight"), r.weights)
    assert which["x"]["labels"] == [v.title for v in similarity.CATALOGUE]


def test_temperature_softens_the_answer():
    at = load(PAGE)
    at.select_slider(key="similarity_tau").set_value(1.0)
    rerun(at)
    r = search(tau=1.0)
    np.testing.assert_allclose(results(at)["weight"], r.weights, rtol=1e-12)
    assert r.weights.max() < search().weights.max()
    np.testing.assert_allclose(
        chart_values(canvas_chart(at, "What comes back"), "soft: weighted mix of values"), r.soft
    )


@pytest.mark.parametrize("query", ["roman empire", "funny <b>dogs</b> **now**"])
def test_own_query_is_searched_and_never_rendered(query):
    at = load(PAGE)
    at.selectbox(key="similarity_pick").select(OWN)
    rerun(at)
    at.text_input(key="similarity_query").input(query)
    rerun(at)
    np.testing.assert_allclose(results(at)["weight"], search(query).weights, rtol=1e-12)
    no_html(at)
    assert not any("dogs" in m.value for m in at.markdown)


def test_empty_query_and_empty_sentence_get_messages():
    at = load(PAGE)
    at.selectbox(key="similarity_pick").select(OWN)
    rerun(at)
    at.text_input(key="similarity_query").input("  ")
    rerun(at)
    assert any(e.value.startswith("Your query") and "empty" in e.value for e in at.error)
    type_sentence(at, "")
    assert any(e.value.startswith("Your sentence:") and "empty" in e.value for e in at.error)
    assert not at.exception
