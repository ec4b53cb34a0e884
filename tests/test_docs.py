"""The README and docs/: every relative link resolves (to a file, and to a heading when it names
one), every page address and link setting they print opens that page with that setting, the
README's map lists every page, and the README stays a five-minute read."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import fields
from pathlib import Path
from urllib.parse import parse_qsl

from attn_lessons.i18n import LANGS
from attn_ui import controls, registry, settings
from attn_ui.lang import PARAM as LANG_PARAM
from attn_ui.settings import LessonSettings

LESSON_LINK = controls.LESSON.link  # the lesson settings' link, with the real model's sizes

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = [README, *sorted((ROOT / "docs").glob("*.md"))]
README_MAX_LINES = 150

FENCE = re.compile(r"^```.*?^```", re.S | re.M)
CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*$", re.M)
# An app address in prose or code: /Name or /Name?query, never part of a file path (a/b).
ADDRESS = re.compile(r"(?<![\w./<-])/([A-Z][\w-]*)(?:\?([^\s`)<>]*))?")
SETTINGS_TABLE = re.compile(r"^\| `(\w+)` \| .* \| `([^`]*)` \|$", re.M)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: a link's text for the link, lower case, every character
    but letters, digits, `_`, `-` and spaces dropped, spaces as hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every heading's anchor; GitHub numbers a repeated one: name, name-1, name-2."""
    seen: Counter = Counter()
    out = set()
    for heading in HEADING.findall(FENCE.sub("", text)):
        name = slug(heading)
        out.add(f"{name}-{seen[name]}" if seen[name] else name)
        seen[name] += 1
    return out


def broken_links(path: Path) -> list[str]:
    """The relative links in `path` (Markdown) whose file or heading does not exist."""
    prose = CODE.sub("", FENCE.sub("", path.read_text(encoding="utf-8")))
    broken = []
    for target in LINK.findall(prose):
        if re.match(r"[a-z]+:", target):  # http:, https:, mailto: are not ours to check offline
            continue
        file, _, anchor = target.partition("#")
        dest = (path.parent / file).resolve() if file else path
        if not dest.is_file():
            broken.append(f"{path.name}: {target} (no such file)")
        elif anchor and anchor not in anchors(dest.read_text(encoding="utf-8")):
            broken.append(f"{path.name}: {target} (no such heading)")
    return broken


def opened_with(query: dict) -> tuple[LessonSettings, list[str]]:
    """The settings a first visit with this query starts from (the lesson settings' link, as
    a page reads it), and the names of the values it ignores (each one a notice)."""
    found, ignored = settings.from_query(query, LESSON_LINK)
    return LessonSettings(**found), ignored


def test_every_relative_link_resolves():
    assert len(DOCS) > 1, "docs/ has no Markdown files"
    assert [bad for path in DOCS for bad in broken_links(path)] == []


def test_the_link_check_sees_a_missing_file_and_heading(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "## `make class`: replicas, behind HAProxy\n## Notes\n## Notes\n"
        "[a](#make-class-replicas-behind-haproxy) [b](#notes-1) [c](#nope) [d](gone.md)\n"
        "```\n[e](also-gone.md)\n```\n",
        encoding="utf-8",
    )
    assert broken_links(page) == [
        "page.md: #nope (no such heading)",
        "page.md: gone.md (no such file)",
    ]


def test_the_readme_is_a_five_minute_read():
    lines = len(README.read_text(encoding="utf-8").splitlines())
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines; move detail into docs/"


def test_the_readme_map_lists_every_page():
    readme = README.read_text(encoding="utf-8")
    assert [p.url for p in registry.PAGES if f"| `{p.url}` |" not in readme] == []


def test_every_address_opens_a_page_with_its_settings():
    pages = {p.url: p for p in registry.PAGES}
    links = [(path.name, *m) for path in DOCS for m in ADDRESS.findall(path.read_text("utf-8"))]
    assert any(query for *_, query in links), "no link with settings found: is ADDRESS right?"
    for where, name, query in links:
        assert f"/{name}" in pages, f"{where}: /{name} is not a page of the app"
        params = dict(parse_qsl(query, keep_blank_values=True))
        lang = params.pop(LANG_PARAM, None)  # every page takes the language
        assert lang is None or lang in LANGS, f"{where}: /{name}?{query}: no language {lang}"
        if pages[f"/{name}"].params:  # a page with its own parameters (the class pages)
            assert set(params) <= set(pages[f"/{name}"].params), f"{where}: /{name}?{query}"
            continue
        unknown = set(params) - set(LESSON_LINK.names)
        assert not unknown, f"{where}: /{name}?{query}: {unknown} are not link settings"
        s, notices = opened_with(params)
        assert notices == [], f"{where}: /{name}?{query}: {notices}"
        assert {k: str(getattr(s, k)) for k in params} == params, f"{where}: /{name}?{query}"


def test_the_settings_table_lists_every_link_setting_and_its_default():
    text = (ROOT / "docs" / "teaching.md").read_text(encoding="utf-8")
    rows = dict(SETTINGS_TABLE.findall(text))
    assert set(rows) == set(LESSON_LINK.names)
    defaults = {f.name: f.default for f in fields(LessonSettings)}
    for name, default in rows.items():
        s, notices = opened_with({name: default})
        assert notices == [] and getattr(s, name) == defaults[name], (name, default)
