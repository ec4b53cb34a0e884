"""What a page says about the learner's input when it can still show something: a sentence of
one token, characters the tokenizer does not know, a long text cut short. (An input the page
cannot use at all stops it: ``frame.stop_on_error``.)"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import streamlit as st

from attn_lessons.i18n import _, ngettext

if TYPE_CHECKING:  # the model reader loads tokenizers; the step pages need neither
    from attn_core.pretrained import ModelTrace


def warn_tokens(tokens: Sequence[str], x: np.ndarray | None = None) -> None:
    """Say in words when the sentence is too short to show much, or holds unknown characters
    (with `x`, the page's X, what is true of their rows for the weights in use)."""
    if len(tokens) == 1:
        st.warning(
            _(
                "Your sentence is a single token. It can only attend to itself, so its one "
                "weight is 1. Type a few more words to see attention choose."
            ),
            icon=":material/info:",
        )
    note = unknown_note(tokens, x)
    if note:
        st.warning(note, icon=":material/info:")


def unknown_note(tokens: Sequence[str], x: np.ndarray | None = None) -> str | None:
    """What `warn_tokens` says of [UNK] tokens, or None when there are none.

    Every [UNK] looks up one word vector. Whether their rows of X are the same depends on
    the weights: a real model's X adds each token's position (and, above layer 0, the
    context), so its [UNK] rows differ; the toy weights' X is the word vector alone
    (attn_core.text.embed), where they are identical. Given `x` (T, d_model), the note says
    which is true here; without it, both."""
    unknown = [i for i, t in enumerate(tokens) if t == "[UNK]"]
    n = len(unknown)
    if not n:
        return None
    note = ngettext(
        "{n} of the {total} tokens is [UNK]: it stands for characters the tokenizer does not "
        "know (emoji, some scripts).",
        "{n} of the {total} tokens are [UNK]: it stands for characters the tokenizer does not "
        "know (emoji, some scripts).",
        n,
    ).format(n=n, total=len(tokens))
    if n == 1:
        return note
    rows = None if x is None else np.asarray(x)[unknown]
    if rows is None:
        shared = _(
            "All {n} look up the same word vector; their rows of X are identical only where "
            "nothing is added to it. A real model adds each token's position (and its layers "
            "mix in the context), so there the rows differ."
        )
    elif np.all(rows == rows[0]):
        shared = _(
            "All {n} look up the same word vector, and with these weights nothing is added to "
            "it: their rows of X are identical."
        )
    else:
        shared = _(
            "All {n} look up the same word vector, but their rows of X differ: these weights "
            "add each token's position (and its layers mix in the context)."
        )
    return f"{note} {shared.format(n=n)}"


def describe_tokens(run: ModelTrace, dropped: str) -> None:
    """How many tokens the model read; what a long text lost (`dropped`), as plain text
    (never rendered as Markdown)."""
    t = run.n_tokens
    if run.truncated:
        st.warning(
            _(
                "Your text has {n} tokens, [CLS] and [SEP] included; this page runs the model "
                "on the first {t}, so the last {dropped} are dropped. The part the model does "
                "not see:"
            ).format(n=run.n_tokens_original, t=t, dropped=run.n_tokens_original - t)
        )
        st.code(dropped, language=None, wrap_lines=True)
    line = _("{t} tokens: [CLS], {pieces} word pieces, [SEP].").format(t=t, pieces=t - 2)
    if "[UNK]" in run.tokens:
        line += " " + _("[UNK] stands for a piece the model's vocabulary does not contain.")
    st.caption(line)
