"""The interface in Spanish and Chinese: every string the code marks has its translation in
both catalogues, with the same {fields}, and the template holds exactly what the code marks
(`make catalogs` after adding a string)."""

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from attn_lessons import i18n
from attn_lessons.text import ROOT

OTHER = [lang for lang in i18n.LANGS if lang != i18n.DEFAULT]
FIELD = re.compile(r"\{(\w*)(?:[:!][^{}]*)?\}")


def _ids(catalog) -> set:
    return {m.id for m in catalog if m.id}


def _read(path: Path):
    with path.open("rb") as f:
        return read_po(f)


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> set:
    out = tmp_path_factory.mktemp("pot") / "messages.pot"
    pybabel = Path(sys.executable).with_name("pybabel")
    subprocess.run(
        [
            str(pybabel),
            "extract",
            "-F",
            "babel.cfg",
            "-k",
            "N_",
            "-k",
            "_said:3",
            "-k",
            "said",
            "-o",
            str(out),
            ".",
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    return _ids(_read(out))


def test_the_template_holds_what_the_code_marks(extracted):
    template = _ids(_read(i18n.LOCALE / "messages.pot"))
    assert extracted - template == set(), "new strings: run `make catalogs`, then translate"
    assert template - extracted == set(), "strings no longer in the code: run `make catalogs`"


@pytest.mark.parametrize("lang", OTHER)
def test_every_string_is_translated(lang, extracted):
    catalog = _read(i18n.catalog_path(lang))
    assert _ids(catalog) == extracted
    untranslated = [m.id for m in catalog if m.id and (not m.string or m.fuzzy)]
    assert untranslated == []


@pytest.mark.parametrize("lang", OTHER)
def test_translations_keep_the_fields(lang):
    for m in _read(i18n.catalog_path(lang)):
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        every = set().union(*(FIELD.findall(i) for i in ids))
        for s in strings:  # a form may leave a field out ("un token"), never add one
            assert set(FIELD.findall(s)) <= every, (m.id, s)
        # the general form (the last: Chinese has only it) says everything the English does
        assert set(FIELD.findall(strings[-1])) == set(FIELD.findall(ids[-1])), (m.id, strings)


@pytest.mark.parametrize("lang", OTHER)
def test_the_catalogue_compiles_and_translates(lang):
    title = "5. Softmax: weights sum to 1"
    with i18n.using(lang):
        shown = i18n._(title)
        assert shown and shown != title
        assert i18n.current() == lang
    assert i18n._(title) == title  # outside: English


def test_language_tags():
    assert i18n.normal("es-MX") == "es"
    assert i18n.normal("zh-Hans-CN") == "zh"
    assert i18n.normal("ZH_tw") == "zh"
    assert i18n.normal("fr-FR") is None
    assert i18n.normal(None) is None


def _own_nodes(fn):
    """The nodes of a function's own scope (not of functions or comprehensions inside it)."""
    scoped = (
        ast.FunctionDef,
        ast.AsyncFunctionDef,
        ast.Lambda,
        ast.ListComp,
        ast.SetComp,
        ast.DictComp,
        ast.GeneratorExp,
    )
    todo = list(ast.iter_child_nodes(fn))
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, scoped):
            todo.extend(ast.iter_child_nodes(node))


def test_no_function_hides_the_translator_behind_a_throwaway_variable():
    """`for _ in ...` in a function that also calls _() makes _ local there: the call raises
    UnboundLocalError (and only in that function, only when it runs)."""
    files = [ROOT / "app.py", *ROOT.glob("pages/*.py")]
    for package in ("attn_ui", "attn_lessons", "attn_sheets"):
        files += (ROOT / package).rglob("*.py")
    found = []
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef | ast.Module):
                continue  # a page's own lines (the module) count too
            nodes = list(_own_nodes(fn))
            stores = any(
                isinstance(n, ast.Name) and n.id == "_" and isinstance(n.ctx, ast.Store)
                for n in nodes
            )
            calls = any(
                isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "_"
                for n in nodes
            )
            if stores and calls:
                found.append(f"{path.relative_to(ROOT)}: {getattr(fn, 'name', 'module')}")
    assert found == []


@pytest.mark.parametrize("rule", ["floor", "trunc"])
def test_a_likely_mistake_is_explained_in_the_language_with_the_sheets_values(rule):
    """The checker's explanations come from the core (English, its values filled in); the
    practice page shows each one translated, filled with the same values."""
    from attn_core.by_hand.exercises import make_exercise
    from attn_core.by_hand.mistakes import variants
    from attn_ui.by_hand.practice import detail

    ex = make_exercise(seed=3, variant="causal", scale_rule=rule)
    found = variants(ex.heads[0])
    assert len({m.template for m in found}) >= 12
    for m in found:
        assert m.template.format(**m.fills) == m.detail
        assert detail(m) == m.detail  # English: the core's words
        for lang in OTHER:
            with i18n.using(lang):
                shown = detail(m)
            assert shown != m.detail, (lang, m.key)
            for value in m.fills.values():
                assert value in shown, (lang, m.key, value)


def test_an_error_from_the_core_or_the_class_store_reads_in_the_language():
    """The core's and the store's errors keep their English message; a page in Spanish or
    Chinese shows the translation, filled with the error's own values."""
    from attn_class.store import read_code, read_nickname
    from attn_core.text import embed

    for make in (lambda: embed("   ", 8), lambda: read_nickname(""), lambda: read_code("K7")):
        with pytest.raises(ValueError) as info:
            make()
        exc = info.value
        assert i18n.words_of(exc) == str(exc)
        for lang in OTHER:
            with i18n.using(lang):
                shown = i18n.words_of(exc)
            assert shown != str(exc), (lang, str(exc))
            assert all(value in shown for value in exc.fills.values()), (lang, shown)
