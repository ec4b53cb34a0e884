"""HTML and Markdown typed as the sentence are shown as text, never rendered."""

from __future__ import annotations

import re

import pytest
from streamlit.testing.v1 import AppTest

from attn_core.text import embed
from attn_ui.compute import lesson_run
from attn_ui.settings import LessonSettings
from tests.support.apptest import ROOT, load, open_tables, type_sentence

HOSTILE = ["<script>alert(1)</script>", "<b>x</b>", "**x** [a](javascript:x)"]
PAGES = [
    "pages/00_Overview.py",
    "pages/01_Tokens.py",
    "pages/08_Multi-head.py",
    "pages/44_Cross_attention.py",
]
RAW = ("<script", "<b>", "**x**", "javascript:")


def table_tokens(at: AppTest) -> list[list[str]]:
    """Each dataframe's row labels, and each text column, as lists of strings."""
    found = []
    for df in (d.value for d in at.dataframe):
        found.append([str(i) for i in df.index])
        found += [[str(v) for v in df[c]] for c in df.columns if df[c].dtype == object]
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.split("/")[-1].removesuffix(".py"))
def test_hostile_sentence_is_shown_as_text(page, subtests):
    """Each sentence typed in turn: no exception; the tokens are table data; no Markdown
    element carries the raw text."""
    at = load(page)
    for sentence in HOSTILE:
        with subtests.test(sentence):
            open_tables(type_sentence(at, sentence))  # fails on an exception
            assert at.text_input(key="lesson_w_sentence").value == sentence
            columns = table_tokens(at)
            toy, _ = embed(sentence, 8)  # random weights (Multi-head), or the real head's
            for tokens in (toy, lesson_run(LessonSettings(sentence=sentence)).tokens):
                labelled = [f"{i} {t}" for i, t in enumerate(tokens)]
                if labelled in columns or list(tokens) in columns:
                    break
            else:
                raise AssertionError((toy, [c[:5] for c in columns]))
            rendered = [
                str(e.value)
                for kind in ("markdown", "caption", "title", "header", "subheader")
                for e in getattr(at, kind)
            ]
            leaked = [(r, m) for m in rendered for r in RAW if r in m]
            assert not leaked, leaked


def test_no_raw_html_in_the_app_code():
    """Nothing in pages/ or attn_ui/ switches Streamlit's HTML escaping off."""
    files = [*ROOT.glob("pages/*.py"), *ROOT.glob("attn_ui/**/*.py"), ROOT / "app.py"]
    assert len(files) > 20, files
    pattern = re.compile(r"unsafe_allow_html\s*=\s*True|\bst\.html\s*\(")
    hits = [
        f"{f.relative_to(ROOT)}: {m.group()}"
        for f in files
        for m in pattern.finditer(f.read_text(encoding="utf-8"))
    ]
    assert not hits, hits
