"""The learner's bad input, and what every page must do with it: a message, never a traceback,
never a NaN in a table, never the learner's text rendered as HTML."""

from __future__ import annotations

import numpy as np
from streamlit.testing.v1 import AppTest

from tests.support.apptest import numeric_tables, type_sentence

# name -> (sentence, (where the message must be, a word it must contain)); None: the page works
BAD_SENTENCES = {
    "empty": ("", ("error", "empty")),
    "blank": ("   ", ("error", "empty")),
    "one token": ("cat", ("warning", "single token")),
    "65+ tokens": (" ".join(["word"] * 70), ("error", "at most 64")),
    "emoji": ("I ❤️ 🍕 pizza", ("warning", "[UNK]")),
    "japanese": ("猫が座った", ("warning", "[UNK]")),
    "cyrillic": ("Кошка сидит на ковре", None),
    "bold tag": ("<b>x</b> and <i>y</i>", None),
    "script tag": ("<script>alert(1)</script>", None),
}


def no_html(at: AppTest) -> None:
    """Nothing on the page is Markdown that allows HTML, and no tag typed by the learner shows."""
    for m in [*at.markdown, *at.caption, *at.error, *at.warning]:
        assert not getattr(m.proto, "allow_html", False), m.value
        assert "<b>" not in m.value and "<script>" not in m.value, m.value


def check_bad_sentence(
    at: AppTest, sentence: str, expect, *, may_be_empty=(), min_tables: int = 3
) -> None:
    """Type `sentence`: no traceback; the expected message; no raw HTML; and where the page
    goes on (no message, or a warning), at least `min_tables` tables of numbers, none with NaN.

    may_be_empty: labels of tables whose masked cells are empty on purpose (-inf scores).
    """
    type_sentence(at, sentence)  # fails on a traceback
    if expect is not None:
        where, word = expect
        messages = [m.value for m in getattr(at, where)]
        assert any(word in m for m in messages), messages
    no_html(at)
    if expect is None or expect[0] == "warning":
        tables = numeric_tables(at, skip=may_be_empty)
        assert len(tables) >= min_tables, "the page shows too few tables of numbers"
        for values in tables:
            assert np.isfinite(values).all()
