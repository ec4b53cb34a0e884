"""The pretrained model (MiniLM), loaded once per server process and shared, and its runs on
the learners' sentences, shared too."""

from __future__ import annotations

from functools import lru_cache

import streamlit as st

from attn_core.pretrained import ModelTrace
from attn_lessons.i18n import N_, _


class Shown(str):
    """A cache decorator's spinner message (``show_spinner=Shown(N_("..."))``), in the
    language of the page it shows on: the decorator keeps the message from import time,
    before any page has a language, and Streamlit reads it with ``str()`` only when it shows
    the spinner, in the page's thread."""

    __slots__ = ()

    def __str__(self) -> str:
        return _(str.__str__(self))


@st.cache_resource(show_spinner=Shown(N_("Loading the pretrained model (once per server)...")))
def minilm():
    """The pretrained model, loaded once per server process and shared; never mutated."""
    from attn_core.pretrained import load_minilm

    return load_minilm()


@lru_cache(maxsize=128)
def minilm_run(sentence: str, max_tokens: int = 128, layers: int | None = None) -> ModelTrace:
    """MiniLM on `sentence` through its first `layers` layers (None: all six), as
    ``MiniLM.run``: shared by every learner of this process who sends the same sentence, the
    128 latest kept (a lesson's run to layer 1 of 34 tokens is about 0.1 MB; its arrays are
    read-only). Raises the core's errors unchanged (they are not kept)."""
    return minilm().run(sentence, max_tokens=max_tokens, layers=layers)
