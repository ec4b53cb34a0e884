"""The lesson controls every step page shares, kept when the learner moves between pages.

One owner: this module, through the one state mechanism (``state``). The values live in
``st.session_state["lesson"]`` (the group ``LESSON``), each widget under its ``lesson_w_*``
key, started from them when a page draws it; a link's settings (``settings.lesson_link``)
seed them on a first visit, and the URL mirrors them.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import streamlit as st

from attn_lessons import i18n
from attn_lessons.i18n import N_, _
from attn_ui import frame, lang, registry, state
from attn_ui.compute.model import minilm
from attn_ui.settings import (
    D_KS,
    D_MODELS,
    MASKS,
    MAX_SENTENCE_CHARS,
    WEIGHT_SOURCES,
    LessonSettings,
    clean_sentence,
    lesson_defaults,
    lesson_link,
)

# A real head whose story lessons/weights.md tells: (layer, head) -> its section
KNOWN_HEADS = {
    (LessonSettings.layer, LessonSettings.head): "The default real head",
    (0, 2): "The previous-token head",
}
SENTENCE_CUT = "lesson_sentence_cut"  # session key: the length of the last paste that was cut


@functools.cache  # fixed for the process; asking the model's cache costs a hash per rerun
def minilm_sizes() -> tuple[int, int]:
    """The real head's model: its layers and heads (what a link's layer and head may be)."""
    model = minilm()
    return model.n_layers, model.n_heads


LESSON = state.Group("lesson", prefix="lesson_w_", link=lesson_link(minilm_sizes))


def current(defaults: dict | None = None) -> LessonSettings:
    """The learner's settings: defaults, or the link's, on a first visit.

    defaults : a page's own starting values for settings the learner has not chosen (the
    masking page starts from the causal mask); they are not stored, so other pages keep theirs.
    """
    return LessonSettings(**state.values(LESSON, _with_language(defaults)))


def update(**values) -> None:
    """Change settings from code (e.g. 'open this head in the lessons'): from a callback, or
    before the page draws their widgets (`state.choose`)."""
    state.choose(LESSON, **values)


def open_in_lessons(**values) -> None:
    """Set the shared settings from code and go to the overview, which shows them."""
    update(**values)
    st.switch_page(registry.page("overview").path, query_params=lang.link_params())


def _cut_sentence(text: str) -> str:
    """The sentence on one line and at most MAX_SENTENCE_CHARS long; a cut is remembered
    for the notice under the box (`sentence_input`)."""
    return _cut(text, MAX_SENTENCE_CHARS, SENTENCE_CUT)


def _cut(text: str, limit: int, cut_key: str) -> str:
    """`text` on one line and at most `limit` characters; the length of a text that was cut
    is kept in st.session_state[cut_key] for `cut_notice` (None when nothing was cut)."""
    text = clean_sentence(text)
    st.session_state[cut_key] = len(text) if len(text) > limit else None
    return text[:limit]


def cut_notice(cut_key: str, limit: int, reads: str) -> None:
    """The notice under a one-line box whose last paste was cut (see `_cut`).

    reads: what the page reads of the text, e.g. "The lessons read at most 64 tokens"
    (translated by the caller)."""
    cut = st.session_state.get(cut_key)
    if cut:
        st.warning(
            _(
                "Your text had {cut} characters: the box keeps the first {limit}. "
                "{reads}; shorten it to choose what stays."
            ).format(cut=cut, limit=limit, reads=reads)
        )


def text_line(
    label: str,
    *,
    key: str,
    reads: str,
    help: str,
    limit: int = MAX_SENTENCE_CHARS,
    default: str | None = None,
    on_change=None,
) -> str:
    """A page's own one-line text box that behaves like the lesson sentence box: it applies
    on Enter (a phone's Go), a line break becomes a space (never a newline in a URL), and a
    paste over `limit` characters is cut, with a notice under the box.

    key : the widget's key (the page's prefix); default seeds it when it has no value yet.
    on_change : the page's own callback, run after the text is cut (e.g. `widgets.remembered`'s).
    """
    cut_key = f"{key}_cut"
    if default is not None and key not in st.session_state:
        st.session_state[key] = default  # seeded here, not by `value`: the callback rewrites it

    def tidy() -> None:
        st.session_state[key] = _cut(st.session_state[key], limit, cut_key)
        if on_change is not None:
            on_change()

    value = st.text_input(label, key=key, on_change=tidy, help=help)
    cut_notice(cut_key, limit, reads)
    return clean_sentence(value)[:limit]  # a value no callback saw (a reconnect's)


def _control(
    widget,
    label: str,
    name: str,
    *args,
    options: list | None = None,
    defaults: dict | None = None,
    **kwargs,
):
    """Draw one shared control and make the settings hold what it shows (`state.keep`: after
    a server restart, the value the browser sends wins). The sentence box is tidied as the
    learner types: one line, cut to MAX_SENTENCE_CHARS (its callback rewrites the box)."""
    if options is not None:
        args = (options, *args)
    tidy = _cut_sentence if name == "sentence" else None
    defaults = _with_language(defaults)
    bound = state.bind(LESSON, name, options=options, defaults=defaults, tidy=tidy)
    value = widget(label, *args, **bound, **kwargs)
    if name == "sentence":  # a value no callback saw (a reconnect's)
        value = _cut_sentence(value) if len(value) > MAX_SENTENCE_CHARS else clean_sentence(value)
    return state.keep(LESSON, name, value, defaults)


_SENTENCE_HELP = N_(
    "Press Enter to apply. Up to 64 tokens; each token becomes one row of X. "
    "A longer paste is cut to {chars} characters."
)
SENTENCE_HELP = _SENTENCE_HELP.format(chars=MAX_SENTENCE_CHARS)  # in English


def sentence_help() -> str:
    """The sentence box's tooltip, in the page's language."""
    return _(_SENTENCE_HELP).format(chars=MAX_SENTENCE_CHARS)


def sentence_input(help: str | None = None) -> None:
    """One line that applies on Enter (a phone's Go): a text area took Enter as a new line.

    No `max_chars`: the browser would drop a longer paste without a word. It is cut here,
    and the notice says so. help: the tooltip, translated (None: `sentence_help`)."""
    help = sentence_help() if help is None else help
    _control(st.text_input, _("Your sentence"), "sentence", help=help)
    cut_notice(SENTENCE_CUT, MAX_SENTENCE_CHARS, _("The lessons read at most 64 tokens"))


def sentence_box(
    help: str | None = None, *, note: bool = False, defaults: dict | None = None
) -> LessonSettings:
    """The sentence box where it is drawn, then the settings, mirrored in the URL.

    For a page that draws it inside an ``st.fragment`` with the figures: typing reruns
    only that fragment (the overview and the step pages, bench/bench_pages.py). `help`: the
    box's tooltip, for a page whose model reads the sentence with other limits (the decoder
    pages). `defaults`: the page's own start, as given to `sidebar`."""
    sentence_input(help)
    if note:  # the lesson's weights (not a decoder page's model): say whose they are
        weights_note(current(defaults))
    return settings(defaults)


def sidebar(
    *,
    heads: bool = False,
    mask: bool = True,
    sentence: bool = True,
    defaults: dict | None = None,
    note: bool = True,
    here: Sequence[str] = (),
) -> LessonSettings:
    """Draw the shared controls and return the settings they hold.

    Above the figures, in the page's main column (on a phone the sidebar is a drawer that
    covers them): the sentence box, then in one row the weight source and the page's key
    controls, `here` (names of LessonSettings fields, e.g. ("d_k",) on Scaling). The rest
    go in the sidebar. Each control is drawn once, in one place, under its one key, so the
    shared settings stay the single owner (a control a page draws above the figures is the
    same setting other pages show in their sidebar).

    sentence=False: the page draws `sentence_box` itself.
    defaults: the page's own start for settings the learner has not chosen (see `current`).
    note=False: the page says itself whose weights it shows (`weights_note`)."""
    page = {"defaults": defaults}
    if sentence:
        sentence_input()
    here = {"weights", *here}
    top = st.container(horizontal=True, gap="medium", key="lesson_here")

    def at(name: str):
        return top if name in here else st.sidebar

    with at("weights"):
        weights_choice(defaults, horizontal="weights" in here)
    s = current(defaults)
    if s.weights != "pretrained":
        with at("d_model"):
            label = _("d_model (features per token)")
            _control(st.select_slider, label, "d_model", D_MODELS, **page)
    if s.weights == "random":
        with at("d_k"):
            _control(st.select_slider, _("d_k (query/key size)"), "d_k", D_KS, **page)
            d_k_note(current(defaults))
        with at("seed"):
            _control(st.number_input, _("seed"), "seed", 0, 10_000, step=1, **page)
    if s.weights == "pretrained":
        n_layers, n_heads = minilm_sizes()
        with at("layer"):
            _control(st.slider, _("layer"), "layer", 0, n_layers - 1, **page)
        with at("head"):
            _control(st.slider, _("head"), "head", 0, n_heads - 1, **page)
    if heads and s.weights != "pretrained":  # a real head is one head of MiniLM's
        with at("n_heads"):
            _control(st.slider, _("heads"), "n_heads", 1, 8, **page)
    if mask:
        with at("mask"):
            _control(
                st.selectbox,
                _("Mask"),
                "mask",
                options=list(MASKS),
                format_func=lambda v: _(MASKS[v]),
                **page,
            )
            s = current(defaults)
            if s.mask == "padding":
                _control(st.slider, _("padding tokens at the end"), "n_pad", 0, 8, **page)
            if s.mask == "window":
                label = _("window: neighbours on each side")
                _control(st.slider, label, "window", 0, 8, **page)
    with at("temperature"):
        _control(st.slider, _("temperature"), "temperature", 0.1, 5.0, step=0.1, **page)
    with st.sidebar:
        _control(st.toggle, _("numbers on cells"), "show_numbers", **page)
        _control(st.toggle, _("by-hand layout (tokens as columns)"), "columns", **page)
    if sentence and note:
        weights_note(current(defaults))
    return settings(defaults)


def weights_choice(defaults: dict | None = None, *, horizontal: bool = True) -> str:
    """The weight source (a real head, seeded random, similarity), as one shared control."""
    return _control(
        st.radio,
        _("Weights W_Q, W_K, W_V"),
        "weights",
        options=list(WEIGHT_SOURCES),
        format_func=lambda v: _(WEIGHT_SOURCES[v]),
        horizontal=horizontal,
        defaults=defaults,
    )


def d_k_note(s: LessonSettings) -> None:
    """What a d_k above d_model means: allowed, but it adds no information."""
    if s.d_k > s.d_model:
        st.caption(frame.fill(frame.lesson("weights")["d_k above d_model"], **_sizes(s)))


def _sizes(s: LessonSettings) -> dict[str, str]:
    return {"d_k": str(s.d_k), "d_model": str(s.d_model)}


def weights_note(s: LessonSettings) -> None:
    """One line under the sentence box: whose weights the figures show, and what to expect
    of them (a real head chooses; random ones are nearly uniform). The note's first paragraph
    is the line; the rest folds under it, so the figure stays near the top on a phone."""
    text = frame.lesson("weights")
    if s.weights == "pretrained":
        note = text[KNOWN_HEADS.get((s.layer, s.head), "A real head")]
        note = frame.fill(note, layer=str(s.layer), head=str(s.head))
    else:
        note = text["Random weights" if s.weights == "random" else "Similarity weights"]
    line, _sep, more = note.partition("\n\n")
    st.caption(line)
    if more:
        with st.expander(_("More on these weights")):
            st.caption(more)


def settings(defaults: dict | None = None) -> LessonSettings:
    """The learner's settings, mirrored in the URL (`state.to_url`): a shareable link, and
    what a reconnect after a server restart reads back."""
    return LessonSettings(**state.to_url(LESSON, _with_language(defaults)))


def _with_language(defaults: dict | None) -> dict:
    """A page's own defaults over its language's (a Chinese page opens on a Chinese sentence)."""
    return {**lesson_defaults(i18n.current()), **(defaults or {})}
