"""The lesson settings: what every step page shares, as a frozen dataclass, and the one codec
between them and a page's URL. No widgets and no Streamlit: the controls (``controls``) draw
and store them, the compute layer reads them, and a link (?sentence=...&mask=causal) is read
and written here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass, fields

DEFAULT_SENTENCE = "The cat sat on the mat because the cat was tired."
MAX_SENTENCE_CHARS = 500  # the core caps tokens at 64; this only stops huge pastes early

WEIGHT_SOURCES = {
    "similarity": "Similarity (Q = K = V = X)",
    "random": "Random, seeded",
    "pretrained": "A real head (MiniLM)",
}
MASKS = {
    "none": "None (every token sees every token)",
    "causal": "Causal (no looking ahead)",
    "padding": "Padding (last tokens are padding)",
    "window": "Local window",
}


@dataclass(frozen=True)
class LessonSettings:
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


D_MODELS = (2, 4, 8, 16, 32, 64)
D_KS = (1, 2, 4, 8, 16, 32, 64)
# Settings a link may carry (?sentence=...&heads=4&mask=causal), with what each accepts.
URL_SETTINGS = {
    "sentence": lambda v: clean_sentence(v)[:MAX_SENTENCE_CHARS],
    "d_model": lambda v: _pick(int(v), D_MODELS),
    "d_k": lambda v: _pick(int(v), D_KS),
    "weights": lambda v: _pick(v, tuple(WEIGHT_SOURCES)),
    "seed": lambda v: _pick(int(v), range(10_001)),
    "mask": lambda v: _pick(v, tuple(MASKS)),
    "n_heads": lambda v: _pick(int(v), range(1, 9)),
    "temperature": lambda v: _pick(round(float(v), 1), [x / 10 for x in range(1, 51)]),
    "layer": lambda v: _pick(int(v), range(6)),
    "head": lambda v: _pick(int(v), range(12)),
    "n_pad": lambda v: _pick(int(v), range(9)),
    "window": lambda v: _pick(int(v), range(9)),
    "show_numbers": lambda v: _flag(v),
    "columns": lambda v: _flag(v),
}


def clean_sentence(text: str) -> str:
    """One line: every line break becomes a space (a paste of several lines, an old link
    whose sentence holds %0A)."""
    return re.sub(r"\r\n|\r|\n", " ", text)


def _flag(value: str) -> bool:
    if value not in ("True", "False"):
        raise ValueError(value)
    return value == "True"


def _pick(value, allowed):
    if value not in allowed:
        raise ValueError(value)
    return value


# Before the lessons opened on a real head, a link without `weights` meant the seeded random
# ones, and one with weights=pretrained meant layer 0, head 0: such links keep their meaning.
RANDOM_ONLY = ("d_model", "d_k", "seed", "n_heads")  # settings only the toy weights read
OLD_DEFAULTS = {"weights": "random", "layer": 0, "head": 0}


def from_query(params: Mapping[str, str]) -> tuple[dict, list[str]]:
    """The settings a link carries, and the names of those whose value the app does not
    offer (ignored). An old link keeps its meaning (`OLD_DEFAULTS`)."""
    found, ignored = {}, []
    for name, parse in URL_SETTINGS.items():
        if name in params:
            try:
                found[name] = parse(params[name])
            except ValueError:
                ignored.append(name)
    if "weights" not in params and any(n in params for n in RANDOM_ONLY):
        found["weights"] = OLD_DEFAULTS["weights"]  # an old link, made for the random weights
    if found.get("weights") == "pretrained":
        for name in ("layer", "head"):
            if name not in params:
                found[name] = OLD_DEFAULTS[name]
    return found, ignored


def to_query(
    s: LessonSettings, params: MutableMapping[str, str], defaults: dict | None = None
) -> None:
    """Write the settings into a link's `params`: a setting is written when it differs from
    the LessonSettings default or from the page's own `defaults` (Masking opens on the causal
    mask: its link says mask=causal, and must say mask=none once the learner chooses none).
    Only what changed is written: Streamlit sends the browser a message for every write, and
    the browser rewrites its history entry each time."""
    page = defaults or {}
    for f in fields(LessonSettings):
        if f.name in URL_SETTINGS:
            value, text = getattr(s, f.name), str(getattr(s, f.name))
            if value != f.default or value != page.get(f.name, f.default):
                if params.get(f.name) != text:
                    params[f.name] = text
            elif f.name in params:
                del params[f.name]
