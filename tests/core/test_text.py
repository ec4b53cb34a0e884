"""attn_core.text: a sentence as T rows of d features, pretrained or random; repeated tokens."""

import numpy as np
import pytest

from attn_core import AttentionInputError
from attn_core.pretrained import load_minilm
from attn_core.text import MAX_TOKENS, embed, repeated_tokens


def cos(a, b) -> float:
    return float(a @ b / np.linalg.norm(a) / np.linalg.norm(b))


def test_tokens_are_wordpieces_without_cls_and_sep():
    tokens, x = embed("The players are playing unbelievably", 4)
    assert tokens == ("the", "players", "are", "playing", "un", "##bel", "##ie", "##va", "##bly")
    assert x.shape == (len(tokens), 4) and x.dtype == np.float64
    assert np.isfinite(x).all()


@pytest.mark.parametrize("source", ["pretrained", "random"])
def test_repeated_words_keep_separate_identical_rows(source):
    tokens, x = embed("the cat saw the cat", 6, source=source)
    assert tokens == ("the", "cat", "saw", "the", "cat")
    np.testing.assert_array_equal(x[0], x[3])
    np.testing.assert_array_equal(x[1], x[4])
    assert not np.allclose(x[0], x[1])


def test_unknown_characters_are_shown_as_unk():
    tokens, _ = embed("I love pizza \U0001f355", 3)
    assert tokens[-1] == "[UNK]"


def test_pretrained_rows_come_from_the_model_table():
    """At d = 384 the projection is a rotation of the centred table: angles are kept."""
    model = load_minilm()
    tokens, x = embed("watch movie carrot", 384)
    ids = [model.tokenizer.token_to_id(t) for t in tokens]
    table = model.word_embeddings.astype(np.float64)
    rows = table[ids] - table.mean(axis=0)
    for i, j in [(0, 1), (0, 2), (1, 2)]:
        assert cos(x[i], x[j]) == pytest.approx(cos(rows[i], rows[j]), abs=1e-6)


def test_one_fixed_projection_for_every_d():
    """Smaller d keeps the leading directions of larger d, up to one scale factor."""
    _, x4 = embed("the driver could not drive the car", 4)
    _, x16 = embed("the driver could not drive the car", 16)
    ratio = x16[:, :4] / x4
    np.testing.assert_allclose(ratio, ratio[0, 0], rtol=1e-9)


@pytest.mark.parametrize("d", [2, 4, 8, 16, 64, 384])
def test_related_words_are_closer_than_unrelated_ones(d):
    triples = [  # (word, related, unrelated)
        ("watch", "movie", "carrot"),
        ("theatre", "movie", "gravel"),
        ("car", "driver", "philosophy"),
        ("cat", "dog", "tuesday"),
        ("king", "queen", "carrot"),
    ]
    for word, related, unrelated in triples:
        tokens, x = embed(f"{word} {related} {unrelated}", d)
        assert tokens == (word, related, unrelated)
        assert cos(x[0], x[1]) > cos(x[0], x[2]), (d, word, related, unrelated)


@pytest.mark.parametrize("d", [4, 16, 64, 384])
def test_pretrained_entries_have_roughly_unit_variance(d):
    words = (
        "time year people way day man thing woman life child world school state family "
        "student group country problem hand part place case week company system program "
        "question work government number night point home water room mother area money"
    )
    _, x = embed(words, d)
    assert 0.5 < np.mean(x**2) < 2.0


def test_random_rows_are_reproducible_and_seeded():
    a = embed("the cat sat", 5, source="random", seed=1)[1]
    np.testing.assert_array_equal(a, embed("the cat sat", 5, source="random", seed=1)[1])
    assert not np.allclose(a, embed("the cat sat", 5, source="random", seed=2)[1])


def test_random_row_of_a_token_does_not_depend_on_the_sentence():
    _, a = embed("the cat", 3, source="random")
    _, b = embed("a big cat", 3, source="random")
    np.testing.assert_array_equal(a[1], b[2])


def test_random_rows_are_standard_normal():
    _, x = embed("one two three four five six seven eight nine ten", 384, source="random")
    assert abs(x.mean()) < 0.05 and 0.9 < x.std() < 1.1


def test_sixty_four_tokens_pass_and_sixty_five_are_refused():
    assert len(embed(" ".join(["cat"] * MAX_TOKENS), 2)[0]) == 64
    with pytest.raises(AttentionInputError, match="65 tokens.*at most 64.*Shorten"):
        embed(" ".join(["cat"] * 65), 2)


@pytest.mark.parametrize("sentence", ["", "   ", "\n"])
def test_empty_sentence_is_refused(sentence):
    with pytest.raises(AttentionInputError, match="empty"):
        embed(sentence, 4)


@pytest.mark.parametrize("d", [0, 385, -3, 2.5, True, "4", None])
def test_d_outside_1_to_384_is_refused(d):
    with pytest.raises(AttentionInputError, match="d must be a whole number from 1 to 384"):
        embed("hello", d)


def test_unknown_source_and_bad_seed_are_refused():
    with pytest.raises(AttentionInputError, match="'pretrained' or 'random'"):
        embed("hello", 4, source="glove")
    with pytest.raises(AttentionInputError, match="seed"):
        embed("hello", 4, source="random", seed=-1)
    with pytest.raises(AttentionInputError, match="text"):
        embed(None, 4)


def test_repeated_tokens_and_whether_rows_are_identical():
    x = np.array([[1.0, 0], [2, 0], [1, 0], [2, 1], [3, 3]])
    reps = repeated_tokens(["the", "cat", "the", "cat", "sat"], x)
    assert [(r.token, r.positions, r.identical) for r in reps] == [
        ("the", (0, 2), True),
        ("cat", (1, 3), False),
    ]
    assert repeated_tokens(["a", "b"], x[:2]) == ()
    with pytest.raises(AttentionInputError):
        repeated_tokens(["a"], x)
