"""Labels of byte-level tokens: a piece of a character shows that character, never "\ufffd"."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attn_core.pretrained import load_smollm
from attn_core.pretrained.byte_tokens import MORE, byte_alphabet, characters, piece_labels


@pytest.fixture(scope="module")
def model():
    return load_smollm()


def test_a_character_in_three_pieces_shows_in_each_with_the_side_of_the_rest():
    ai, xiao = "爱".encode(), "小".encode()  # E7 88 B1, E5 B0 8F
    pieces = [ai[:1], ai[1:2], ai[2:], xiao[:2], xiao[2:], b" cat", b""]
    assert piece_labels(pieces) == ["爱…", "…爱…", "…爱", "小…", "…小", " cat", ""]


def test_bytes_of_no_character_show_in_hex():
    assert piece_labels([b"a\xff\xfeb"]) == ["a⟨FF FE⟩b"]
    assert piece_labels([b"x", "爱".encode()[:2]]) == ["x", "⟨E7 88⟩"]  # its end never came
    assert piece_labels(["我".encode()[2:]]) == ["⟨91⟩"]  # its start is not here
    assert characters(b"\xed\xa0\x80") == [(0, 1, None), (1, 2, None), (2, 3, None)]  # surrogate


def test_the_byte_alphabet_is_gpt2s():
    alphabet = byte_alphabet()
    assert sorted(alphabet.values()) == list(range(256))
    assert alphabet["Ġ"] == 0x20 and alphabet["Ċ"] == 0x0A and alphabet["a"] == ord("a")


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.text(min_size=1, max_size=12), st.lists(st.integers(0, 40), max_size=6))
def test_every_piece_names_each_character_it_touches(text, cuts):
    data = text.encode()
    bounds = sorted({0, len(data), *(c % (len(data) + 1) for c in cuts)})
    pieces = [data[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]
    labels = piece_labels(pieces)
    assert len(labels) == len(pieces)
    start = 0
    for piece, label in zip(pieces, labels, strict=True):
        assert "\ufffd" not in label or "\ufffd" in text
        try:  # whole characters only: the label is the piece's text
            assert label == piece.decode()
        except UnicodeDecodeError:
            chars = [t for s, e, t in characters(data) if s < start + len(piece) and e > start]
            assert label.strip(MORE) == "".join(chars)
            assert label.startswith(MORE) or label.endswith(MORE)
        start += len(piece)


def test_smollm_labels_chinese_pieces_by_their_character(model):
    ids = model.encode("小明说：“我爱你")
    assert [model.token_text(i) for i in ids].count("\ufffd") == 13  # what the rows showed
    assert model.token_labels(ids) == (
        *("小…", "…小", "明…", "…明", "说…", "…说", "：", "“"),
        *("我…", "…我", "爱…", "…爱…", "…爱", "你…", "…你"),
    )
    assert model.run("小明说：“我爱你").tokens == model.token_labels(ids)
    assert model.next_labels(ids[:-1], [ids[-1]]) == ("…你",)


def test_smollm_labels_are_the_tokens_own_text_when_that_is_whole(model):
    """Every one of the 49,152 tokens alone, and a prompt with its special tokens."""
    for i in range(model.tokenizer.get_vocab_size()):
        text = model.token_text(i)
        if "\ufffd" not in text:
            assert model.token_labels([i]) == (text,), i
    ids = model.encode(model.chat_prompt("Hi, what's 2+2?\n"))
    assert model.token_labels(ids) == tuple(model.token_text(i) for i in ids)
