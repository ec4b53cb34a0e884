"""The lesson controls every step page shares, kept when the learner moves between pages.

One owner: this module. The values live in ``st.session_state["lesson"]``; each
widget has its own ``lesson_w_*`` key and is re-seeded from that dict when a page
draws it, because Streamlit deletes the state of widgets a page does not draw.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import streamlit as st

from attn_ui import registry

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
    "n_pad": lambda v: _pick(int(v), range(9)),
    "window": lambda v: _pick(int(v), range(9)),
    "show_numbers": lambda v: _flag(v),
    "columns": lambda v: _flag(v),
}


def _flag(value: str) -> bool:
    if value not in ("True", "False"):
        raise ValueError(value)
    return value == "True"


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


def open_in_lessons(**values) -> None:
    """Set the shared settings from code and go to the overview, which shows them."""
    update(**values)
    st.switch_page(registry.page("overview").path)


def _bind(name: str, options: list | None = None) -> dict:
    """Widget kwargs that start from and write back to the shared settings.

    The widget starts at the setting through `value`/`index` rather than by writing its
    session-state key, so a value the browser sends wins (see `_control`).
    """
    key = f"lesson_w_{name}"
    settings = current()  # on a first visit this reads the URL into the shared settings

    def keep() -> None:
        st.session_state.setdefault("lesson", {})[name] = st.session_state[key]

    value = st.session_state["lesson"].get(name, getattr(settings, name))
    start = {"index": options.index(value)} if options is not None else {"value": value}
    return {"key": key, "on_change": keep, **start}


def _control(widget, label: str, name: str, *args, options: list | None = None, **kwargs):
    """Draw one shared control and make the settings hold what it shows.

    Usually the two already agree (`keep` runs on every change). They differ on the first
    run of a fresh session after a server restart: the browser sends the widget values
    the learner last saw, the new session only has the URL's, and no change callback
    fires for a value the new session never had. The widget's value wins then.
    """
    if options is not None:
        args = (options, *args)
    value = widget(label, *args, **_bind(name, options), **kwargs)
    if value != getattr(current(), name):
        st.session_state["lesson"][name] = value
    return value


SENTENCE_HELP = "Up to 64 tokens. Each token becomes one row of X."


def sentence_input(help: str = SENTENCE_HELP) -> None:
    _control(
        st.text_area,
        "Your sentence",
        "sentence",
        max_chars=MAX_SENTENCE_CHARS,
        height=80,
        help=help,
    )


def sentence_box(help: str = SENTENCE_HELP) -> LessonSettings:
    """The sentence box where it is drawn, then the settings, mirrored in the URL.

    For a page that draws it inside an ``st.fragment`` with the figures: typing reruns
    only that fragment (the overview, bench/bench_app.py). `help`: the box's tooltip, for
    a page whose model reads the sentence with other limits (the decoder pages)."""
    sentence_input(help)
    return _to_url(current())


def sidebar(*, heads: bool = False, mask: bool = True, sentence: bool = True) -> LessonSettings:
    """Draw the shared controls and return the settings they hold: the sentence box here in
    the page, right above the figures it changes (on a phone the sidebar starts closed), and
    the rest in the sidebar. sentence=False: the page draws `sentence_box` itself."""
    if sentence:
        sentence_input()
    with st.sidebar:
        _control(
            st.radio,
            "Weights W_Q, W_K, W_V",
            "weights",
            options=list(WEIGHT_SOURCES),
            format_func=WEIGHT_SOURCES.get,
        )
        s = current()
        if s.weights != "pretrained":
            _control(st.select_slider, "d_model (features per token)", "d_model", D_MODELS)
        if s.weights == "random":
            _control(st.select_slider, "d_k (query/key size)", "d_k", D_KS)
            _control(st.number_input, "seed", "seed", 0, 10_000, step=1)
        if s.weights == "pretrained":
            _control(st.slider, "layer", "layer", 0, 5)
            _control(st.slider, "head", "head", 0, 11)
        if heads and s.weights != "pretrained":  # a real head is one head of MiniLM's 12
            _control(st.slider, "heads", "n_heads", 1, 8)
        if mask:
            _control(st.selectbox, "Mask", "mask", options=list(MASKS), format_func=MASKS.get)
            s = current()
            if s.mask == "padding":
                _control(st.slider, "padding tokens at the end", "n_pad", 0, 8)
            if s.mask == "window":
                _control(st.slider, "window: neighbours on each side", "window", 0, 8)
        _control(st.slider, "temperature", "temperature", 0.1, 5.0, step=0.1)
        _control(st.toggle, "numbers on cells", "show_numbers")
        _control(st.toggle, "by-hand layout (tokens as columns)", "columns")
    return _to_url(current())


def _to_url(s: LessonSettings, params=None) -> LessonSettings:
    """Mirror the settings in the URL: a shareable link, and what a reconnect after a
    server restart reads back (a new session starts from the URL, see `current`).

    Only what changed is written: Streamlit sends the browser a message for every write,
    and the browser rewrites its history entry each time, same value or not."""
    params = st.query_params if params is None else params
    for f in fields(LessonSettings):
        if f.name in URL_SETTINGS:
            text = str(getattr(s, f.name))
            if getattr(s, f.name) != f.default:
                if params.get(f.name) != text:
                    params[f.name] = text
            elif f.name in params:
                del params[f.name]
    return s
