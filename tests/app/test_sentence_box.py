"""The lesson sentence box: one line that applies on Enter, a long paste cut with a notice,
and links that carried a newline still load."""

import pytest

from attn_ui.controls import SENTENCE_HELP
from attn_ui.settings import MAX_SENTENCE_CHARS
from tests.support.apptest import SENTENCE_KEY, lesson, load, rerun, table, type_sentence

PAGES = ["pages/00_Overview.py", "pages/03_Scores.py"]


@pytest.mark.parametrize("page", PAGES, ids=["overview", "scores"])
def test_box_is_one_line_that_says_enter_applies(page):
    at = load(page)
    box = at.text_input(key=SENTENCE_KEY)  # a text input: Enter (a phone's Go) applies it
    assert box.help == SENTENCE_HELP and "Enter" in box.help
    assert not box.max_chars  # a browser limit would drop a longer paste without a word


@pytest.mark.parametrize("page", PAGES, ids=["overview", "scores"])
def test_newlines_become_spaces_in_the_sentence_and_the_url(page):
    at = type_sentence(load(page), "the cat\nsat on\r\nthe mat")
    assert at.text_input(key=SENTENCE_KEY).value == "the cat sat on the mat"
    assert at.session_state["lesson"]["sentence"] == "the cat sat on the mat"
    assert at.query_params["sentence"] == "the cat sat on the mat"
    assert not at.warning


def test_long_paste_is_cut_to_the_limit_with_a_notice():
    text = " ".join(f"w{i}" for i in range(200))  # 889 characters, far fewer tokens than words
    assert len(text) > MAX_SENTENCE_CHARS
    at = type_sentence(load("pages/03_Scores.py"), text)
    kept = text[:MAX_SENTENCE_CHARS]
    assert at.text_input(key=SENTENCE_KEY).value == kept  # the box shows what is used
    assert at.session_state["lesson"]["sentence"] == kept
    notices = [w.value for w in at.warning]
    assert any(f"had {len(text)} characters" in w and str(MAX_SENTENCE_CHARS) in w for w in notices)
    # a sentence under the limit afterwards: the notice goes
    type_sentence(at, "the cat sat")
    assert not any("characters" in w.value for w in at.warning)
    assert at.text_input(key=SENTENCE_KEY).value == "the cat sat"


def test_long_paste_over_64_tokens_keeps_the_token_message():
    text = " ".join(["word"] * 120)  # 599 characters: cut to 500, still 100 tokens
    at = type_sentence(load("pages/03_Scores.py"), text)
    assert any("characters" in w.value for w in at.warning)
    assert at.error and "at most 64" in at.error[0].value


def test_old_link_with_a_newline_loads_with_spaces():
    at = load("pages/00_Overview.py", query={"sentence": "the cat\nsaw the dog"})
    assert at.text_input(key=SENTENCE_KEY).value == "the cat saw the dog"
    weights = table(at, "A = softmax")
    run = lesson(sentence="the cat saw the dog")
    assert weights.shape == (len(run.tokens), len(run.tokens))


def test_a_long_link_is_cut_to_the_limit():
    at = load("pages/00_Overview.py", query={"sentence": "a " * 400})
    assert at.text_input(key=SENTENCE_KEY).value == ("a " * 400)[:MAX_SENTENCE_CHARS]
    rerun(at)
