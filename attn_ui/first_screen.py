"""The home page's first screen: the learner's sentence and the attention weights A of the
lessons' head on it, live, with one sentence on what to notice (frame.home draws it above the
page list).

Kept small, because the home page is the first page a learner opens
(bench/bench_home.py times its first open against bench/bare_page.py).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import streamlit as st

from attn_lessons.i18n import N_, _
from attn_ui import compute, controls, frame, lang, page_style, registry
from attn_ui.figures.matrix import matrix

SPECIAL = ("[CLS]", "[SEP]")  # MiniLM's markers: the row to point at is a word's
WHERE = {
    -1: N_("the token right before it"),
    0: N_("itself"),
    1: N_("the token right after it"),
}


def strongest_row(weights: np.ndarray, tokens: Sequence[str]) -> tuple[int, int]:
    """(query i, key j) of the largest weight whose query and key are words, not markers;
    the largest weight of all when there is no such pair.

    weights : (T, T) A, rows sum to 1"""
    word = np.array([t not in SPECIAL for t in tokens])
    mine = np.where(word[:, None] & word[None, :], weights, -np.inf)
    if not np.isfinite(mine).any():
        mine = weights
    i, j = np.unravel_index(int(np.argmax(mine)), weights.shape)
    return int(i), int(j)


def notice(
    weights: np.ndarray, tokens: Sequence[str], text: dict[str, str], columns: bool = False
) -> str:
    """The sentence beside the figure: which word gives how much of its attention to which,
    read from the figure's own numbers. columns: the by-hand layout (queries are columns)."""
    i, j = strongest_row(weights, tokens)
    if j - i in WHERE:
        where = _(WHERE[j - i])
    elif j > i:
        where = _("the token {n} places after").format(n=abs(j - i))
    else:
        where = _("the token {n} places before").format(n=abs(j - i))
    row, column = _("“{token}” (row {i})"), _("“{token}” (column {i})")
    query, key = (column, row) if columns else (row, column)
    return frame.fill(
        text["What to notice"],
        query=query.format(token=frame.quoted(tokens[i]), i=i),
        key=key.format(token=frame.quoted(tokens[j]), i=j),
        line=_("column") if columns else _("row"),
        weight=f"{weights[i, j]:.2f}",
        where=where,
    )


@st.fragment
def live(text: dict[str, str]) -> None:
    """The sentence box and the figure, one fragment: a new sentence reruns only them."""
    controls.sentence_input()
    controls.weights_choice()  # the seeded random weights one click away, on the first screen
    s = controls.settings()
    with frame.stop_on_error(section=True):  # the page list below always draws
        run = compute.lesson_run(s)
        left, right = st.columns([3, 2])
        with left:
            matrix(
                run.trace.weights,
                run.tokens,
                run.tokens,
                name=_("A: how much each query attends to each key"),
                by_hand_name=_("A, by-hand layout (columns sum to 1)"),
                kind="weights",
                columns=s.columns,
                show_numbers=s.show_numbers,
                key="home_a",
            )
        with right:
            st.markdown(notice(run.trace.weights, run.tokens, text, s.columns))
            controls.weights_note(s)
            st.page_link(
                registry.page("overview").path,
                label=_("See every step on your sentence: the overview"),
                icon=":material/arrow_forward:",
                query_params=lang.link_params(),
            )


def home() -> None:
    """The home page (app.py): the learner's sentence and attention on it, live, then every
    page by group."""
    lang.start()
    st.set_page_config(page_title="Attention Lab", layout="wide")  # i18n: the app's name
    page_style.apply()
    frame.navigation()
    text = frame.lesson("home")
    st.title("Attention Lab")
    st.markdown(text["The idea"])
    live(text)
    links = lang.link_params()
    for group in registry.GROUPS:
        pages = registry.in_group(group)
        if not pages:
            continue
        st.header(_(group))  # h2 under the h1 title (axe-core's heading-order)
        st.markdown(text.get(group, ""))
        # three to a row, a row at a time: a phone stacks columns one under the other, and
        # must list the pages in lesson order (one st.columns for all read 1, 4, 7, 2, ...)
        for first in range(0, len(pages), 3):
            for col, p in zip(st.columns(3), pages[first : first + 3], strict=False):
                col.page_link(p.path, label=p.title, query_params=links)
