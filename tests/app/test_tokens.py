"""Page 1, tokens and embeddings: token table, X and cosines are the engine's."""

import numpy as np

from attn_core.labs import similarity
from tests.support.apptest import (
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
RANDOM = {"weights": "random"}


def lesson(**changes):
    return lesson_at(**(RANDOM | changes))


def test_default_tokens_and_x_equal_the_engine(loaded):
    at = load(PAGE, query=RANDOM)
    run = lesson()
    tokens = frame(at, "token")
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
    assert list(repeats["identical vectors"]) == ["yes", "yes"]


def test_word_pieces_are_marked():
    at = type_sentence(load(PAGE, query=RANDOM), "unbelievably")
    tokens = frame(at, "token")
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
    tokens = list(frame(at, "token")["token"])
    assert tokens[0] == "[CLS]" and tokens[-1] == "[SEP]"
    assert table(at, "Numbers of X").shape == (7, 384)
    # positions were added: the two copies of a word no longer have identical rows
    assert list(frame(at, "rows of X")["identical vectors"]) == ["no", "no"]
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
