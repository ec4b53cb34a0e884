"""A page's words (docs/architecture.md "A page's anatomy"): the lesson's one line under the
title, its "What you'll learn", "The idea" and "The formula" beside the first figure, and each
question it asks ("What if every key of a row is masked?") as a closed fold with its answer."""

import pytest

from attn_lessons.text import lesson
from attn_ui.registry import info

PAGES = [
    "pages/06_Weighted_sum.py",
    "pages/07_Masking.py",
    "pages/08_Multi-head.py",
    "pages/20_By_hand.py",
    "pages/21_Practice.py",
    "pages/22_Worksheets.py",
]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.split("/")[-1].removesuffix(".py"))
def test_the_lessons_words_and_folds_are_on_the_page(loaded, page):
    at = loaded(page)
    text = lesson(info(page).name)
    drawn = [m.value for m in at.markdown]
    for heading in ("In one line", "What you'll learn", "The idea", "The formula"):
        assert text[heading] in drawn, heading
    folds = {e.label: e for e in at.expander if e.label.endswith("?")}
    asked = [h for h in text if h.endswith("?")]
    assert list(folds) == asked
    for heading in asked:
        assert [m.value for m in folds[heading].markdown] == [text[heading]], heading
