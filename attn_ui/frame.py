"""The page frame: page config, the grouped menu, lesson text, previous/next links, and the
one way a page tells the learner about an input it cannot use.

Navigation uses one mechanism only: Streamlit's ``pages/`` folder (each page a script, so a
deep link runs that page and nothing else). The built-in file-name menu is switched off in
``.streamlit/config.toml`` and replaced by the grouped menu below, drawn from
``attn_ui.registry``.
"""

from __future__ import annotations

import functools
import gc
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import streamlit as st

from attn_core import AttentionInputError
from attn_lessons import i18n
from attn_lessons.i18n import _
from attn_lessons.i18n import words_of as words_of  # an error's words, in the page's language
from attn_lessons.text import fill as fill  # the pages fill lesson text through the frame
from attn_lessons.text import lesson
from attn_ui import lang, page_style
from attn_ui.path import membership, progress
from attn_ui.registry import GROUPS, in_group, info

LEAD = "In one line"  # the lesson's sentence under the title: what the page shows
WORDS = ("What you'll learn", "The idea", "The formula")  # drawn beside the first figure
FIGURE_HEADING = "attn_live_figure"  # the key of the figure column's hidden h2
# Characters that would turn text quoted from the learner into emphasis, code, a link, HTML
# or maths inside Streamlit's Markdown.
_MARKUP = re.compile(r"([\\`*_\[\]<>$~])")


@functools.cache
def _page(path: str) -> st.Page:
    """The page file at `path` as an ``st.Page``, made once per process: a link given by path
    makes Streamlit resolve the file (os.path.realpath) and search every page on every
    rerun, about a millisecond for the menu's thirty links (bench/profile_server.py). Not
    for app.py: as an ``st.Page`` its address would be /app, not the home page's /."""
    return st.Page(path)


def navigation(current: str = "The steps") -> None:
    """The grouped menu, drawn in the sidebar of every page; the current group is open.

    A closed group's links are drawn only once it is opened (opening it reruns the page):
    twenty links on every rerun were about a third of a slider move's server time.

    A step page whose check the learner has answered right starts with "✓" (a screen reader
    says "check mark": a sign, not a colour); the marks live in the browser
    (`attn_ui.path.progress`), and a button under the steps clears them."""
    done = progress.done()
    with st.sidebar:
        links = lang.link_params()
        st.page_link(
            "app.py",
            label=_("Attention Lab: start here"),
            icon=":material/home:",
            query_params=links,
        )
        language_choice()
        for group in GROUPS:
            pages = in_group(group)
            if pages:
                box = st.expander(
                    _(group),
                    expanded=group == current,
                    key=f"nav_{current}_{group}",
                    on_change="rerun",
                )
                if box.open:
                    for p in pages:
                        box.page_link(_page(p.path), label=_menu_label(p, done), query_params=links)
                    if group == "The steps" and done:
                        box.button(
                            _("Reset my progress"),
                            key="nav_reset_progress",
                            on_click=progress.reset,
                            icon=":material/restart_alt:",
                        )
        st.divider()
        progress.save()
        membership.save()


def language_choice() -> None:
    """The language menu, named in all three languages (a learner who landed on one they do
    not read still finds it). Choosing writes ?lang= and reruns the page in it; the other
    settings in the address stay."""

    def chosen() -> None:
        st.query_params[lang.PARAM] = st.session_state["nav_lang"]

    shown = i18n.current()
    if st.session_state.get("nav_lang") != shown:
        st.session_state["nav_lang"] = shown  # the page's language, also when the link set it
    st.selectbox(
        "Language · Idioma · 语言",
        i18n.LANGS,
        format_func=i18n.NAMES.get,
        key="nav_lang",
        on_change=chosen,
    )


def _menu_label(p, done: frozenset[str]) -> str:
    return f"✓ {p.title}" if p.name in done else p.title


_modules_frozen = 0


def _freeze_imports() -> None:
    """After new imports: move what they built (Streamlit, Plotly, pandas, ...) out of the
    garbage collector's reach, so its full collections walk only what reruns create.

    Runs gc.freeze() only when sys.modules has grown, a bounded number of times per
    process; with runner.postScriptGC off (.streamlit/config.toml) this trims the
    latency tail under load (bench/bench_load.py)."""
    global _modules_frozen
    if len(sys.modules) != _modules_frozen:
        gc.freeze()
        _modules_frozen = len(sys.modules)


def page(file: str, sections: tuple[str, ...] = ()) -> dict[str, str]:
    """Set up a page: config, menu, the title, the step's place in the pipeline (the steps)
    and the lesson's one sentence of what the page shows ("In one line"). Returns its lesson
    sections. The lesson's words go beside the page's first live figure (`beside`); a page
    with no live figure draws them here, as `sections` (e.g. ``WORDS``)."""
    me = info(file)
    _freeze_imports()
    lang.start()
    st.set_page_config(page_title=f"{me.title} · Attention Lab", layout="wide")
    page_style.apply()
    navigation(me.group)
    text = lesson(me.name)
    st.title(me.title)
    if me.group == "The steps":
        st.markdown(pipeline(me.name))
    if text.get(LEAD):
        st.markdown(text[LEAD])
    intro(text, sections)
    return text


@contextmanager
def beside(text: dict[str, str], headings: tuple[str, ...] = WORDS, *, ratio=(3, 2), heading=True):
    """The page's first live figure (drawn in the `with` block), with the lesson's words
    (`intro`) beside it on a wide screen and right after it on a phone, where columns stack
    in order. Yields the words' column, for what a page adds there (the step pages' "Where
    it sits" box).

        with frame.beside(text):
            panels.square(...)
    """
    figure, words = st.columns(ratio, gap="large")
    with words:
        intro(text, headings)
    with figure:
        if heading:
            figure_heading()
        yield words


def figure_heading() -> None:
    """An h2 for screen readers only (page_style hides it), where the live figure starts: the
    page's h3 sections follow the h1 title, and headings go down one level at a time. A page
    whose figure's control comes before `beside` (Masking's mask) draws it there, and passes
    heading=False to `beside`."""
    with st.container(key=FIGURE_HEADING):
        st.markdown("## " + _("Live figure"))


def intro(text: dict[str, str], headings: tuple[str, ...] = WORDS) -> None:
    """The lesson's words among `headings`, in order: "The formula" under its h2, and after
    "The idea" every section whose heading is a question ("Why subtract the maximum?"),
    folded, so that a long explanation waits for the learner who asks it."""
    for heading in headings:
        if not text.get(heading):
            continue
        if heading == "The formula":  # h2 under the h1 title (axe-core's heading-order)
            st.markdown(f"## {text.title(heading)}")
        st.markdown(text[heading])
        if heading == "The idea":
            folds(text)


def folds(text: dict[str, str]) -> None:
    """Every section of the lesson whose heading ends with "?", as a closed expander."""
    for heading, words in text.items():
        if heading.endswith("?") and words:
            with st.expander(text.title(heading)):
                st.markdown(words)


def pipeline(name: str) -> str:
    """A step page's place in the pipeline: the stages of lessons/path.md on one line of
    Markdown, the page's own in bold (the overview's: none, it shows them all)."""
    path = lesson("path")
    stages = [
        line.removeprefix("- ").split(": ", 1)
        for line in path["The pipeline"].splitlines()
        if line.startswith("- ")
    ]
    line = " → ".join(f"**{stage}**" if page == name else stage for page, stage in stages)
    return f"{path['Lead']} {line}"


def footer(file: str) -> None:
    """'Try this' prompts and previous/next links within the page's group."""
    me = info(file)
    text = lesson(me.name)
    if text.get("Try this"):
        st.markdown("### " + text.title("Try this"))
        st.markdown(text["Try this"])
    group = in_group(me.group)
    i = group.index(me)
    left, right = st.columns(2)
    links = lang.link_params()
    if i > 0:
        label = _("Previous: {title}").format(title=group[i - 1].title)
        left.page_link(_page(group[i - 1].path), label=label, icon="⬅️", query_params=links)
    if i + 1 < len(group):
        label = _("Next: {title}").format(title=group[i + 1].title)
        right.page_link(_page(group[i + 1].path), label=label, icon="➡️", query_params=links)


def quoted(text: str) -> str:
    """`text` safe to show in Markdown when it quotes what the learner typed."""
    return _MARKUP.sub(r"\\\1", text)


def show_error(exc: Exception, where: str = "") -> None:
    """A learner-caused error, in words ('where: ' first, to say which input), nothing else."""
    words = words_of(exc)
    message = f"{where}: {words}" if where else words
    st.error(quoted(message), icon=":material/error:")


@contextmanager
def stop_on_error(where: str = "", *, section: bool = False) -> Iterator[None]:
    """The one way a page stops on an input the learner can fix.

    Runs the block; on the core's AttentionInputError shows its sentence (`show_error`) and
    ends this run of the page, so nothing after the block draws stale or broken figures.
    section=True ends only the block: the page's other, independent parts still work.

        with frame.stop_on_error():
            run = compute.lesson_run(s)

    The page keeps working for the next input. st.stop() raises out of this generator, so
    the `with` does not swallow it.
    """
    try:
        yield
    except AttentionInputError as exc:
        show_error(exc, where)
        if not section:
            st.stop()
