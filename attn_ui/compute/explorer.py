"""The model explorer's computation: MiniLM on the learner's text (cached, bounded), the heads
of a layer aggregated, the worked example's heads ranked, and what a long input lost.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from attn_core.pretrained import ModelTrace
from attn_core.text import MAX_TOKENS as LESSON_TOKENS
from attn_lessons.i18n import N_, _
from attn_ui import settings
from attn_ui.compute.model import Shown, minilm
from attn_ui.tables import labels

# i18n: the worked example's sentence is the model's input (EXAMPLE's tokens are in it): English
DEFAULT_SENTENCE = "The driver could not drive the car fast enough because it had a problem."
EXAMPLE = ("it", "car", "driver")  # the worked example: query, key, the other candidate
MAX_TOKENS = 128  # [CLS] and [SEP] included
MAX_CHARS = 4000  # a long paste is cut at MAX_TOKENS anyway; this only stops huge ones early


# ≤ 6 MB each
@st.cache_data(max_entries=8, show_spinner=Shown(N_("Running MiniLM on your sentence...")))
def model_run(sentence: str) -> ModelTrace:
    """Every layer and head of MiniLM on `sentence`. Raises the core's errors unchanged."""
    return minilm().run(sentence, max_tokens=MAX_TOKENS)


def head_matrix(attentions: np.ndarray, layer: int, head: int, how: str) -> np.ndarray:
    """(T, T): head `head` of `layer`, or the mean / elementwise max over the layer's heads."""
    a = attentions[layer]  # (n_heads, T, T)
    if how == "mean":
        return a.mean(axis=0)  # rows still sum to 1
    if how == "max":
        return a.max(axis=0)  # rows no longer sum to 1
    return a[head]


def dropped_text(run: ModelTrace) -> str:
    """The end of the sentence the model did not see ('' when nothing was cut)."""
    if not run.truncated:
        return ""
    end = run.offsets[-2][1]  # the last kept word piece ends here ([SEP] is last)
    return run.sentence[end:].strip()


def lesson_cut(run: ModelTrace) -> tuple[str, int]:
    """The sentence as the step pages can take it, and its number of word pieces: at most
    LESSON_TOKENS pieces and MAX_SENTENCE_CHARS characters, cut after a whole word (a word's
    pieces do not depend on its neighbours, so the cut text gives exactly the kept pieces)."""
    pieces = run.tokens[1:-1]
    if len(pieces) <= LESSON_TOKENS and len(run.sentence) <= settings.MAX_SENTENCE_CHARS:
        return run.sentence, len(pieces)

    def fits(k: int) -> bool:  # pieces[k] is the first one cut; offsets[k] the k-th kept
        whole = k == len(pieces) or not pieces[k].startswith("##")
        return whole and run.offsets[k][1] <= settings.MAX_SENTENCE_CHARS

    k = min(len(pieces), LESSON_TOKENS)
    while k > 1 and not fits(k):
        k -= 1
    return run.sentence[: run.offsets[k][1]][: settings.MAX_SENTENCE_CHARS], k


def link_table(run: ModelTrace, top: int = 5) -> pd.DataFrame:
    """The `top` heads giving the most weight from EXAMPLE[0] to EXAMPLE[1], with the weight
    to EXAMPLE[2] beside it and where EXAMPLE[1] ranks among the keys of the query's row
    (1: the largest weight). Its headings are shown: the page reads the columns by position."""
    query, key, other = (run.tokens.index(t) for t in EXAMPLE)
    rows = run.attentions[:, :, query, :]  # (layers, heads, T): the query's row in every head
    rank = 1 + (rows > rows[..., key : key + 1]).sum(axis=-1)  # (layers, heads)
    best = np.argsort(-rows[..., key], axis=None, kind="stable")[:top]
    layer, head = np.unravel_index(best, rank.shape)
    return pd.DataFrame(
        {
            _("layer"): layer,
            _("head"): head,
            f"{query} {EXAMPLE[0]} → {key} {EXAMPLE[1]}": rows[layer, head, key],
            f"{query} {EXAMPLE[0]} → {other} {EXAMPLE[2]}": rows[layer, head, other],
            _("{token}'s rank").format(token=EXAMPLE[1]): rank[layer, head],
        }
    )


def winners(run: ModelTrace, query: int) -> dict[str, int]:
    """For each key token: in how many heads it gets the largest weight of row `query`."""
    best = run.attentions[:, :, query, :].argmax(axis=-1).ravel()  # (layers * heads,)
    names = labels(run.tokens)
    counts = np.bincount(best, minlength=run.n_tokens)
    return {names[j]: int(counts[j]) for j in np.argsort(-counts, kind="stable") if counts[j]}
