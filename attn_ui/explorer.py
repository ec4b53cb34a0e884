"""The model explorer's data: MiniLM on the learner's sentence (cached, bounded), the heads of a
layer aggregated, a worked example ranked, and what a long input lost. Figures: explorer_charts.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from attn_core.pretrained import ModelTrace
from attn_core.text import MAX_TOKENS as LESSON_TOKENS
from attn_ui import compute, controls
from attn_ui.figures.matrix import labels

DEFAULT_SENTENCE = "The driver could not drive the car fast enough because it had a problem."
EXAMPLE = ("it", "car", "driver")  # the worked example: query, key, the other candidate
MAX_TOKENS = 128  # [CLS] and [SEP] included
MAX_CHARS = 4000  # a long paste is cut at MAX_TOKENS anyway; this only stops huge ones early
AGGREGATES = {
    "head": "One head",
    "mean": "Mean over the layer's heads",
    "max": "Max over the layer's heads",
}


@st.cache_data(max_entries=8, show_spinner="Running MiniLM on your sentence...")  # ≤ 6 MB each
def model_run(sentence: str) -> ModelTrace:
    """Every layer and head of MiniLM on `sentence`. Raises the core's errors unchanged."""
    return compute.minilm().run(sentence, max_tokens=MAX_TOKENS)


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
    if len(pieces) <= LESSON_TOKENS and len(run.sentence) <= controls.MAX_SENTENCE_CHARS:
        return run.sentence, len(pieces)

    def fits(k: int) -> bool:  # pieces[k] is the first one cut; offsets[k] the k-th kept
        whole = k == len(pieces) or not pieces[k].startswith("##")
        return whole and run.offsets[k][1] <= controls.MAX_SENTENCE_CHARS

    k = min(len(pieces), LESSON_TOKENS)
    while k > 1 and not fits(k):
        k -= 1
    return run.sentence[: run.offsets[k][1]][: controls.MAX_SENTENCE_CHARS], k


def link_table(run: ModelTrace, top: int = 5) -> pd.DataFrame:
    """The `top` heads giving the most weight from EXAMPLE[0] to EXAMPLE[1], with the weight
    to EXAMPLE[2] beside it and where EXAMPLE[1] ranks among the keys of the query's row
    (1: the largest weight)."""
    query, key, other = (run.tokens.index(t) for t in EXAMPLE)
    rows = run.attentions[:, :, query, :]  # (layers, heads, T): the query's row in every head
    rank = 1 + (rows > rows[..., key : key + 1]).sum(axis=-1)  # (layers, heads)
    best = np.argsort(-rows[..., key], axis=None, kind="stable")[:top]
    layer, head = np.unravel_index(best, rank.shape)
    return pd.DataFrame(
        {
            "layer": layer,
            "head": head,
            f"{query} {EXAMPLE[0]} → {key} {EXAMPLE[1]}": rows[layer, head, key],
            f"{query} {EXAMPLE[0]} → {other} {EXAMPLE[2]}": rows[layer, head, other],
            f"{EXAMPLE[1]}'s rank": rank[layer, head],
        }
    )


def winners(run: ModelTrace, query: int) -> dict[str, int]:
    """For each key token: in how many heads it gets the largest weight of row `query`."""
    best = run.attentions[:, :, query, :].argmax(axis=-1).ravel()  # (layers * heads,)
    names = labels(run.tokens)
    counts = np.bincount(best, minlength=run.n_tokens)
    return {names[j]: int(counts[j]) for j in np.argsort(-counts, kind="stable") if counts[j]}


def describe_tokens(run: ModelTrace) -> None:
    """How many tokens; what a long text lost, as plain text (never rendered as Markdown)."""
    t = run.n_tokens
    if run.truncated:
        st.warning(
            f"Your text has {run.n_tokens_original} tokens, [CLS] and [SEP] included; this page "
            f"runs the model on the first {t}, so the last {run.n_tokens_original - t} are "
            "dropped. The part the model does not see:"
        )
        st.code(dropped_text(run), language=None, wrap_lines=True)
    unk = " [UNK] stands for a piece the model's vocabulary does not contain."
    st.caption(
        f"{t} tokens: [CLS], {t - 2} word pieces, [SEP]." + (unk if "[UNK]" in run.tokens else "")
    )


def worked_example() -> None:
    """The heads ranked by the weight from "it" to "car" in DEFAULT_SENTENCE, which key wins
    the row of "it" in how many heads, and a button that opens the best head above."""
    ex = model_run(DEFAULT_SENTENCE)
    links = link_table(ex)
    st.dataframe(links.style.format(precision=3), hide_index=True, key="explorer_links")
    it = ex.tokens.index(EXAMPLE[0])
    wins = ", ".join(f"{k}: {v}" for k, v in winners(ex, it).items())
    n = ex.attentions.shape[0] * ex.attentions.shape[1]
    st.caption(
        f"Which key gets the largest weight in the row of “it”, over the {n} heads "
        f"(token: number of heads): {wins}."
    )
    layer, head = int(links["layer"].iloc[0]), int(links["head"].iloc[0])
    st.button(
        f"Show layer {layer}, head {head} above, on this sentence",
        key="explorer_example",
        on_click=choose,
        kwargs={
            "sentence": DEFAULT_SENTENCE,
            "layer": layer,
            "head": head,
            "how": "head",
            "token": it,
        },
    )


def remembered(name: str, default) -> dict:
    """Widget kwargs (key explorer_<name>) whose value survives a visit to another page:
    Streamlit drops the state of widgets a page does not draw, so it is kept in a plain dict."""
    key = f"explorer_{name}"
    store = st.session_state.setdefault("explorer", {})
    if key not in st.session_state:
        st.session_state[key] = store.get(name, default)

    def keep() -> None:
        st.session_state["explorer"][name] = st.session_state[key]

    return {"key": key, "on_change": keep}


def choose(**values) -> None:
    """Set explorer widgets from code (a callback: before the widgets are drawn)."""
    for name, value in values.items():
        st.session_state[f"explorer_{name}"] = value
        st.session_state.setdefault("explorer", {})[name] = value


def open_in_lessons(run: ModelTrace, layer: int, head: int) -> None:
    """The step pages show this head on the learner's sentence (as much as they take),
    unmasked, at τ = 1: as the model computes it."""
    controls.update(
        weights="pretrained",
        layer=layer,
        head=head,
        sentence=lesson_cut(run)[0],
        mask="none",
        temperature=1.0,
    )
    st.switch_page("pages/00_Overview.py")
