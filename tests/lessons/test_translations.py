"""Every lesson in Spanish and Chinese says what the English one says, in the same places:
the same sections, the same {blanks} for the app to fill, the same formulas, and the same
structure where the app reads a lesson as data (the pipeline, the inventory's questions)."""

import re
from collections import Counter

import pytest

from attn_lessons import inventory
from attn_lessons.i18n import LANGS
from attn_lessons.text import ROOT, lesson

NAMES = sorted(p.stem for p in (ROOT / "lessons").glob("*.md"))
OTHER = [lang for lang in LANGS if lang != "en"]
BLANK = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
# $$...$$ and $...$ spans; words inside \text{...} may be translated
MATHS = re.compile(r"\$\$.+?\$\$|\$[^$\n]+?\$", re.S)
TEXT = re.compile(r"\\(?:text|mathrm|operatorname)\{[^{}]*\}")
# what an English sentence looks like: four or more English words in a row
ENGLISH = re.compile(r"\b(?:the|and|of|is|are|each|every|which|with|this|that|your)\b", re.I)


def _read(lang: str, name: str) -> str:
    return (ROOT / "lessons" / lang / f"{name}.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", OTHER)
def test_every_lesson_has_a_translation(lang):
    missing = [n for n in NAMES if not (ROOT / "lessons" / lang / f"{n}.md").exists()]
    assert not missing
    extra = {p.stem for p in (ROOT / "lessons" / lang).glob("*.md")} - set(NAMES)
    assert not extra


@pytest.mark.parametrize("lang", OTHER)
@pytest.mark.parametrize("name", NAMES)
def test_same_sections_blanks_and_formulas(lang, name):
    english = lesson(name, "en")
    path = ROOT / "lessons" / lang / f"{name}.md"
    own = lesson(name, lang)
    headings = [
        line for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("## ")
    ]
    assert len(headings) == len(english) - 1, "a heading missing, or one too many"
    assert set(own) == set(english)
    for key, words in english.items():
        theirs = own[key]
        assert theirs != "" or words == "", (key, "empty")
        blanks = Counter(BLANK.findall(TEXT.sub("", words)))
        assert Counter(BLANK.findall(TEXT.sub("", theirs))) == blanks, key
        formulas = [TEXT.sub("", m) for m in MATHS.findall(words)]
        assert sorted(TEXT.sub("", m) for m in MATHS.findall(theirs)) == sorted(formulas), key


@pytest.mark.parametrize("lang", OTHER)
def test_headings_that_are_shown_are_translated(lang):
    """A heading the learner reads (a question that folds, "The formula", "Try this") is
    written in the language, with the English one as its id."""
    for name in NAMES:
        own = lesson(name, lang)
        for key in own:
            shown = key.endswith("?") or key in ("The formula", "Try this")
            if shown and own[key]:
                assert own.title(key) != key, (name, key)


@pytest.mark.parametrize("lang", OTHER)
def test_no_english_sentence_left(lang):
    left = []
    for name in NAMES:
        for key, words in lesson(name, lang).items():
            prose = TEXT.sub("", MATHS.sub("", re.sub(r"<!--.*?-->|`[^`]*`", "", words)))
            for line in prose.splitlines():
                if len(ENGLISH.findall(line)) >= 3:
                    left.append((name, key, line[:80]))
    assert not left


@pytest.mark.parametrize("lang", OTHER)
def test_the_inventory_asks_the_same_questions(lang):
    for form in inventory.FORMS:
        english = inventory.items(form, "en")
        own = inventory.items(form, lang)
        assert [q.concept for q in own] == [q.concept for q in english]
        for a, b in zip(english, own, strict=True):
            assert len(b.options) == len(a.options)
            assert b.answer == a.answer, (form, a.concept)
            assert b.wrong == a.wrong, (form, a.concept)


@pytest.mark.parametrize("lang", OTHER)
def test_the_pipeline_names_the_same_pages(lang):
    def pages(text):
        lines = [ln for ln in text.splitlines() if ln.startswith("- ")]
        return [ln.removeprefix("- ").split(": ", 1)[0] for ln in lines]

    english = pages(lesson("path", "en")["The pipeline"])
    assert pages(lesson("path", lang)["The pipeline"]) == english
