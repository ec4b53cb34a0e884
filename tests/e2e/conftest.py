"""Real-browser tests: one headless Chromium for the whole session, against the session's one
app server (tests/conftest.py). A failing test leaves a picture of every page still open and
what the app said it was doing (artifacts/failures/), so that a failure CI saw once can be
read afterwards."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import sync_playwright

from tests.support.browser import CHROMIUM, ROOT, TEST_ARGS, as_new_person

FAILURES = ROOT / "artifacts" / "failures"
BROWSERS = []  # the session's browser, for the failure report

# What a stuck wait needs to know: the script's and connection's states, skeletons, the
# figure components that have (not) drawn, alerts and exceptions, the captions.
PAGE_STATE = """() => {
    const app = document.querySelector('[data-testid=stApp]');
    const comps = [...document.querySelectorAll('[data-testid=stBidiComponentRegular]')];
    return {
        url: location.href,
        script: app && app.dataset.testScriptState,
        connection: app && app.dataset.testConnectionState,
        skeletons: document.querySelectorAll('[data-testid=stSkeleton]').length,
        components: comps.length,
        componentsWithoutDrawing: comps.filter(c => !c.querySelector('.cg-root[data-drawn]'))
            .map(c => c.outerHTML.slice(0, 200)),
        drawn: document.querySelectorAll('.cg-root[data-drawn]').length,
        alerts: [...document.querySelectorAll('[data-testid=stAlert], [data-testid=stException]')]
            .map(a => a.innerText.slice(0, 300)),
        captions: [...document.querySelectorAll('[data-testid=stCaptionContainer]')]
            .map(c => c.innerText.slice(0, 120)),
        body: document.body ? document.body.innerHTML.slice(0, 300) : null,
        // a document loaded again (a reload) is younger than the test's first load
        loaded: performance.getEntriesByType('navigation').map(n => n.type),
        secondsSinceLoad: Math.round(performance.now() / 1000),
    };
}"""
ERRORS = {}  # page -> the console's errors and uncaught exceptions, for the failure report


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: run `apt-get install -y chromium`.")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=TEST_ARGS)
        BROWSERS.append(b)
        yield b
        BROWSERS.remove(b)
        b.close()


@pytest.fixture(scope="session")
def _tabs(browser):
    """The worker's reusable browser contexts, one without touch and one with, each with
    one tab that tests borrow in turn (`tab`)."""
    contexts = {}
    yield browser, contexts
    for ctx in contexts.values():
        ctx.close()


def _lend(tabs, width: int = 1400, height: int = 1000, touch: bool = False):
    """The worker's tab of that kind (`_tabs`), wiped (`as_new_person`) and sized."""
    browser, contexts = tabs
    size = {"width": width, "height": height}
    if touch not in contexts:
        contexts[touch] = browser.new_context(viewport=size, has_touch=touch)
    ctx = contexts[touch]
    try:
        pg = as_new_person(ctx.pages[0] if ctx.pages else ctx.new_page())
    except PlaywrightError:  # the last test left its tab crashed or stuck: a new browser
        ctx.close()
        ctx = contexts[touch] = browser.new_context(viewport=size, has_touch=touch)
        pg = ctx.new_page()
    pg.set_viewport_size(size)
    return pg


@pytest.fixture(scope="session")
def worker_tab(_tabs):
    """`worker_tab(width=1400, height=1000, touch=False)`: the tab `tab` lends, for a module's
    fixture that walks the pages before its tests read what it saw (the accessibility survey,
    the language walk); the module's tests come after it, one at a time."""
    return functools.partial(_lend, _tabs)


@pytest.fixture
def tab(_tabs):
    """`tab(width=1400, height=1000, touch=False)`: a tab of that size with no cookies, no
    storage and no session (its first `goto` opens a new one); its console errors are kept
    for the failure report.

    The tab is the worker's, wiped and lent to one test at a time: a new context starts a
    renderer process that compiles Streamlit's scripts again, about 2 s of a core per test
    (the browser files' CPU time halved when their tests shared a tab). A second tab of the
    same kind in one test gets a context of its own; a second person in the same tab, one
    after the other, is `as_new_person(pg)`."""
    browser, contexts = _tabs
    lent, own = [], []

    def borrow(width: int = 1400, height: int = 1000, touch: bool = False):
        if touch in [t for t, *_ in lent]:  # already lent in this test: one of its own
            size = {"width": width, "height": height}
            ctx = browser.new_context(viewport=size, has_touch=touch)
            own.append(ctx)
            pg = ctx.new_page()
        else:
            pg = _lend(_tabs, width, height, touch)
        said = ERRORS.setdefault(pg, [])
        said.clear()
        heard = {
            "console": lambda m: said.append(m.text) if m.type == "error" else None,
            "pageerror": lambda e: said.append(f"uncaught: {e}"),
            "crash": lambda _: said.append("the page crashed"),
        }
        for event, fn in heard.items():
            pg.on(event, fn)
        lent.append((touch, pg, heard))
        return pg

    yield borrow
    for _, pg, heard in lent:
        ERRORS.pop(pg, None)
        if not pg.is_closed():
            for event, fn in heard.items():
                pg.remove_listener(event, fn)
        for other in pg.context.pages:  # tabs the test opened next to it
            if other is not pg:
                other.close()
    for ctx in own:
        ctx.close()


@pytest.fixture
def page(tab):
    """A desktop-sized tab (1400 x 1000) of a browser with no cookies and no session."""
    return tab()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """On a failed test: every page still open, as a picture and its state (PAGE_STATE)."""
    report = yield
    if report.failed and call.when == "call" and BROWSERS:
        name = re.sub(r"[^\w.-]+", "_", item.nodeid.split("::", 1)[-1])[:120]
        pages = [pg for ctx in BROWSERS[0].contexts for pg in ctx.pages]
        for k, pg in enumerate(pages):
            FAILURES.mkdir(parents=True, exist_ok=True)
            try:
                state = pg.evaluate(PAGE_STATE)
                pg.screenshot(path=str(FAILURES / f"{name}-{k}.png"), full_page=True)
            except Exception as err:  # noqa: BLE001 -- a report, never a second failure
                state = {"error": str(err)}
            state["console"] = ERRORS.get(pg, [])[-20:]
            (FAILURES / f"{name}-{k}.json").write_text(json.dumps(state, indent=1))
            report.sections.append((f"page {k} at failure", json.dumps(state, indent=1)))
    return report
