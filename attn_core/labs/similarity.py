"""Dot product against cosine similarity, and query / key / value as a search.

    dot(a, b) = a . b = |a| |b| cos(a, b),      cos(a, b) = a . b / (|a| |b|)  in [-1, 1]

The dot product is an unnormalised cosine: it grows with the vectors' lengths, the cosine
sees only their directions. Retrieval: a query is compared with every key (a video's title);
soft retrieval returns the weighted mix of the values (the videos' contents) that the
softmax of the scores describes, hard retrieval the value of the best-matching key.
``dot_terms`` spells a score out as the products it adds up.
Tokens are rows, as in ``attn_core.attention``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attn_core.errors import AttentionInputError, ShapeError, as_matrix, positive_number
from attn_core.softmax import softmax
from attn_core.text import embed


def cosine_similarity(x) -> np.ndarray:
    """Cosine of the angle between every pair of rows.

    cos(x_i, x_j) = x_i . x_j / (|x_i| |x_j|),  in [-1, 1]

    Parameters
    ----------
    x : (T, d)

    Returns
    -------
    (T, T), 1 on the diagonal. A row of zeros has no direction: its entries are 0.
    """
    x = as_matrix(x, "x")
    norms = np.sqrt(np.einsum("td,td->t", x, x))  # (T,)
    unit = x / np.where(norms > 0, norms, 1.0)[:, None]  # zero rows stay zero
    return np.clip(unit @ unit.T, -1.0, 1.0)  # (T, d) x (d, T) -> (T, T)


def dot_terms(q, k) -> np.ndarray:
    """The products that a dot-product score adds up.

    terms[i, j, f] = q[i, f] * k[j, f],   sum_f terms[i, j, f] = (q k^T)[i, j]

    Parameters
    ----------
    q : (T_q, d_k)
    k : (T_k, d_k)

    Returns
    -------
    (T_q, T_k, d_k)
    """
    q, k = as_matrix(q, "q"), as_matrix(k, "k")
    if q.shape[1] != k.shape[1]:
        raise AttentionInputError.said(
            "q and k must share d_k to be multiplied: q is {q_shape}, k is {k_shape}.",
            q_shape=q.shape,
            k_shape=k.shape,
        )
    return q[:, None, :] * k[None, :, :]  # (T_q, 1, d_k) * (1, T_k, d_k) -> (T_q, T_k, d_k)


TOPICS = ("food", "animals", "coding", "sport", "music", "travel", "health", "history")


@dataclass(frozen=True)
class Video:
    """One catalogue entry: its title is the key, its topic mix (summing to 1) the value."""

    title: str
    topics: tuple[tuple[str, float], ...]


CATALOGUE = (
    Video("Baking sourdough bread at home", (("food", 1.0),)),
    Video("Funny cats and kittens", (("animals", 1.0),)),
    Video("Learn Python programming in ten minutes", (("coding", 1.0),)),
    Video("Football highlights of the week", (("sport", 1.0),)),
    Video("Piano lesson for beginners", (("music", 1.0),)),
    Video("Travel guide to Japan", (("travel", 0.7), ("food", 0.3))),
    Video("Yoga for a healthy back", (("health", 0.7), ("sport", 0.3))),
    Video("The history of ancient Rome", (("history", 0.8), ("travel", 0.2))),
)


@dataclass(frozen=True, eq=False)
class SimilarityTrace:
    """x : (T, d)   norms : (T,) |x_i|   dots : (T, T) x_i . x_j   cosines : (T, T) in [-1, 1]"""

    x: np.ndarray
    norms: np.ndarray
    dots: np.ndarray
    cosines: np.ndarray


def compare(x) -> SimilarityTrace:
    """Every pair of rows of x, by dot product and by cosine.

    dots = x x^T,   cosines[i, j] = dots[i, j] / (|x_i| |x_j|)  (0 for a row of zeros)

    x : (T, d)
    """
    x = as_matrix(x, "x")
    dots = x @ x.T  # (T, d) x (d, T) -> (T, T)
    return SimilarityTrace(x, np.sqrt(np.diag(dots)), dots, cosine_similarity(x))


def text_vector(text: str, d: int) -> tuple[tuple[str, ...], np.ndarray]:
    """A piece of text as one vector: the mean of its tokens' rows from ``text.embed``.

    Returns the tokens and the (d,) mean. Raises the errors of ``text.embed`` (empty text,
    too many tokens, d out of range).
    """
    tokens, x = embed(text, d)
    return tokens, x.mean(axis=0)


def catalogue_values(videos=CATALOGUE) -> np.ndarray:
    """(n_videos, len(TOPICS)): row i is video i's topic mix, the value that search returns."""
    out = np.zeros((len(videos), len(TOPICS)))
    for i, video in enumerate(videos):
        for topic, share in video.topics:
            out[i, TOPICS.index(topic)] = share
    return out


@dataclass(frozen=True, eq=False)
class RetrievalTrace:
    """One query against a catalogue.

    query : (d,)   keys : (N, d)   values : (N, m)
    scores : (N,) cos(query, key_i)    weights : (N,) softmax(scores / tau)
    soft : (m,) sum_i weights_i values_i     best : int, argmax of the scores
    hard : (m,) values[best]
    """

    query: np.ndarray
    keys: np.ndarray
    values: np.ndarray
    scores: np.ndarray
    weights: np.ndarray
    soft: np.ndarray
    best: int
    hard: np.ndarray
    temperature: float


def retrieve(query, keys, values, temperature: float = 0.1) -> RetrievalTrace:
    """Soft and hard retrieval: score every key by cosine, mix the values by softmax.

    weights = softmax(cos(query, keys) / tau),   soft = weights values,   hard = values[argmax]

    Parameters
    ----------
    query : (d,)
    keys : (N, d)
    values : (N, m)
    temperature : tau > 0; cosines lie in [-1, 1], so a small tau (0.1) makes them decisive

    Returns
    -------
    RetrievalTrace
    """
    query, keys = as_matrix(query, "query", ndim=1), as_matrix(keys, "keys")
    values, tau = as_matrix(values, "values"), positive_number(temperature, "temperature")
    if keys.shape[1] != query.shape[0] or keys.shape[0] != values.shape[0]:
        raise ShapeError.said(
            "keys must be (N, {width}) and values (N, m) with the same N; got "
            "{keys_shape} and {values_shape}.",
            width=query.shape[0],
            keys_shape=keys.shape,
            values_shape=values.shape,
        )
    if not np.any(query):
        raise AttentionInputError.said(
            "The query is a vector of zeros: it points nowhere. Type words."
        )
    scores = cosine_similarity(np.vstack([query, keys]))[0, 1:]  # (N,)
    weights = softmax(scores, temperature=tau)
    best = int(scores.argmax())
    return RetrievalTrace(
        query, keys, values, scores, weights, weights @ values, best, values[best], tau
    )
