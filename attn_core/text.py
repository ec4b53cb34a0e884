"""A sentence becomes the lesson's X: one row of d features per token.

The tokens are MiniLM's WordPiece tokens ("playing", "un", "##bel", "[UNK]"), without [CLS]
and [SEP]; a word that appears twice gets two rows.

``source="pretrained"``: each row is the token's learned vector from MiniLM's embedding table
(30522 x 384), centred on the table's mean and projected onto the table's top-d principal
directions -- one fixed projection, computed once from the table -- then divided by one number
so the entries have variance 1 on average over the vocabulary. The projection keeps the
directions along which the table varies most, so related words (watch / movie) stay closer
than unrelated ones.

``source="random"``: each distinct token gets N(0, 1) features drawn from
``np.random.default_rng([seed, token_id])``: the same token, seed and d always give the same
row, in any sentence.

``repeated_tokens`` finds the words that occur twice and whether their rows are equal.
The tokenizer is MiniLM's (``attn_core.pretrained``), loaded on the first sentence.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from attn_core.errors import AttentionInputError, as_matrix, whole_number
from attn_core.pretrained import load_minilm

MAX_TOKENS = 64
SOURCES = ("pretrained", "random")


def embed(
    sentence: str, d: int, *, source: str = "pretrained", seed: int = 0
) -> tuple[tuple[str, ...], np.ndarray]:
    """Turn a sentence into T token rows of d features.

    Parameters
    ----------
    sentence : str       at most 64 tokens
    d : int              features per token, 1 to 384 (d_model in the lesson)
    source : {"pretrained", "random"}
    seed : int           used by ``source="random"`` only, >= 0

    Returns
    -------
    tokens : tuple of T str   WordPiece tokens in order: "unbelievably" gives
                              ("un", "##bel", "##ie", "##va", "##bly")
    x : (T, d) float64        row i belongs to tokens[i]
    """
    _check_options(d, source, seed)
    tokens, ids = _tokenize(sentence)
    distinct, row_of = np.unique(ids, return_inverse=True)  # a repeated token: the same row
    if source == "pretrained":
        mean, basis, scale = _principal_directions()
        rows = load_minilm().word_embeddings[distinct] - mean  # (n, 384), centred
        x = rows @ basis[:, :d] / scale[d - 1]  # (n, 384) x (384, d) -> (n, d)
    else:
        x = np.stack([np.random.default_rng([seed, int(i)]).standard_normal(d) for i in distinct])
    return tokens, x[row_of]  # (n, d) -> (T, d)


@dataclass(frozen=True)
class Repeat:
    """A token that occurs more than once: its positions and whether its rows of x are equal."""

    token: str
    positions: tuple[int, ...]
    identical: bool


def repeated_tokens(tokens, x) -> tuple[Repeat, ...]:
    """Tokens that occur more than once, in order of first occurrence.

    tokens : T strings   x : (T, d)
    ``identical`` is True when every occurrence has exactly the same row of x (a plain
    embedding lookup); positions added to x make the rows differ.
    """
    tokens = [str(t) for t in tokens]
    x = as_matrix(x, "x")
    if len(tokens) != x.shape[0]:
        raise AttentionInputError.said(
            "{tokens} tokens but x has {rows} rows.", tokens=len(tokens), rows=x.shape[0]
        )
    where: dict[str, list[int]] = {}
    for i, t in enumerate(tokens):
        where.setdefault(t, []).append(i)
    return tuple(
        Repeat(t, tuple(ix), bool(np.all(x[ix] == x[ix[0]])))
        for t, ix in where.items()
        if len(ix) > 1
    )


def _check_options(d, source, seed) -> None:
    if source not in SOURCES:
        raise AttentionInputError.said(
            "source must be 'pretrained' or 'random', got {source}.", source=repr(source)
        )
    width = load_minilm().d_model
    whole_number(d, "d", 1, width)  # width: the size of the model's word vectors
    whole_number(seed, "seed", 0)


def _tokenize(sentence) -> tuple[tuple[str, ...], np.ndarray]:
    if not isinstance(sentence, str):
        raise AttentionInputError.said(
            "The sentence must be text, got {kind}.", kind=type(sentence).__name__
        )
    enc = load_minilm().tokenizer.encode(sentence, add_special_tokens=False)
    if not enc.ids:
        raise AttentionInputError.said("The sentence is empty: type at least one word.")
    if len(enc.ids) > MAX_TOKENS:
        raise AttentionInputError.said(
            "The sentence has {tokens} tokens (words and pieces of words); this lesson "
            "works with at most {max_tokens}. Shorten the sentence.",
            tokens=len(enc.ids),
            max_tokens=MAX_TOKENS,
        )
    return tuple(enc.tokens), np.array(enc.ids)


@lru_cache(maxsize=1)
def _principal_directions() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """PCA of the word-embedding table, computed once (about 0.1 s), read-only.

    Returns
    -------
    mean : (384,)           the table's mean row
    basis : (384, 384)      column j is the j-th principal direction, by falling variance;
                            signed so that its largest entry is positive (reproducible)
    scale : (384,)          scale[d - 1] = sqrt(mean variance along the first d directions)
    """
    table = load_minilm().word_embeddings  # (V, 384) float32
    n = table.shape[0]
    mean = table.mean(axis=0, dtype=np.float64)
    cov = (table.T @ table).astype(np.float64) / n - np.outer(mean, mean)  # (384, 384)
    variances, basis = np.linalg.eigh(cov)  # ascending
    variances, basis = variances[::-1], basis[:, ::-1]
    signs = np.sign(basis[np.abs(basis).argmax(axis=0), np.arange(basis.shape[1])])
    basis = basis * signs
    scale = np.sqrt(np.cumsum(variances) / np.arange(1, len(variances) + 1))
    for a in (mean, basis, scale):
        a.flags.writeable = False
    return mean, basis, scale
