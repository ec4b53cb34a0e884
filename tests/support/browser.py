"""Headless Chromium against the app: its flags, waiting on the app's state (never on sleeps),
reading the Plotly figures as drawn, and screenshots for a person to look at."""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import Page, expect

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")  # Debian's; see the README
# Flags for a closed network: no background fetches, no sandbox as root.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def shot(pg: Page, name: str) -> Path:
    """Save a full-page screenshot for a person to look at."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    # Streamlit scrolls inside its main block, so grow the window to the content first.
    height = pg.evaluate(
        "() => Math.max(...[...document.querySelectorAll('[data-testid=stMain],"
        " [data-testid=stSidebarContent]')].map(e => e.scrollHeight), 600)"
    )
    size = pg.viewport_size
    pg.set_viewport_size({"width": size["width"], "height": min(height + 40, 12000)})
    wait_plots_drawn(pg)
    pg.screenshot(path=str(path), full_page=True)
    pg.set_viewport_size(size)
    return path


def wait_plots_drawn(pg: Page, timeout_ms: int = 30_000) -> None:
    """Every Plotly chart on the page is drawn and idle: its figure is laid out, no redraw is
    under way (Plotly's automargin redraws inside one) and no asynchronous step is pending.

    Charts load lazily: Streamlit shows a box before Plotly draws into it."""
    pg.wait_for_function(
        """() => {
            const boxes = document.querySelectorAll('[data-testid=stPlotlyChart]');
            const done = [...document.querySelectorAll('.js-plotly-plot')].filter(g =>
                g.querySelector('.main-svg') && g._fullLayout && g._fullLayout._size
                && !g._fullLayout._replotting && !(g._promises && g._promises.length));
            return done.length >= boxes.length;
        }""",
        timeout=timeout_ms,
    )
    pg.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def wait_idle(pg: Page, timeout_ms: int = 30_000) -> None:
    """Wait until the script run has finished (Streamlit shows a 'running' widget meanwhile)."""
    pg.wait_for_selector("[data-testid='stApp']", timeout=timeout_ms)
    pg.wait_for_function(
        """() => {
            const app = document.querySelector('[data-testid=stApp]');
            return app && app.dataset.testScriptState === 'notRunning'
                && !document.querySelector('[data-testid=stSkeleton]');
        }""",
        timeout=timeout_ms,
    )
    wait_plots_drawn(pg, timeout_ms)
    expect(pg.locator("[data-testid='stException']")).to_have_count(0)


# (server URL, page URL path) -> the page title its first visit in this process showed
FIRST_VISITS: dict[tuple[str, str], str] = {}


def open_page(pg: Page, base: str, path: str = "") -> None:
    """Open `path` (e.g. "Scores?d_k=8") by URL, as a first visit, and wait for the app.

    Every visit checks what a deep link must show: the page itself (its title from the
    registry, not the home page), our grouped menu, and no error. The first visit of each
    page in a session is recorded in FIRST_VISITS and saved as `page_<Name>.png`
    (tests/e2e/test_pages.py reads the record, so that no page is opened twice for it)."""
    from attn_ui.layout import PAGES  # the registry: title of each page file

    pg.goto(f"{base}/{path}")
    pg.wait_for_selector("[data-testid='stMainBlockContainer']", timeout=30_000)
    pg.wait_for_selector("h1", timeout=30_000)
    wait_idle(pg)
    name = path.split("?")[0]
    titles = {url_path(p.path): p.title for p in PAGES} | {"": "Attention Lab"}
    heading = pg.locator("h1").first
    expect(heading).to_contain_text(titles[name].split(":")[0])
    expect(pg.get_by_role("link", name="Attention Lab: start here")).to_be_visible()
    if (base, name) not in FIRST_VISITS and pg.viewport_size["width"] >= 1000:  # desktop
        FIRST_VISITS[base, name] = heading.inner_text()
        shot(pg, f"page_{name or 'home'}")


def url_path(page_file: str) -> str:
    """Streamlit's URL path for pages/NN_Name.py: "Name"."""
    return page_file.split("/")[-1].removesuffix(".py").split("_", 1)[1]


# The Plotly figure whose title contains `t` (tags stripped), or whose y axis is titled `t`.
FIND = """(t) => [...document.querySelectorAll('.js-plotly-plot')].find(g => {
    const title = ((g.layout.title || {}).text || '').replace(/<[^>]*>/g, '');
    return title.includes(t) || ((g.layout.yaxis || {}).title || {}).text === t;
})"""


def chart(pg: Page, title: str, path: str):
    """`path` (a JS expression on the figure `g`) of the chart found by `title` (FIND)."""
    return pg.evaluate(f"(t) => {{ const g = ({FIND})(t); return g && {path}; }}", title)


def wait_chart(pg: Page, title: str, condition: str, arg=None, timeout_ms: int = 30_000) -> None:
    """Wait until `condition` (JS on the figure `g` and `arg`) holds for the chart of `title`."""
    pg.wait_for_function(
        f"([t, arg]) => {{ const g = ({FIND})(t); return Boolean(g && ({condition})); }}",
        arg=[title, arg],
        timeout=timeout_ms,
    )
