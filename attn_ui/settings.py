"""The settings the pages share, as frozen dataclasses, and the one codec between settings and
a page's URL. No widgets and no Streamlit: ``state`` keeps them in a session and binds the
widgets to them, the compute layer reads them, and a link (?sentence=...&mask=causal) is read
and written here.

Each setting a link may carry is declared once (``Param``: its name in the URL, the field it
sets, how its text is read and checked, how it is written, its default). ``from_query`` reads a
link with a ``Spec``; ``to_query`` writes back only what differs from the defaults. A layer or
head number is checked against the model's own sizes, read from the model (``Sizes``) only
when a link names one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, MutableMapping
from dataclasses import dataclass, fields
from typing import Any

from attn_lessons.i18n import N_

# i18n: the default sentence and prompt are data (a link leaves them out when unchanged)
DEFAULT_SENTENCE = "The cat sat on the mat because the cat was tired."
MAX_SENTENCE_CHARS = 500  # the core caps tokens at 64; this only stops huge pastes early

# Each language's own defaults, where English's would not show the same thing (lessons/weights.md
# tells each head's story). Spanish keeps MiniLM's layer 1, head 8: one token ahead in 93-95%
# of a Spanish sentence's rows. Chinese is read character by character, where that head looks
# ahead in about a third of the rows; layer 0, head 2 looks one token back in every row, in any
# language. The sentence uses only characters MiniLM knows (docs/glossary.md).
LANGUAGE_LESSON_DEFAULTS: dict[str, dict[str, Any]] = {
    "es": {"sentence": "El gato se sentó en la alfombra porque el gato estaba cansado."},
    "zh": {"sentence": "天上有明月，山下有小花。", "layer": 0, "head": 2},
}
# SmolLM2 writes weak Spanish and Chinese: each prompt was picked so that the model closes the
# quote it opens, and layer 26, head 6 shows it (0.98 and 0.95 of the closing row's weight on
# the opening quote, greedy).
LANGUAGE_PROMPTS = {"es": 'Mi abuela siempre me dijo: "El', "zh": "小明说：“我爱你"}


def lesson_defaults(lang: str) -> dict[str, Any]:
    """The lesson settings a language starts from where they are not English's."""
    return dict(LANGUAGE_LESSON_DEFAULTS.get(lang, {}))


def generation_defaults(lang: str) -> dict[str, Any]:
    """The Generate page's starting prompt in a language other than English."""
    return {"prompt": LANGUAGE_PROMPTS[lang]} if lang in LANGUAGE_PROMPTS else {}


# value (in links and code) -> its label, translated where drawn: `_(WEIGHT_SOURCES[v])`
WEIGHT_SOURCES = {
    "similarity": N_("Similarity (Q = K = V = X)"),
    "random": N_("Random, seeded"),
    "pretrained": N_("A real head (MiniLM)"),
}
MASKS = {
    "none": N_("None (every token sees every token)"),
    "causal": N_("Causal (no looking ahead)"),
    "padding": N_("Padding (last tokens are padding)"),
    "window": N_("Local window"),
}
D_MODELS = (2, 4, 8, 16, 32, 64)
D_KS = (1, 2, 4, 8, 16, 32, 64)


@dataclass(frozen=True)
class LessonSettings:
    """What every step page shares."""

    sentence: str = DEFAULT_SENTENCE
    d_model: int = 8
    d_k: int = 4
    weights: str = "pretrained"  # a real head that visibly chooses (random is near uniform)
    seed: int = 0
    mask: str = "none"
    n_pad: int = 1
    window: int = 1
    n_heads: int = 2
    temperature: float = 1.0
    show_numbers: bool = True
    columns: bool = False  # show the by-hand layout (tokens as columns)
    layer: int = 1  # MiniLM's layer 1, head 8: it looks one token ahead (lessons/weights.md)
    head: int = 8


# A closing quote written by the model looks back at the opening one in layer 26, head 6
# (0.96 of its weight here; the lesson says how the head was found).
DEFAULT_PROMPT = 'My grandmother always told me: "'
DEFAULT_LAYER, DEFAULT_HEAD = 26, 6
DEFAULT_NEW_TOKENS = 24
MAX_NEW_TOKENS = 64
MAX_PROMPT_CHARS = 4000  # longer pastes are cut with a notice before tokenizing


@dataclass(frozen=True)
class GenerationSettings:
    """What a generation depends on: the prompt (a chat question when `chat`) and sampling."""

    prompt: str = DEFAULT_PROMPT
    chat: bool = False
    temperature: float = 0.0
    seed: int = 0
    max_new_tokens: int = DEFAULT_NEW_TOKENS


# --- the codec ----------------------------------------------------------------------------

Sizes = Callable[[], tuple[int, int]]  # a model's (n_layers, n_heads), read when needed


@dataclass(frozen=True)
class Param:
    """One setting a link may carry: ``?name=text`` sets `field` to ``parse(text)``.

    parse : the value, or ValueError for a value the app does not offer
    default : the value a link leaves out
    format : the value as a link writes it (``parse(format(v)) == v``)
    """

    name: str
    field: str
    parse: Callable[[str], Any]
    default: Any
    format: Callable[[Any], str] = str


@dataclass(frozen=True)
class Spec:
    """A link's settings, and how an old link keeps its meaning: ``upgrade(query, found)``
    adds to `found` what the link meant when it was made."""

    params: tuple[Param, ...]
    upgrade: Callable[[Mapping[str, str], dict], None] | None = None

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.params]

    @property
    def defaults(self) -> dict[str, Any]:
        """Field -> the value a link leaves out."""
        return {p.field: p.default for p in self.params}


def from_query(query: Mapping[str, str], spec: Spec) -> tuple[dict, list[str]]:
    """The settings a link carries (field -> value), and the names of those whose value the
    app does not offer (ignored)."""
    found, ignored = {}, []
    for p in spec.params:
        if p.name in query:
            try:
                found[p.field] = p.parse(query[p.name])
            except ValueError:
                ignored.append(p.name)
    if spec.upgrade is not None:
        spec.upgrade(query, found)
    return found, ignored


def to_query(
    values: Mapping[str, Any],
    query: MutableMapping[str, str],
    spec: Spec,
    defaults: Mapping[str, Any] | None = None,
) -> None:
    """Write `values` (field -> value) into a link's `query`: a setting is written when it
    differs from its default or from the page's own `defaults` (Masking opens on the causal
    mask: its link says mask=causal, and must say mask=none once the learner chooses none).
    Only what changed is written: Streamlit sends the browser a message for every write, and
    the browser rewrites its history entry each time."""
    page = defaults or {}
    for p in spec.params:
        value = values[p.field]
        if value != p.default or value != page.get(p.field, p.default):
            text = p.format(value)
            if query.get(p.name) != text:
                query[p.name] = text
        elif p.name in query:
            del query[p.name]


# --- what a value in a link may be ----------------------------------------------------------


def one_of(options, read: Callable[[str], Any] = str) -> Callable[[str], Any]:
    """A value among `options`, read by `read` (e.g. int)."""

    def parse(text: str):
        value = read(text)
        if value not in options:
            raise ValueError(text)
        return value

    return parse


def whole(low: int, high: int | Callable[[], int]) -> Callable[[str], int]:
    """A whole number from `low` to `high` (a callable: a model's size, read when needed)."""

    def parse(text: str) -> int:
        value = int(text)
        if not low <= value <= (high() if callable(high) else high):
            raise ValueError(text)
        return value

    return parse


def tenths(low: float, high: float) -> Callable[[str], float]:
    """A number rounded to one decimal, from `low` to `high` (NaN is not)."""

    def parse(text: str) -> float:
        value = round(float(text), 1)
        if not low <= value <= high:
            raise ValueError(text)
        return value

    return parse


def flag(text: str) -> bool:
    if text not in ("True", "False"):
        raise ValueError(text)
    return text == "True"


def clean_sentence(text: str) -> str:
    """One line: every line break becomes a space (a paste of several lines, an old link
    whose sentence holds %0A)."""
    return re.sub(r"\r\n|\r|\n", " ", text)


def _layer(sizes: Sizes) -> Callable[[str], int]:
    return whole(0, lambda: sizes()[0] - 1)


def _head(sizes: Sizes) -> Callable[[str], int]:
    return whole(0, lambda: sizes()[1] - 1)


# --- the two links --------------------------------------------------------------------------

# Before the lessons opened on a real head, a link without `weights` meant the seeded random
# ones, and one with weights=pretrained meant layer 0, head 0: such links keep their meaning.
RANDOM_ONLY = ("d_model", "d_k", "seed", "n_heads")  # settings only the toy weights read
OLD_DEFAULTS = {"weights": "random", "layer": 0, "head": 0}


def _old_lesson_link(query: Mapping[str, str], found: dict) -> None:
    if "weights" not in query and any(n in query for n in RANDOM_ONLY):
        found["weights"] = OLD_DEFAULTS["weights"]  # an old link, made for the random weights
    if found.get("weights") == "pretrained":
        for name in ("layer", "head"):
            if name not in query:
                found[name] = OLD_DEFAULTS[name]


def lesson_link(sizes: Sizes) -> Spec:
    """Every lesson setting, under its own name (?sentence=...&n_heads=4&mask=causal); layer
    and head name a head of the real model, whose sizes `sizes` reads."""
    parse = {
        "sentence": lambda v: clean_sentence(v)[:MAX_SENTENCE_CHARS],
        "d_model": one_of(D_MODELS, int),
        "d_k": one_of(D_KS, int),
        "weights": one_of(WEIGHT_SOURCES),
        "seed": whole(0, 10_000),
        "mask": one_of(MASKS),
        "n_pad": whole(0, 8),
        "window": whole(0, 8),
        "n_heads": whole(1, 8),
        "temperature": tenths(0.1, 5.0),
        "show_numbers": flag,
        "columns": flag,
        "layer": _layer(sizes),
        "head": _head(sizes),
    }
    start = LessonSettings()
    return Spec(
        tuple(Param(f.name, f.name, parse[f.name], getattr(start, f.name)) for f in fields(start)),
        upgrade=_old_lesson_link,
    )


def generation_link(sizes: Sizes) -> Spec:
    """The Generate page's settings and the head it shows (?prompt=Hello&seed=3&layer=2);
    the layer and head are the decoder's, whose sizes `sizes` reads."""
    start = GenerationSettings()
    return Spec(
        (
            Param("prompt", "prompt", lambda v: v[:MAX_PROMPT_CHARS], start.prompt),
            Param("chat", "chat", flag, start.chat),
            Param("temperature", "temperature", tenths(0.0, 2.0), start.temperature),
            Param("seed", "seed", whole(0, 10_000), start.seed),
            Param("max_new", "max_new_tokens", whole(1, MAX_NEW_TOKENS), start.max_new_tokens),
            Param("layer", "layer", _layer(sizes), DEFAULT_LAYER),
            Param("head", "head", _head(sizes), DEFAULT_HEAD),
        )
    )


def prompt_link(default: str) -> Spec:
    """A decoder page's own prompt (the KV cache page: ?prompt=...), `default` when a link
    leaves it out."""
    return Spec((Param("prompt", "prompt", lambda v: v[:MAX_PROMPT_CHARS], default),))
