"""Headless Chromium against the app: its flags, waiting on the app's state (never on fixed waits),
reading the canvas figures (heatmaps and charts) as drawn, and screenshots for a person to look
at."""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import re
from pathlib import Path

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

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
# The tests' browsers also run JavaScript without V8's optimising compilers (Maglev and
# TurboFan; Sparkplug stays): the suite's pages are each drawn once or twice, so compiling
# for speed cost more CPU than it saved. A page's open, axe-core at two widths: 14% less of
# Chromium's CPU over 5 paired rounds of 10 pages (docs/architecture.md). The benchmarks keep
# CHROMIUM_ARGS: a learner's browser.
TEST_ARGS = [*CHROMIUM_ARGS, "--js-flags=--max-opt=1"]


# How often a wait asks the page again. Playwright's default asks on every animation frame,
# which makes the page draw a frame every 16 ms for as long as the wait lasts: 0.066 s of
# Chromium's CPU per second of waiting, against 0.016 s asked every 20 ms (medians of three
# rounds of bench/wait_polling.py); the language walk used 3 to 4% less CPU
# (docs/architecture.md "Where the time goes").
POLL_MS = 20


def until(pg: Page, expression: str, arg=None, timeout: float | None = None):
    """`pg.wait_for_function(expression, arg=arg)`, asked every POLL_MS; returns its handle."""
    return pg.wait_for_function(expression, arg=arg, timeout=timeout, polling=POLL_MS)


# --- a learner's page across a server restart or a replica's loss (tests/faults) ----------

# The overview's first figure (a canvas of attn_ui/figures/canvas_grid.js): its row labels,
# or null.
ROWS = """(() => { const c = document.querySelector('.cg-root canvas');
                   return c ? JSON.parse(c.dataset.rows).join(' ') : null; })()"""
SHOWS = f"""([words, state]) => {{
    const app = document.querySelector('[data-testid=stApp]');
    return app && app.dataset.testScriptState === 'notRunning'
        && app.dataset.testConnectionState === state && {ROWS} === words;
}}"""
STATE = "() => document.querySelector('[data-testid=stApp]').dataset.testConnectionState"
# What the page shows after the restart, once the learner moves a slider: the figure's rows,
# the text box, and any alert (an alert ends the wait early, and the test then fails).
AFTER = f"""() => {{
    const app = document.querySelector('[data-testid=stApp]');
    if (!app || app.dataset.testScriptState !== 'notRunning') return null;
    const heads = [...document.querySelectorAll('h3')].find(h => /\\d+ heads/.test(h.innerText));
    const box = document.querySelector('input[aria-label="Your sentence"]');
    return {{
        heads: heads ? heads.innerText : '',
        sentence: box ? box.value : null,
        rows: {ROWS},
        alerts: [...document.querySelectorAll('[data-testid=stAlert]')].map(a => a.innerText),
    }};
}}"""


def as_new_person(pg: Page) -> Page:
    """`pg` with no cookies, no storage and no session, as a new person's browser opens the
    app; its cache of the app's scripts stays (a new browser context would fetch and compile
    them again: about 2 s of a core). Returns `pg`, on a blank page."""
    pg.context.clear_cookies()
    if pg.url.startswith("http"):  # the last visit's site: its storage goes with it
        pg.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
    pg.goto("about:blank")  # the last visit's session ends here
    return pg


def shot(pg: Page, name: str) -> Path | None:
    """Save a full-page screenshot for a person to look at, when asked: `ATTN_SHOTS=1 make
    test` (a shot grows the window, waits for every figure to redraw and shrinks it again:
    about 0.4 s a page, some 30 s of the suite's time, for pictures nobody reads in CI)."""
    if not os.environ.get("ATTN_SHOTS"):
        return None
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
    """Every figure component on the page has drawn its canvases (heatmaps and charts alike:
    attn_ui/figures/canvas_grid.js counts its drawings on its root)."""
    until(
        pg,
        """() => {
            const grids = [...document.querySelectorAll('[data-testid=stBidiComponentRegular]')]
                // hidden ones: attn_ui/page_style.py, the cookies (attn_ui/path/cookies.py)
                .filter(e => !e.closest(
                    '.st-key-attn_page, [class*="st-key-attn_"][class*="_cookie"]'));
            const canvases = document.querySelectorAll('.cg-root[data-drawn]');
            return canvases.length >= grids.length;
        }""",
        timeout=timeout_ms,
    )
    pg.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def resize(pg: Page, width: int, height: int = 1000) -> None:
    """Make the window `width` x `height` and wait until every heatmap has redrawn for its new
    width (attn_ui/figures/canvas_grid.js writes the width it drew for on its root) and every
    chart is drawn."""
    pg.set_viewport_size({"width": width, "height": height})
    until(
        pg,
        "() => [...document.querySelectorAll('.cg-root')]"
        ".every(r => r.dataset.width === String(r.clientWidth))",
    )
    wait_plots_drawn(pg)


def wait_idle(pg: Page, timeout_ms: int = 30_000) -> None:
    """Wait until the script run has finished (Streamlit shows a 'running' widget meanwhile)."""
    pg.wait_for_selector("[data-testid='stApp']", timeout=timeout_ms)
    until(
        pg,
        """() => {
            const app = document.querySelector('[data-testid=stApp]');
            return app && app.dataset.testScriptState === 'notRunning'
                && !document.querySelector('[data-testid=stSkeleton]');
        }""",
        timeout=timeout_ms,
    )
    wait_plots_drawn(pg, timeout_ms)
    expect(pg.locator("[data-testid='stException']")).to_have_count(0)


def press_slider(pg: Page, name: str, key: str, times: int = 1) -> None:
    """Move the slider called `name` with the keyboard, waiting for the app after each step."""
    handle = pg.get_by_role("slider", name=name)
    for _ in range(times):
        handle.focus()
        handle.press(key)
        wait_idle(pg)


# (server URL, page URL path) -> the page title its first visit in this process showed
FIRST_VISITS: dict[tuple[str, str], str] = {}

# A live figure: a heatmap or chart canvas, or a grid of numbers (the by-hand pages' givens);
# one the learner can see (not inside a closed expander).
FIGURE = ".cg-root canvas, [data-testid=stDataFrame], [data-testid=stTable]"
SEEN = """e => e.getBoundingClientRect().height > 20 && e.checkVisibility()
    && !e.closest('details:not([open])')"""
SHOWN = f"s => [...document.querySelectorAll(s)].some({SEEN})"
SERIOUS = ("serious", "critical")  # axe-core's impacts no page may have


def wait_figure_shown(pg: Page) -> None:
    """Wait (30 s at most, then go on) until a live figure shows: components draw late."""
    with contextlib.suppress(PlaywrightTimeout):
        until(pg, SHOWN, arg=FIGURE, timeout=30_000)


# axe-core's own script (the copy axe-playwright-python ships), put into a page once per
# document: the package's Axe.run sent all 550 kB again before every run.
AXE_SCRIPT = (
    Path(importlib.util.find_spec("axe_playwright_python").origin).parent / "axe.min.js"
).read_text(encoding="utf-8")
# Run axe with `options`, minus the rules whose every finding is moderate or minor (a rule
# with an impact of its own gives every finding that impact: axe-core's aggregation), unless
# asked for by id in `also`: the caller drops their findings anyway. The violations only.
AXE_RUN = """async ([options, also, serious]) => {
    const idle = axe._audit.rules.filter(r => r.impact && !serious.includes(r.impact)
        && !also.includes(r.id)).map(r => [r.id, { enabled: false }]);
    const rules = { ...Object.fromEntries(idle), ...(options.rules || {}) };
    const run = options.runOnly ? options : { ...options, rules };
    return (await axe.run(document, { ...run, resultTypes: ['violations'] })).violations;
}"""


def axe_findings(pg: Page, options: dict | None = None, also: tuple[str, ...] = ()) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now (and those of the
    rules in `also`), one line each: the rule, its impact, how many elements, the first.
    `options`: axe.run's (its rules to turn off, or `runOnly`)."""
    if not pg.evaluate("() => typeof window.axe === 'object'"):  # a new document
        pg.evaluate(AXE_SCRIPT)
    found = pg.evaluate(AXE_RUN, [options or {}, list(also), list(SERIOUS)])
    return [
        f"{v['id']} ({v['impact']}) on {len(v['nodes'])} element(s), first "
        f"{v['nodes'][0]['target']}: {v['nodes'][0]['failureSummary']}"
        for v in found
        if v["impact"] in SERIOUS or v["id"] in also
    ]


def open_page(pg: Page, base: str, path: str = "", timeout_ms: int = 30_000) -> None:
    """Open `path` (e.g. "Scores?d_k=8") by URL, as a first visit, and wait for the app.

    Every visit checks what a deep link must show: the page itself (its title from the
    registry, not the home page), our grouped menu, and no error. The first visit (on a
    desktop) also checks that every heatmap is drawn: coloured cells, a label per row. The first
    visit of each page in a session is recorded in FIRST_VISITS (the deep-link cases of
    tests/e2e/test_accessibility.py read the record, so that no page is opened twice for them)
    and saved as `page_<Name>.png` when screenshots are asked for (`shot`).
    `timeout_ms`: how long the first run may take (a page that writes with the decoder on a
    first visit takes longer than the default on a loaded machine)."""
    from attn_ui.registry import PAGES  # the registry: title of each page file

    pg.goto(f"{base}/{path}")
    pg.wait_for_selector("[data-testid='stMainBlockContainer']", timeout=30_000)
    pg.wait_for_selector("h1", timeout=30_000)
    wait_idle(pg, timeout_ms)
    name = path.split("?")[0]
    titles = {url_path(p.path): p.title for p in PAGES} | {"": "Attention Lab"}
    heading = pg.locator("h1").first
    expect(heading).to_contain_text(titles[name].split(":")[0])
    expect(pg.get_by_role("link", name="Attention Lab: start here")).to_be_visible()
    if (base, name) not in FIRST_VISITS and pg.viewport_size["width"] >= 1000:  # desktop
        for f in heatmaps(pg):  # every heatmap drawn, coloured, a label per row
            assert f["colours"] > (1 if f["small"] else 3), f["title"]  # not blank: cells drawn
            assert f["width"] > 0 and f["height"] > 0, f["title"]
            assert len(f["rows"]) == len(f["z"]) == f["shape"][0], f["title"]
        FIRST_VISITS[base, name] = heading.inner_text()
        shot(pg, f"page_{name or 'home'}")


def url_path(page_file: str) -> str:
    """Streamlit's URL path for pages/NN_Name.py: "Name"."""
    return page_file.split("/")[-1].removesuffix(".py").split("_", 1)[1]


def names_its_address(title: str, name: str) -> bool:
    """Whether a page's `title` starts with the words of its address `name`, so that a learner
    who types the title's name finds the page: "Tiled attention: ..." at /Tiled_attention,
    not "Attention in tiles". A step number may come first; case and hyphens do not count."""
    words = name.replace("_", " ").replace("-", " ").lower()
    lead = re.sub(r"^\d+\. ", "", title).replace("-", " ").lower()
    return re.match(re.escape(words) + r"\b", lead) is not None


# --- heatmaps (the canvas component) ---------------------------------------------------

# Every heatmap on the page (attn_ui/figures/canvas_grid.js keeps what it drew on each
# figure's box), or those whose title starts with `t`: title, labels, shape, the matrix (-inf
# for masked cells), its drawn size, how many distinct colours a sample of its pixels has, and
# whether it is a small one of a grid. Only the titled ones are read: a wait polls this every
# POLL_MS, and reading every canvas's pixels each time slowed the page it waited on.
HEATMAPS = """(t) => [...document.querySelectorAll('.cg-figure')]
    .filter(box => t == null || box.figure.title.startsWith(t)).map(box => {
    const f = box.figure, c = box.querySelector('canvas'), [n, m] = f.shape;
    const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const colours = new Set();
    for (let i = 0; i < px.length; i += 4 * 97) {
        colours.add(px[i] << 16 | px[i + 1] << 8 | px[i + 2]);
    }
    return { title: f.title, rows: f.rows, cols: f.cols, shape: f.shape,
             z: Array.from({ length: n }, (_, i) => Array.from(f.values.slice(i * m, i * m + m))),
             width: c.clientWidth, height: c.clientHeight, colours: colours.size,
             small: Boolean(f.small) };
})"""
FIND_HEATMAP = f"""(t) => ({HEATMAPS})(t)[0] || null"""


def heatmaps(pg: Page) -> list[dict]:
    """Every heatmap on the page, in page order (see HEATMAPS)."""
    return pg.evaluate(HEATMAPS)


def heatmap(pg: Page, title_start: str) -> dict | None:
    """The first heatmap whose title starts with `title_start`, or None."""
    return pg.evaluate(FIND_HEATMAP, title_start)


def _wait_found(pg: Page, find: str, name: str, title_start: str, condition: str, arg) -> dict:
    """Wait until `find` (JS: title -> the figure or null) finds the titled figure and
    `condition` (JS over the figure, called `name`, and `arg`) holds; the figure."""
    until(
        pg,
        f"([t, arg]) => {{ const {name} = ({find})(t); return {name} !== null && ({condition}); }}",
        arg=[title_start, arg],
        timeout=90_000,  # generous: a loaded CI machine redraws a dozen figures slowly
    )
    return pg.evaluate(find, title_start)


def wait_heatmap(pg: Page, title_start: str, condition: str = "true", arg=None) -> dict:
    """Wait until the titled heatmap is drawn and `condition` (JS over `f` and `arg`) holds."""
    return _wait_found(pg, FIND_HEATMAP, "f", title_start, condition, arg)


# --- charts (the same component: attn_ui/figures/canvas_chart.js) -----------------------

# The canvas chart whose title starts with `t`, as its box keeps it (what chart.py sent: title,
# x, y, series with their values, null for masked, mark; a head's lines: its tokens, query and
# decoded weights, and under `lines` the [query, key] pairs it drew), once drawn.
FIND_CHART = """(t) => {
    const box = [...document.querySelectorAll('.cg-chart')].find(b => b.chart.title.startsWith(t));
    const c = box && box.querySelector('canvas');
    if (!(c && c.dataset.chart && box.layout)) return null;
    const lines = box.layout.lines ? { lines: box.layout.lines.map(([i, j]) => [i, j]) } : {};
    return { ...box.chart, weights: box.chart.weights && Array.from(box.chart.weights), ...lines };
}"""


def canvas_chart(pg: Page, title_start: str) -> dict | None:
    """The first canvas chart whose title starts with `title_start`, or None (see FIND_CHART)."""
    return pg.evaluate(FIND_CHART, title_start)


def wait_canvas_chart(pg: Page, title_start: str, condition: str = "true", arg=None) -> dict:
    """Wait until the titled chart is drawn and `condition` (JS over `c` and `arg`) holds."""
    return _wait_found(pg, FIND_CHART, "c", title_start, condition, arg)


def hover_cell(pg: Page, title_start: str, i: int, j: int, *, tap: bool = False):
    """Point at (or tap) cell (i, j) of the titled heatmap; its hover box."""
    canvas = pg.locator(
        f".cg-figure canvas[aria-label^={json.dumps(title_start, ensure_ascii=False)}]"
    ).first
    canvas.scroll_into_view_if_needed()
    x, y = canvas.evaluate(
        "(c, [i, j]) => { const L = c.parentElement.layout;"
        " return [L.left + (j + 0.5) * L.cellW, L.top + (i + 0.5) * L.cellH]; }",
        [i, j],
    )
    if tap:
        canvas.tap(position={"x": x, "y": y})
    else:
        box = canvas.bounding_box()
        pg.mouse.move(box["x"] + x, box["y"] + y)
    return canvas.locator("xpath=..").locator(".cg-hover")
