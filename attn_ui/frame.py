"""The page frame: page config, the grouped menu, lesson text, previous/next links, and the
one way a page tells the learner about an input it cannot use.

Navigation uses one mechanism only: Streamlit's ``pages/`` folder (each page a script, so a
deep link runs that page and nothing else). The built-in file-name menu is switched off in
``.streamlit/config.toml`` and replaced by the grouped menu below, drawn from
``attn_ui.registry``.
"""

from __future__ import annotations

import gc
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache

import streamlit as st

from attn_core import AttentionInputError
from attn_ui import page_style
from attn_ui.path import progress
from attn_ui.registry import GROUPS, ROOT, in_group, info

INTRO = ("What you'll learn", "The idea", "The formula")  # drawn under the title, in order
# Characters that would turn text quoted from the learner into emphasis, code, a link, HTML
# or maths inside Streamlit's Markdown.
_MARKUP = re.compile(r"([\\`*_\[\]<>$~])")


def lesson(name: str) -> dict[str, str]:
    """Sections of lessons/<name>.md keyed by their '## ' heading; '' holds the title line."""
    path = ROOT / "lessons" / f"{name}.md"
    return dict(_sections(path, path.stat().st_mtime_ns))  # a copy: the cached one stays as read


@lru_cache(maxsize=64)
def _sections(path, mtime_ns: int) -> dict[str, str]:  # mtime: an edited file is read again
    sections: dict[str, list[str]] = {"": []}
    current = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            current = line[3:].strip()
            sections[current] = []
        else:
            sections[current].append(line)
    return {k: "\n".join(v).strip() for k, v in sections.items()}


def fill(text: str, **values) -> str:
    """A lesson sentence with its {name} blanks filled by the page's values (already formatted:
    numbers are written by the code, words by the lesson). Other braces (LaTeX) stay."""
    for name, value in values.items():
        blank = "{" + name + "}"
        if blank not in text:
            raise KeyError(f"the lesson text has no {blank} to fill: {text[:60]!r}...")
        text = text.replace(blank, str(value))
    return text


def navigation(current: str = "The steps") -> None:
    """The grouped menu, drawn in the sidebar of every page; the current group is open.

    A closed group's links are drawn only once it is opened (opening it reruns the page):
    twenty links on every rerun were about a third of a slider move's server time.

    A step page whose check the learner has answered right starts with "✓" (a screen reader
    says "check mark": a sign, not a colour); the marks live in the browser
    (`attn_ui.path.progress`), and a button under the steps clears them."""
    done = progress.done()
    with st.sidebar:
        st.page_link("app.py", label="Attention Lab: start here", icon=":material/home:")
        for group in GROUPS:
            pages = in_group(group)
            if pages:
                box = st.expander(
                    group,
                    expanded=group == current,
                    key=f"nav_{current}_{group}",
                    on_change="rerun",
                )
                if box.open:
                    for p in pages:
                        box.page_link(p.path, label=_menu_label(p, done))
                    if group == "The steps" and done:
                        box.button(
                            "Reset my progress",
                            key="nav_reset_progress",
                            on_click=progress.reset,
                            icon=":material/restart_alt:",
                        )
        st.divider()
        progress.save()


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


def page(file: str) -> dict[str, str]:
    """Set up a page: config, menu, title and intro. Returns its lesson sections."""
    me = info(file)
    _freeze_imports()
    st.set_page_config(page_title=f"{me.title} · Attention Lab", layout="wide")
    page_style.apply()
    navigation(me.group)
    text = lesson(me.name)
    st.title(me.title)
    if me.group == "The steps":
        st.markdown(pipeline(me.name))
    for heading in INTRO:
        if text.get(heading):
            if heading == "The formula":  # h2 under the h1 title (axe-core's heading-order)
                st.markdown(f"## {heading}")
            st.markdown(text[heading])
    return text


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
        st.markdown("### Try this")
        st.markdown(text["Try this"])
    group = in_group(me.group)
    i = group.index(me)
    left, right = st.columns(2)
    if i > 0:
        left.page_link(group[i - 1].path, label=f"Previous: {group[i - 1].title}", icon="⬅️")
    if i + 1 < len(group):
        right.page_link(group[i + 1].path, label=f"Next: {group[i + 1].title}", icon="➡️")


def home() -> None:
    """The home page (app.py): the learner's sentence and attention on it, live, then every
    page by group."""
    from attn_ui import first_screen  # it draws with the controls, which import this module

    st.set_page_config(page_title="Attention Lab", layout="wide")
    page_style.apply()
    navigation()
    text = lesson("home")
    st.title("Attention Lab")
    st.markdown(text["The idea"])
    first_screen.live(text)
    for group in GROUPS:
        pages = in_group(group)
        if not pages:
            continue
        st.header(group)  # h2 under the h1 title (axe-core's heading-order)
        st.markdown(text.get(group, ""))
        # three to a row, a row at a time: a phone stacks columns one under the other, and
        # must list the pages in lesson order (one st.columns for all read 1, 4, 7, 2, ...)
        for first in range(0, len(pages), 3):
            for col, p in zip(st.columns(3), pages[first : first + 3], strict=False):
                col.page_link(p.path, label=p.title)


def quoted(text: str) -> str:
    """`text` safe to show in Markdown when it quotes what the learner typed."""
    return _MARKUP.sub(r"\\\1", text)


def show_error(exc: Exception, where: str = "") -> None:
    """A learner-caused error, in words ('where: ' first, to say which input), nothing else."""
    message = f"{where}: {exc}" if where else str(exc)
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
