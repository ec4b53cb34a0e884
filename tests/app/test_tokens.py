"""Page 1, tokens and embeddings: token table, X and cosines are the engine's."""

import numpy as np

from attn_core.labs import similarity
from attn_ui import notices
from tests.support.apptest import (
    RANDOM,
    frame,
    heatmap,
    load,
    rerun,
    table,
    type_sentence,
)
from tests.support.apptest import (
    lesson as lesson_at,
)

PAGE = "pages/01_Tokens.py"

# These tests read the seeded random weights (d_model, d_k, seed): the lessons open on a real
# head, and a link with weights=random gives the random ones (tests/app/test_default_weights.py).


def lesson(**changes):
    return lesson_at(**(RANDOM | changes))


def test_default_tokens_and_x_equal_the_engine(loaded):
    at = loaded(PAGE, RANDOM)
    run = lesson()
    tokens = frame(at, "kind")  # the token table: the repeats table, drawn first, has "token" too
    assert list(tokens["token"]) == list(run.tokens)
    assert list(tokens.index) == list(range(len(run.tokens)))
    np.testing.assert_allclose(table(at, "Numbers of X"), run.x, atol=1e-12)
    cos = table(at, "cos(")
    np.testing.assert_allclose(cos, similarity.cosine_similarity(run.x), atol=1e-12)
    np.testing.assert_allclose(np.diag(cos), 1.0)


def test_repeated_words_are_separate_identical_rows():
    at = type_sentence(load(PAGE, query=RANDOM), "the cat saw the cat")
    x = table(at, "Numbers of X")
    assert x.shape[0] == 5
    np.testing.assert_array_equal(x[1], x[4])
    x_fig = heatmap(at, "X ")
    assert x_fig["rows"] == ["the", "cat", "saw", "the", "cat"]  # a row per token, repeats too
    np.testing.assert_array_equal(x_fig["m"], x)
    repeats = frame(at, "rows of X")
    assert list(repeats["token"]) == ["the", "cat"]
    assert list(repeats["rows of X"]) == ["0, 3", "1, 4"]
    assert list(repeats["identical rows"]) == ["yes", "yes"]


def test_word_pieces_are_marked():
    at = type_sentence(load(PAGE, query=RANDOM), "unbelievably")
    tokens = frame(at, "kind")
    assert tokens["token"].iloc[1].startswith("##")
    assert tokens["kind"].iloc[1].startswith("piece")
    assert not tokens["kind"].iloc[0].startswith("piece")


def test_d_model_slider_changes_the_width_of_x_only():
    at = load(PAGE, query=RANDOM)
    rows = table(at, "Numbers of X").shape[0]
    at.select_slider(key="lesson_w_d_model").set_value(4)
    rerun(at)
    x = table(at, "Numbers of X")
    assert x.shape == (rows, 4)
    np.testing.assert_allclose(x, lesson(d_model=4).x, atol=1e-12)


def test_numbers_on_cells_toggle():
    at = load(PAGE, query=RANDOM)
    assert heatmap(at, "X ")["numbers"] and heatmap(at, "X ")["decimals"] == 2
    at.toggle(key="lesson_w_show_numbers").set_value(False)
    rerun(at)
    assert not heatmap(at, "X ")["numbers"]


def test_real_head_x_has_positions_and_special_tokens():
    at = load(PAGE, query=RANDOM)
    at.radio(key="lesson_w_weights").set_value("pretrained")
    rerun(at)
    type_sentence(at, "the cat saw the cat")
    tokens = list(frame(at, "kind")["token"])
    assert tokens[0] == "[CLS]" and tokens[-1] == "[SEP]"
    assert table(at, "Numbers of X").shape == (7, 384)
    # positions were added: the two copies of a word no longer have identical rows
    assert list(frame(at, "rows of X")["identical rows"]) == ["no", "no"]
    assert any("position" in i.value for i in at.info)
    # 384 features: numbered, so labelled like a ruler; every token labelled
    fig = heatmap(at, "X ")
    assert fig["prefix"] == "f" and fig["rowPrefix"] is None
    assert fig["rows"] == tokens and fig["shape"] == [7, 384]
    assert not fig["numbers"]  # 2,688 cells: too many to print


def test_a_mask_chosen_elsewhere_does_not_break_the_page():
    at = load(PAGE, query=RANDOM)
    at.session_state["lesson"] = {"mask": "padding", "n_pad": 8}  # set on the masking page
    type_sentence(at, "one two three")
    assert not at.error
    assert table(at, "Numbers of X").shape[0] == 3


def test_unknown_characters_notice_agrees_with_the_repeats_table():
    """Issue 27: with three [UNK], the notice says they share a word vector and what is true
    of their rows for the weights in use, as the table does: identical with Random weights,
    different with a real head (positions added)."""
    at = type_sentence(load(PAGE, query=RANDOM), "I ❤️ my 猫 قطتي 😀🐈")

    def unknown():
        notice = next(w.value for w in at.warning if "[UNK]" in w.value)
        row = frame(at, "rows of X").set_index("token").loc["[UNK]"]
        return notice, row["identical rows"]

    notice, identical = unknown()
    assert notice.startswith("3 of the 9 tokens are [UNK]")
    assert "same word vector" in notice and "their rows of X are identical." in notice
    assert identical == "yes"  # Random: X is the word vector alone
    at.radio(key="lesson_w_weights").set_value("pretrained")
    rerun(at)
    notice, identical = unknown()
    assert notice.startswith("3 of the 11 tokens are [UNK]")  # [CLS] and [SEP] added
    assert "their rows of X differ" in notice and "position" in notice
    assert "identical" not in notice  # it says what is true for these weights only
    assert identical == "no"


def test_one_unknown_token_is_named_in_the_singular():
    """One [UNK] gets "is" and no sentence on rows it could share; none gets no notice."""
    note = notices.unknown_note(("a", "[UNK]", "b"))
    assert note == (
        "1 of the 3 tokens is [UNK]: it stands for characters the tokenizer does not know "
        "(emoji, some scripts)."
    )
    assert notices.unknown_note(("a", "b")) is None
    general = notices.unknown_note(("[UNK]", "b", "[UNK]"))  # no X: what holds for each
    assert "identical only where nothing is added" in general
