"""Labels for byte-level tokens: what a row of the decoder's attention stands for.

SmolLM2's tokenizer (GPT-2's byte-level BPE) reads text as UTF-8 bytes, so one token can hold
part of a character: "爱" is three bytes, E7 88 B1, and three tokens. Alone, each piece decodes
to "�", and a learner cannot tell the rows apart. Here a piece shows the whole character it
belongs to, with "…" on the side where the rest of it lies:

    bytes     E7  | 88  | B1          E5 B0 | 8F            20 63 61 74
    labels    爱… | …爱… | …爱        小…   | …小           " cat" (unchanged)

Bytes that belong to no character (an end cut off, an invalid sequence) show in hex: "⟨E7 88⟩".
"""

from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache

MORE = "…"  # the rest of the character lies this side


@lru_cache(maxsize=1)
def byte_alphabet() -> dict[str, int]:
    """GPT-2's byte-level alphabet read backwards: the printable character that stands for
    each of the 256 bytes in the tokenizer's vocabulary ("Ġ" -> 0x20, "a" -> 0x61)."""
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1)]
    printable += range(ord("®"), ord("ÿ") + 1)
    others = [b for b in range(256) if b not in printable]
    shown = [*printable, *(256 + n for n in range(len(others)))]
    return {chr(c): b for c, b in zip(shown, [*printable, *others], strict=True)}


def vocab_bytes(piece: str) -> bytes | None:
    """A vocabulary entry's bytes ("Ġcat" -> b" cat"), or None if it is not written in the
    byte alphabet (a special token such as <|im_start|>)."""
    alphabet = byte_alphabet()
    if not all(c in alphabet for c in piece):
        return None
    return bytes(alphabet[c] for c in piece)


def characters(data: bytes) -> list[tuple[int, int, str | None]]:
    """`data` cut into UTF-8 characters: (start, end, text) each, in order. A byte that starts
    no whole, valid character is a span of its own with text None."""
    spans, i = [], 0
    while i < len(data):
        n = _utf8_length(data[i])
        try:
            text = data[i : i + n].decode("utf-8") if n and i + n <= len(data) else None
        except UnicodeDecodeError:
            text = None
        n = n if text is not None else 1
        spans.append((i, i + n, text))
        i += n
    return spans


def piece_labels(pieces: list[bytes]) -> list[str]:
    """One label per token from the tokens' bytes `pieces`, read in order: the characters it
    touches, "…" before if its first character began in an earlier token, "…" after if its last
    one ends in a later token; bytes of no character in hex, ⟨E7 88⟩."""
    data = b"".join(pieces)
    chars = characters(data)
    ends = [e for _, e, _ in chars]
    labels, start = [], 0
    for piece in pieces:
        end = start + len(piece)
        touched = chars[bisect_right(ends, start) : bisect_right(ends, end - 1) + 1]
        labels.append(_label(touched if piece else [], data, start, end))
        start = end
    return labels


def _label(touched: list[tuple[int, int, str | None]], data: bytes, start: int, end: int) -> str:
    words, stray = [], []  # stray: hex of a run of bytes of no character
    for s, _, text in touched:
        if text is None:
            stray.append(f"{data[s]:02X}")
            continue
        if stray:
            words.append(f"⟨{' '.join(stray)}⟩")
            stray = []
        words.append(text)
    if stray:
        words.append(f"⟨{' '.join(stray)}⟩")
    before = MORE if touched and touched[0][0] < start else ""
    after = MORE if touched and touched[-1][1] > end else ""
    return before + "".join(words) + after


def _utf8_length(lead: int) -> int:
    """The length of the character a UTF-8 byte starts (0: it starts none)."""
    if lead < 0x80:
        return 1
    if 0xC2 <= lead <= 0xDF:
        return 2
    if 0xE0 <= lead <= 0xEF:
        return 3
    if 0xF0 <= lead <= 0xF4:
        return 4
    return 0
