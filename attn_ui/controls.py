"""The lesson controls every step page shares, kept when the learner moves between pages.

One owner: this module. The values live in ``st.session_state["lesson"]``; each
widget has its own ``lesson_w_*`` key and is re-seeded from that dict when a page
draws it, because Streamlit deletes the state of widgets a page does not draw.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import streamlit as st

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
    weights: str = "random"
    seed: int = 0
    mask: str = "none"
    n_pad: int = 1
    window: int = 1
    n_heads: int = 2
    temperature: float = 1.0
    show_numbers: bool = True
    columns: bool = False  # show the by-hand layout (tokens as columns)
    layer: int = 0
    head: int = 0


D_MODELS = (2, 4, 8, 16, 32, 64)
D_KS = (1, 2, 4, 8, 16, 32, 64)
# Settings a link may carry (?sentence=...&heads=4&mask=causal), with what each accepts.
URL_SETTINGS = {
    "sentence": lambda v: v[:MAX_SENTENCE_CHARS],
    "d_model": lambda v: _pick(int(v), D_MODELS),
    "d_k": lambda v: _pick(int(v), D_KS),
    "weights": lambda v: _pick(v, tuple(WEIGHT_SOURCES)),
    "seed": lambda v: _pick(int(v), range(10_001)),
    "mask": lambda v: _pick(v, tuple(MASKS)),
    "n_heads": lambda v: _pick(int(v), range(1, 9)),
    "temperature": lambda v: _pick(round(float(v), 1), [x / 10 for x in range(1, 51)]),
    "layer": lambda v: _pick(int(v), range(6)),
    "head": lambda v: _pick(int(v), range(12)),
}


def _pick(value, allowed):
    if value not in allowed:
        raise ValueError(value)
    return value


def _from_url() -> dict:
    """Settings from the page's URL on a first visit; values out of range are ignored."""
    found = {}
    for name, parse in URL_SETTINGS.items():
        if name in st.query_params:
            try:
                found[name] = parse(st.query_params[name])
            except ValueError:
                st.warning(f"The link's value for {name} is not one the app offers; ignored.")
    return found


def current() -> LessonSettings:
    """The learner's settings: defaults, or the link's, on a first visit."""
    if "lesson" not in st.session_state:
        st.session_state["lesson"] = _from_url()
    stored = st.session_state["lesson"]
    return LessonSettings(**{f.name: stored.get(f.name, f.default) for f in fields(LessonSettings)})


def update(**values) -> None:
    """Change settings from code (e.g. 'open this head in the lessons')."""
    st.session_state.setdefault("lesson", {}).update(values)
    for name in values:
        st.session_state.pop(f"lesson_w_{name}", None)  # re-seed the widget next run


def _bind(name: str, options: list | None = None) -> dict:
    """Widget kwargs that start from and write back to the shared settings.

    The widget starts at the setting through `value`/`index` rather than by writing its
    session-state key, so a value the browser sends wins: after a server restart the
    browser's widgets carry the learner's latest input into the fresh session.
    """
    key = f"lesson_w_{name}"
    settings = current()  # on a first visit this reads the URL into the shared settings
    stored = st.session_state["lesson"]
    if key in st.session_state and name not in stored:
        stored[name] = st.session_state[key]  # a fresh session: adopt what the browser holds

    def keep() -> None:
        st.session_state.setdefault("lesson", {})[name] = st.session_state[key]

    value = stored.get(name, getattr(settings, name))
    start = {"index": options.index(value)} if options is not None else {"value": value}
    return {"key": key, "on_change": keep, **start}


def sentence_input() -> None:
    st.text_area(
        "Your sentence",
        max_chars=MAX_SENTENCE_CHARS,
        height=80,
        help="Up to 64 tokens. Each token becomes one row of X.",
        **_bind("sentence"),
    )


def sidebar(*, heads: bool = False, mask: bool = True) -> LessonSettings:
    """Draw the shared controls in the sidebar and return the settings they hold."""
    with st.sidebar:
        sentence_input()
        st.radio(
            "Weights W_Q, W_K, W_V",
            list(WEIGHT_SOURCES),
            format_func=WEIGHT_SOURCES.get,
            **_bind("weights", list(WEIGHT_SOURCES)),
        )
        s = current()
        if s.weights != "pretrained":
            st.select_slider("d_model (features per token)", D_MODELS, **_bind("d_model"))
        if s.weights == "random":
            st.select_slider("d_k (query/key size)", D_KS, **_bind("d_k"))
            st.number_input("seed", 0, 10_000, step=1, **_bind("seed"))
        if s.weights == "pretrained":
            st.slider("layer", 0, 5, **_bind("layer"))
            st.slider("head", 0, 11, **_bind("head"))
        if heads and s.weights != "pretrained":  # a real head is one head of MiniLM's 12
            st.slider("heads", 1, 8, **_bind("n_heads"))
        if mask:
            st.selectbox("Mask", list(MASKS), format_func=MASKS.get, **_bind("mask", list(MASKS)))
            s = current()
            if s.mask == "padding":
                st.slider("padding tokens at the end", 0, 8, **_bind("n_pad"))
            if s.mask == "window":
                st.slider("window: neighbours on each side", 0, 8, **_bind("window"))
        st.slider("temperature", 0.1, 5.0, step=0.1, **_bind("temperature"))
        st.toggle("numbers on cells", **_bind("show_numbers"))
        st.toggle("by-hand layout (tokens as columns)", **_bind("columns"))
    return _to_url(current())


def _to_url(s: LessonSettings) -> LessonSettings:
    """Mirror the settings in the URL: a shareable link, and what a reconnect after a
    server restart reads back (a new session starts from the URL, see `current`)."""
    for f in fields(LessonSettings):
        if f.name in URL_SETTINGS:
            value = getattr(s, f.name)
            if value != f.default:
                st.query_params[f.name] = str(value)
            elif f.name in st.query_params:
                del st.query_params[f.name]
    return s
