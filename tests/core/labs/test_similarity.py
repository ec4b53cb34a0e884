"""attn_core.labs.similarity: dot product against cosine, and retrieval as soft attention."""

import math

import numpy as np
import pytest

import attn_core
from attn_core import AttentionInputError, ShapeError
from attn_core.labs.similarity import (
    CATALOGUE,
    TOPICS,
    catalogue_values,
    compare,
    cosine_similarity,
    dot_terms,
    retrieve,
    text_vector,
)
from attn_core.text import embed
from naive import matmul_transposed


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_dots_match_a_loop_and_cosine_is_the_normalised_dot(seed):
    x = np.random.default_rng(seed).normal(size=(6, 5)) * np.arange(1, 7)[:, None]
    t = compare(x)
    np.testing.assert_allclose(t.dots, matmul_transposed(x, x), atol=1e-12)
    norms = [math.sqrt(sum(v * v for v in row)) for row in x]
    np.testing.assert_allclose(t.norms, norms)
    np.testing.assert_allclose(t.cosines * np.outer(norms, norms), t.dots, atol=1e-12)
    assert np.all(t.cosines >= -1) and np.all(t.cosines <= 1)
    np.testing.assert_allclose(np.diag(t.cosines), 1.0)


def test_cosine_ignores_length_dot_does_not():
    x = np.array([[1.0, 2.0], [10.0, 20.0], [-1.0, -2.0], [2.0, -1.0]])
    t = compare(x)
    assert t.cosines[0, 1] == pytest.approx(1.0) and t.dots[0, 1] == pytest.approx(50.0)
    assert t.cosines[0, 2] == pytest.approx(-1.0) and t.cosines[0, 3] == pytest.approx(0.0)


def test_cosine_stays_in_range_on_real_token_vectors():
    _, x = embed("The cat sat on the mat because the cat was tired.", 16)
    c = compare(x).cosines
    assert c.min() >= -1.0 and c.max() <= 1.0 and c.min() < 0 < c.max()


def test_a_row_of_zeros_gives_zero_cosines_not_nan():
    t = compare(np.array([[0.0, 0.0], [1.0, 1.0]]))
    assert np.isfinite(t.cosines).all() and np.all(t.cosines[0] == 0) and t.norms[0] == 0


def test_text_vector_is_the_mean_of_the_token_rows():
    tokens, v = text_vector("funny kittens", 8)
    _, x = embed("funny kittens", 8)
    np.testing.assert_allclose(v, x.mean(axis=0))
    assert len(tokens) == len(x)


def test_catalogue_values_are_topic_mixes():
    values = catalogue_values()
    assert values.shape == (len(CATALOGUE), len(TOPICS))
    np.testing.assert_allclose(values.sum(axis=1), 1.0)
    assert values[5, TOPICS.index("food")] == 0.3


def test_retrieval_is_softmax_of_cosines_mixing_the_values():
    rng = np.random.default_rng(0)
    keys, values, query = rng.normal(size=(5, 4)), rng.normal(size=(5, 3)), rng.normal(size=4)
    r = retrieve(query, keys, values, temperature=0.2)
    cos = [query @ k / np.linalg.norm(query) / np.linalg.norm(k) for k in keys]
    np.testing.assert_allclose(r.scores, cos)
    np.testing.assert_allclose(r.weights, attn_core.softmax(np.array(cos) / 0.2))
    expected = sum(w * v for w, v in zip(r.weights, values, strict=True))
    np.testing.assert_allclose(r.soft, expected)
    assert r.best == int(np.argmax(cos)) and np.array_equal(r.hard, values[r.best])


def test_a_cold_search_is_the_hard_search():
    rng = np.random.default_rng(1)
    keys, values, query = rng.normal(size=(4, 3)), rng.normal(size=(4, 2)), rng.normal(size=3)
    np.testing.assert_allclose(
        retrieve(query, keys, values, 1e-4).soft,
        values[retrieve(query, keys, values).best],
        atol=1e-9,
    )


@pytest.mark.parametrize(
    ("query", "title"),
    [("kitten videos", "Funny cats and kittens"), ("roman empire", "The history of ancient Rome")],
)
def test_the_catalogue_finds_the_obvious_video(query, title):
    keys = np.stack([text_vector(v.title, 384)[1] for v in CATALOGUE])
    r = retrieve(text_vector(query, 384)[1], keys, catalogue_values())
    assert CATALOGUE[r.best].title == title


def test_retrieval_rejects_mismatched_shapes_and_a_zero_query():
    with pytest.raises(ShapeError):
        retrieve(np.ones(3), np.ones((4, 2)), np.ones((4, 2)))
    with pytest.raises(ShapeError):
        retrieve(np.ones(2), np.ones((4, 2)), np.ones((3, 2)))
    with pytest.raises(AttentionInputError, match="zeros"):
        retrieve(np.zeros(2), np.ones((4, 2)), np.ones((4, 2)))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_cosine_matches_a_loop(seed):
    x = np.random.default_rng(seed).normal(size=(5, 7))
    expected = [
        [
            sum(a * b for a, b in zip(x[i], x[j], strict=True))
            / (math.sqrt(sum(a * a for a in x[i])) * math.sqrt(sum(b * b for b in x[j])))
            for j in range(5)
        ]
        for i in range(5)
    ]
    np.testing.assert_allclose(cosine_similarity(x), expected, atol=1e-12)


def test_cosine_ignores_length_and_handles_a_zero_row():
    x = np.array([[1.0, 2.0], [3.0, 6.0], [0.0, 0.0], [-2.0, -4.0]])
    c = cosine_similarity(x)
    np.testing.assert_allclose(c[0, 1], 1.0)
    np.testing.assert_allclose(c[0, 3], -1.0)
    assert np.all(c[2] == 0) and np.all(np.isfinite(c))


@pytest.mark.parametrize("seed", [0, 1])
def test_dot_terms_add_up_to_the_scores(seed):
    rng = np.random.default_rng(seed)
    q, k = rng.normal(size=(3, 4)), rng.normal(size=(5, 4))
    terms = dot_terms(q, k)
    assert terms.shape == (3, 5, 4)
    assert terms[1, 2, 3] == q[1, 3] * k[2, 3]
    np.testing.assert_allclose(terms.sum(axis=-1), matmul_transposed(q, k), atol=1e-12)


def test_dot_terms_need_a_shared_d_k():
    with pytest.raises(AttentionInputError, match="share d_k"):
        dot_terms(np.ones((2, 3)), np.ones((2, 4)))
