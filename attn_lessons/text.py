"""The lesson text: lessons/<name>.md read into sections, and their {blanks} filled. Pure
Python, no Streamlit: the pages show it through ``attn_ui.frame``, and the questions
(``attn_lessons.questions``) word their verdicts with it."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


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
