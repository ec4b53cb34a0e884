"""What a page says about the learner's input when it can still show something: a sentence of
one token, characters the tokenizer does not know, a long text cut short. (An input the page
cannot use at all stops it: ``frame.stop_on_error``.)"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import streamlit as st

if TYPE_CHECKING:  # the model reader loads tokenizers; the step pages need neither
    from attn_core.pretrained import ModelTrace


def warn_tokens(tokens: Sequence[str]) -> None:
    """Say in words when the sentence is too short to show much, or holds unknown characters."""
    if len(tokens) == 1:
        st.warning(
            "Your sentence is a single token. It can only attend to itself, so its one weight "
            "is 1. Type a few more words to see attention choose.",
            icon=":material/info:",
        )
    unknown = list(tokens).count("[UNK]")
    if unknown:
        st.warning(
            f"{unknown} of the {len(tokens)} tokens are [UNK]: the tokenizer does not know those "
            "characters (emoji, some scripts), so they all get the same vector.",
            icon=":material/info:",
        )


def describe_tokens(run: ModelTrace, dropped: str) -> None:
    """How many tokens the model read; what a long text lost (`dropped`), as plain text
    (never rendered as Markdown)."""
    t = run.n_tokens
    if run.truncated:
        st.warning(
            f"Your text has {run.n_tokens_original} tokens, [CLS] and [SEP] included; this page "
            f"runs the model on the first {t}, so the last {run.n_tokens_original - t} are "
            "dropped. The part the model does not see:"
        )
        st.code(dropped, language=None, wrap_lines=True)
    unk = " [UNK] stands for a piece the model's vocabulary does not contain."
    st.caption(
        f"{t} tokens: [CLS], {t - 2} word pieces, [SEP]." + (unk if "[UNK]" in run.tokens else "")
    )
