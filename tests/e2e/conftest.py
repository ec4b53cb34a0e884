"""Real-browser tests: one headless Chromium for the whole session, against the session's one
app server (tests/conftest.py). A failing test leaves a picture of every page still open and
what the app said it was doing (artifacts/failures/), so that a failure CI saw once can be
read afterwards."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, ROOT

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
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        BROWSERS.append(b)
        yield b
        BROWSERS.remove(b)
        b.close()


@pytest.fixture
def page(browser):
    """A fresh browser context (no cookies, no session) per test, desktop size; its console
    errors are kept for the failure report."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = ctx.new_page()
    said = ERRORS.setdefault(pg, [])
    pg.on("console", lambda m: said.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: said.append(f"uncaught: {e}"))
    pg.on("crash", lambda _: said.append("the page crashed"))
    yield pg
    ERRORS.pop(pg, None)
    ctx.close()


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
