"""The lesson text: lessons/<name>.md read into sections, and their {blanks} filled. Pure
Python, no Streamlit: the pages show it through ``attn_ui.frame``, and the questions
(``attn_lessons.questions``) word their verdicts with it."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from attn_lessons import i18n

ROOT = Path(__file__).resolve().parents[1]


class Lesson(dict):
    """A lesson's sections keyed by their English '## ' heading ('' holds the title line), in
    the language it was read in. A translated file writes a heading as the learner reads it,
    with the English one as its id: ``## ¿Por qué restar el máximo? {#Why subtract the
    maximum?}``; `title` gives the words to show."""

    def __init__(self, sections: dict[str, str], titles: dict[str, str], lang: str):
        super().__init__(sections)
        self.titles = titles
        self.lang = lang

    def title(self, key: str) -> str:
        """The heading of section `key` as the learner reads it."""
        return self.titles.get(key, key)


def lesson(name: str, lang: str | None = None) -> Lesson:
    """Sections of lessons/<name>.md (lessons/<lang>/<name>.md in Spanish or Chinese) keyed by
    their English heading. A section a translation does not have yet is the English one, so
    a new English section shows until it is translated (tests/lessons keep them in step)."""
    lang = lang or i18n.current()
    english = ROOT / "lessons" / f"{name}.md"
    sections, titles = _sections(english, english.stat().st_mtime_ns)
    if lang != i18n.DEFAULT:
        path = ROOT / "lessons" / lang / f"{name}.md"
        if path.exists():
            own, own_titles = _sections(path, path.stat().st_mtime_ns)
            sections, titles = {**sections, **own}, {**titles, **own_titles}
    # a copy: the cached one stays as read
    return Lesson(dict(sections), dict(titles), lang)


_ID = re.compile(r"^(.*?)\s*\{#(.+)\}$")


@lru_cache(maxsize=256)
def _sections(path, mtime_ns: int) -> tuple[dict[str, str], dict[str, str]]:
    # mtime: an edited file is read again
    sections: dict[str, list[str]] = {"": []}
    titles: dict[str, str] = {}
    current = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            heading = line[3:].strip()
            found = _ID.match(heading)
            current = found.group(2).strip() if found else heading
            titles[current] = found.group(1).strip() if found else heading
            sections[current] = []
        else:
            sections[current].append(line)
    return {k: "\n".join(v).strip() for k, v in sections.items()}, titles


def fill(text: str, **values) -> str:
    """A lesson sentence with its {name} blanks filled by the page's values (already formatted:
    numbers are written by the code, words by the lesson). Other braces (LaTeX) stay."""
    for name, value in values.items():
        blank = "{" + name + "}"
        if blank not in text:
            raise KeyError(f"the lesson text has no {blank} to fill: {text[:60]!r}...")
        text = text.replace(blank, str(value))
    return text
