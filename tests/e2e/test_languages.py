"""The app in Spanish and Chinese, in a real browser: every page opened with ?lang=es and
?lang=zh shows no English sentence from the English lessons or interface (titles, menu,
captions, buttons, notices), tells the browser its language (<html lang>), keeps the language
in its links, and axe-core finds no serious or critical violation at 1400 and 390 px; a
browser set to Spanish gets Spanish without asking.

One pass per language (`tour`): each page is opened once at 1400 px and narrowed to 390 px,
as tests/e2e/test_accessibility.py does for English. Colour contrast is not asked again here:
the colours are the same in every language, and the English survey checks them on every page
at both widths."""

from __future__ import annotations

import json
import re

import pytest
from babel.messages.pofile import read_po
from playwright.sync_api import expect

from attn_lessons import i18n
from attn_lessons.text import ROOT as LESSONS_ROOT
from attn_lessons.text import lesson
from attn_ui.compute import explorer
from attn_ui.registry import PAGES
from attn_ui.settings import lesson_defaults
from tests.support.browser import (
    ROOT,
    axe_findings,
    resize,
    until,
    url_path,
    wait_figure_shown,
    wait_idle,
)

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(900)]

LANGS = ("es", "zh")
WIDTHS = (1400, 390)
PATHS = ["", *(url_path(p.path) for p in PAGES)]
FORMS = {url_path(p.path) for p in PAGES if not p.figure}
FIRST_RUN = 240_000  # Generate writes its default text on a first visit
# every rule but colour contrast (see above); only violations come back with their elements
AXE_OPTIONS = {"resultTypes": ["violations"], "rules": {"color-contrast": {"enabled": False}}}
LOGS = ROOT / "artifacts" / "logs"
# What the page shows a reader: its text, the labels a screen reader reads, and how it fits.
READ = """() => ({
    lang: document.documentElement.lang,
    text: document.querySelector('[data-testid=stApp]').innerText,
    labels: [...document.querySelectorAll('[aria-label]')].map(e => e.getAttribute('aria-label')),
    title: document.title,
    links: [...document.querySelectorAll('[data-testid=stSidebar] a, [data-testid=stMain] a')]
        .map(a => a.getAttribute('href')).filter(h => h && !h.startsWith('http')
            && !h.startsWith('#') && !h.startsWith('blob:') && !h.startsWith('data:')),
    pageWiderThanScreen: document.documentElement.scrollWidth > window.innerWidth + 1,
    cutMenuTitles: [...document.querySelectorAll('[data-testid=stSidebar] a *')]
        .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent),
})"""
WORD = re.compile(r"[A-Za-z]+(?:'[a-z]+)?")


def _english_sentences() -> set[str]:
    """Every English sentence of three words or more that a page could show in English: the
    interface's messages (their words between {fields}) whose translation differs, and the
    lessons' sentences."""
    out: set[str] = set()
    with (i18n.LOCALE / "messages.pot").open("rb") as f:
        for m in read_po(f):
            ids = m.id if isinstance(m.id, tuple) else (m.id,)
            for msg in ids:
                out |= _pieces(msg)
    for path in (LESSONS_ROOT / "lessons").glob("*.md"):
        for words in lesson(path.stem, "en").values():
            out |= _pieces(words)
    return out


def _pieces(text: str) -> set[str]:
    """The runs of plain words in `text` (between fields, maths, code and markup), three words
    or more, normalised as `_plain` writes a page's text."""
    text = re.sub(r"\$\$.+?\$\$|\$[^$\n]+\$|`[^`]*`|<[^>]+>|\{[^{}]*\}", "|", text, flags=re.S)
    out = set()
    for run in re.split(r"[|*_\[\]()#>\n:;.,!?“”\"—–«»¿¡（）《》「」【】，。：；！？、-]+", text):
        plain = _plain(run)
        words = plain.split()
        # three words or more, two of them real words (not the symbols of "Q = K = V = X")
        if len(words) >= 3 and sum(len(w) >= 3 for w in words) >= 2:
            out.add(plain)
    return out


def _plain(text: str) -> str:
    return " ".join(WORD.findall(text)).lower()


def _kept(lang: str) -> set[str]:
    """English runs the translations themselves keep, so a page may show them: a message
    whose translation is the English words (a name, a formula), a term in brackets after its
    translation ("consulta (query)"), "tokens × tokens" (token is a Spanish word too), and the
    English data the lessons quote as such (the model explorer's sentence is English input)."""
    kept = {_plain(explorer.DEFAULT_SENTENCE)} | _pieces(explorer.DEFAULT_SENTENCE)
    with i18n.catalog_path(lang).open("rb") as f:
        for m in read_po(f):
            for text in m.string if isinstance(m.string, tuple) else (m.string,):
                kept |= _pieces(text or "")
    for path in (LESSONS_ROOT / "lessons" / lang).glob("*.md"):
        kept |= _pieces(path.read_text(encoding="utf-8"))
    return kept


@pytest.fixture(scope="module")
def tour(worker_tab, app_url):
    """Every page in each language at 1400 and 390 px: what it showed, and axe's serious and
    critical findings, by (lang, width, path).

    A learner's walk: the home page's link to the overview, then each page's "Next" link to
    the next page of its group (a link that lost ?lang= is not found, and the walk fails); a
    group's first page is opened by its address. Each page is read at the width the last one
    ended at, then resized to the other: one resize a page."""
    out = {}
    for lang in LANGS:
        pg = worker_tab(WIDTHS[0], 1000)  # a new person for each language
        width = WIDTHS[0]
        for before, path in zip([None, *PATHS], PATHS, strict=False):
            if before is not None and _follows(before, path):
                _follow_link(pg, path, lang)
            else:
                pg.goto(f"{app_url}/{path}?lang={lang}")
            until(
                pg,  # this page's title, not the last one's
                "t => document.querySelector('h1')?.innerText === t",
                arg=_title(path, lang),
                timeout=60_000,
            )
            wait_idle(pg, FIRST_RUN)
            out[lang, width, path] = _read(pg, figure=path not in FORMS)
            width = WIDTHS[1] if width == WIDTHS[0] else WIDTHS[0]
            resize(pg, width)
            out[lang, width, path] = _read(pg, figure=False)
    LOGS.mkdir(parents=True, exist_ok=True)  # for a person to read
    report = {
        f"{lang} {w} {p or 'home'}": {k: v for k, v in s.items() if k != "text"}
        for (lang, w, p), s in out.items()
    }
    (LOGS / "languages.json").write_text(json.dumps(report, indent=1, ensure_ascii=False))
    return out


def _follows(before: str, path: str) -> bool:
    """Whether `before` links to `path` itself: the home page to the overview, a page to the
    next one of its group."""
    if before == "":
        return path == "Overview"
    group = {url_path(p.path): p.group for p in PAGES}
    return group[before] == group.get(path) and PATHS.index(path) == PATHS.index(before) + 1


def _follow_link(pg, path: str, lang: str) -> None:
    """Click the main column's link to `path` that keeps ?lang=, and wait for the page."""
    link = pg.locator(f'[data-testid=stMain] a[href*="{path}?"][href*="lang={lang}"]').first
    link.click()
    until(pg, f"() => location.pathname.endsWith('/{path}')")


def _read(pg, figure: bool) -> dict:
    if figure:
        wait_figure_shown(pg)
    return {"violations": axe_findings(pg, AXE_OPTIONS), **pg.evaluate(READ)}


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_says_its_language_to_the_browser(tour, lang):
    wrong = {p: s["lang"] for (la, w, p), s in tour.items() if la == lang and s["lang"] != lang}
    assert wrong == {}


@pytest.mark.parametrize("lang", LANGS)
def test_no_english_sentence_is_left(tour, lang):
    english = _english_sentences() - _kept(lang)
    left = {}
    for (la, w, path), s in tour.items():
        if la != lang or w != WIDTHS[0]:
            continue
        shown = _plain(s["text"] + "\n" + "\n".join(s["labels"]) + "\n" + s["title"])
        found = sorted(e for e in english if e in shown)
        if found:
            left[path or "home"] = found[:5]
    assert left == {}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("width", WIDTHS)
def test_axe_finds_no_serious_or_critical_violation(tour, lang, width):
    bad = {
        p or "home": s["violations"]
        for (la, w, p), s in tour.items()
        if la == lang and w == width and s["violations"]
    }
    assert bad == {}


@pytest.mark.parametrize("lang", LANGS)
def test_nothing_is_cut_off_or_wider_than_a_phone(tour, lang):
    bad = {
        p or "home": (s["pageWiderThanScreen"], s["cutMenuTitles"])
        for (la, w, p), s in tour.items()
        if la == lang and (s["pageWiderThanScreen"] or s["cutMenuTitles"])
    }
    assert bad == {}


@pytest.mark.parametrize("lang", LANGS)
def test_every_link_to_a_page_keeps_the_language(tour, lang):
    """The menu, the previous/next links and the home page's list carry ?lang= on."""
    pages = {"/" + url_path(p.path) for p in PAGES} | {"/"}
    lost = set()
    for (la, w, p), s in tour.items():
        if la != lang or w != WIDTHS[0]:
            continue
        for href in s["links"]:
            where = "/" + href.split("://", 1)[-1].split("/", 1)[-1] if "://" in href else href
            if where.split("?")[0] in pages and f"lang={lang}" not in where:
                lost.add((p or "home", href))
    assert lost == set()


def test_a_browser_in_spanish_gets_spanish_and_the_menu_changes_it(browser, app_url):
    """No ?lang=: the browser's language decides (navigator.language, es-MX here). Choosing
    中文 in the menu, then Español again, shows the page in each, with no error: the page is
    loaded afresh in the new language (a choice widget keeps its state by its label, which
    the other language's options do not have), on that language's own sentence."""
    spanish = browser.new_context(locale="es-MX", viewport={"width": 1400, "height": 1000})
    try:
        pg = spanish.new_page()
        pg.goto(f"{app_url}/Softmax")
        pg.wait_for_selector("h1")
        wait_idle(pg)
        assert pg.locator("h1").first.inner_text() == _title("Softmax", "es")
        until(pg, "() => document.documentElement.lang === 'es'")
        for lang, name in (("zh", "中文"), ("es", "Español")):
            pg.get_by_label("Language · Idioma · 语言").click()
            pg.get_by_role("option", name=name).click()
            pg.wait_for_url(re.compile(rf"lang={lang}"))
            until(pg, f"() => document.documentElement.lang === '{lang}'")
            until(
                pg,
                "t => document.querySelector('h1')?.innerText === t",
                arg=_title("Softmax", lang),
            )
            wait_idle(pg)  # and no exception on the page
            with i18n.using(lang):
                box = pg.get_by_role("textbox", name=i18n._("Your sentence"))
            expect(box).to_have_value(lesson_defaults(lang)["sentence"])  # not the last one's
    finally:
        spanish.close()


def _title(path: str, lang: str) -> str:
    """The title of the page at `path` ("": the home page) in `lang`."""
    with i18n.using(lang):
        return next((p.title for p in PAGES if url_path(p.path) == path), "Attention Lab")
