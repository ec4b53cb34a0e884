"""Speed a learner feels on the step pages (issue 14), in one run, against the bare page.

    .venv/bin/python bench/bench_pages.py [--rounds 3] [--clicks 3] [-n 6] [--pages Scores ...]
                                          [--skip open click type]

Prints, with the load average before and after each part:
1. first open: each step page (Overview, 1-8) in a fresh browser context (an empty cache,
   as a learner's first visit), from `goto` to its figures drawn, interleaved with the bare
   one-heatmap page (bench/bare_page.py): bare, page, bare, page, ... `--rounds` times each.
   Medians, and the ratio page / bare (goal: at most 1.25);
2. menu click: from one step page, a click on the menu link of the next (Overview -> 1 -> 2
   ... -> 8 -> Overview), `--clicks` times round, to the new page's figures drawn (goal:
   within 1 s); round 1 is each page's first visit in that tab (its element types' code is
   fetched then), later rounds come back to it;
3. a new sentence: on each step page, a new 32-token sentence typed and Enter pressed, to
   the first figure showing it and to the whole page updated, interleaved with the overview
   (overview, page, overview, page, ...), `-n` sentences each; the ratio page / overview
   (goal: at most 1.5). Settings as bench/bench_app.py: random weights, 4 heads, d_model 32,
   d_k 8 (the pages draw toy heads; a real head is one of MiniLM's).

Beside each wall time: the renderer main thread's time (Chromium's TaskDuration), which
leaves out waiting for the network and the server.

"Figures drawn" is what tests/support/browser.wait_plots_drawn waits for: the run has
finished, nothing is stale, every heatmap component (attn_ui/figures/canvas_grid.js) has
drawn its canvases (`.cg-root[data-drawn] canvas`) and every Plotly chart is laid out; for
a page, also its title. Both servers are started once and warmed up (every page opened
once, so the pretrained model is loaded): a first open is a new browser's, not a new
server's.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from attn_ui.registry import PAGES  # noqa: E402
from bench.bench_app import sentence  # noqa: E402
from tests.support.browser import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.support.server import serving  # noqa: E402

STEPS = [
    "Overview",
    "Tokens",
    "Projection",
    "Scores",
    "Scaling",
    "Softmax",
    "Weighted_sum",
    "Masking",
    "Multi-head",
]
SETTINGS = {"n_heads": 4, "d_model": 32, "d_k": 8, "weights": "random"}
QUERY = "&".join(f"{k}={v}" for k, v in SETTINGS.items())
VIEWPORT = {"width": 1400, "height": 1000}

# The page's figures are drawn (see the docstring). `title`: the start of the page's h1, or
# null for the bare page. Canvases marked `data-old` belong to the page before a menu click.
DRAWN = """(title) => {
    const app = document.querySelector('[data-testid=stApp]');
    if (!app || app.dataset.testScriptState !== 'notRunning') return false;
    if (document.querySelector('[data-testid=stSkeleton], [data-stale=true]')) return false;
    if (title !== null) {
        const h1 = document.querySelector('h1');
        if (!h1 || !h1.textContent.includes(title)) return false;
    }
    const boxes = document.querySelectorAll('[data-testid=stPlotlyChart]');
    const plots = [...document.querySelectorAll('.js-plotly-plot')].filter(g =>
        g.querySelector('.main-svg') && g._fullLayout && g._fullLayout._size
        && !g._fullLayout._replotting);
    const grids = [...document.querySelectorAll('[data-testid=stBidiComponentRegular]')]
        .filter(e => !e.closest('.st-key-attn_page'));  // attn_ui/page_style.py
    const drawn = grids.filter(e => e.querySelector('.cg-root[data-drawn] canvas:not([data-old])'));
    return boxes.length + grids.length > 0 && plots.length >= boxes.length
        && drawn.length >= grids.length;
}"""
CANVASES = "[...document.querySelectorAll('.cg-root canvas')]"
MARK_OLD = f"""() => {CANVASES}.forEach(c => c.dataset.old = '1')"""
FIRST_ROWS = f"""() => {CANVASES}.map(c => c.dataset.firstRow)"""
# Keypress -> some heatmap shows the new sentence; -> the run has finished, some heatmap
# shows the new sentence and none the old one.
FIRST = f"""(first) => ({FIRST_ROWS})().includes(first)"""
DONE = f"""([old, first]) => {{
    const app = document.querySelector('[data-testid=stApp]');
    const rows = ({FIRST_ROWS})();
    return app && app.dataset.testScriptState === 'notRunning'
        && !document.querySelector('[data-stale=true]')
        && rows.includes(first) && !rows.includes(old);
}}"""


def titles() -> dict[str, str]:
    """URL path -> the start of the page's title (what its h1 shows before any colon)."""
    return {p.url.lstrip("/"): p.title.split(":")[0] for p in PAGES}


def load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def med(xs: list[float]) -> float:
    return statistics.median(xs) * 1000


def first_open(browser, url: str, title: str | None) -> tuple[float, float]:
    """A fresh browser context (empty cache) opens `url`: seconds to its figures drawn, and
    the seconds of its renderer's main thread meanwhile (Chromium's TaskDuration: scripts,
    style, layout, paint), which a machine busy with other work stretches less."""
    ctx = browser.new_context(viewport=VIEWPORT)
    pg = ctx.new_page()
    cdp = ctx.new_cdp_session(pg)
    cdp.send("Performance.enable")
    t0 = time.perf_counter()
    pg.goto(url)
    pg.wait_for_function(DRAWN, arg=title, polling="raf", timeout=120_000)
    dt = time.perf_counter() - t0
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    ctx.close()
    return dt, metrics["TaskDuration"]


def first_opens(browser, app: str, bare: str, pages: list[str], rounds: int) -> None:
    names = titles()
    print(f"\n1. First open, fresh browser context, goto -> figures drawn ({load()})")
    for page in pages:  # warm-up: every page's first run on this server (model, caches)
        first_open(browser, f"{app}/{page}", names[page])
    first_open(browser, bare, None)
    bare_runs, runs = [], {p: [] for p in pages}
    for _ in range(rounds):
        for page in pages:
            bare_runs.append(first_open(browser, bare, None))
            runs[page].append(first_open(browser, f"{app}/{page}", names[page]))
    b, b_cpu = (med([r[k] for r in bare_runs]) for k in (0, 1))
    head = f"{'wall: median':>14} {'(range)':>13} {'x bare':>7}   {'main thread':>11} x bare"
    print(f"{'':<14} {head}")
    n = len(bare_runs)
    print(f"{'bare page':<14} {b:11.0f} ms {'':>13} {'':>7}   {b_cpu:8.0f} ms   (n={n})")
    for page in pages:
        wall, cpu = [r[0] for r in runs[page]], [r[1] for r in runs[page]]
        m, c = med(wall), med(cpu)
        spread = f"({min(wall) * 1000:.0f}-{max(wall) * 1000:.0f})"
        print(f"{page:<14} {m:11.0f} ms {spread:>13} {m / b:7.2f}   {c:8.0f} ms {c / b_cpu:6.2f}")
    print(f"goal: wall at most 1.25 x bare ({load()})")


def menu_clicks(browser, app: str, pages: list[str], rounds: int) -> None:
    names = titles()
    print(f"\n2. Menu click, one step page -> the next, click -> figures drawn ({load()})")
    print("round 1 is each page's first visit in this tab; later rounds come back to it")
    ctx = browser.new_context(viewport=VIEWPORT)
    pg = ctx.new_page()
    cdp = ctx.new_cdp_session(pg)
    cdp.send("Performance.enable")

    def busy() -> float:
        metrics = cdp.send("Performance.getMetrics")["metrics"]
        return next(m["value"] for m in metrics if m["name"] == "TaskDuration")

    pg.goto(f"{app}/{pages[0]}")
    pg.wait_for_function(DRAWN, arg=names[pages[0]], polling="raf", timeout=120_000)
    first, again = {p: [] for p in pages}, {p: [] for p in pages}
    for r in range(rounds):
        for k in range(len(pages)):
            target = pages[(k + 1) % len(pages)]
            link = next(p.title for p in PAGES if p.url.lstrip("/") == target)
            pg.evaluate(MARK_OLD)
            b0, t0 = busy(), time.perf_counter()
            pg.locator("[data-testid=stSidebar]").get_by_role("link", name=link).click()
            pg.wait_for_function(DRAWN, arg=names[target], polling="raf", timeout=120_000)
            (again if r else first)[target].append((time.perf_counter() - t0, busy() - b0))
    ctx.close()
    cols = f"{'round 1':>10} {'main thread':>12}   {'later rounds':>12} {'main thread':>12}"
    print(f"{'':<14} {cols}")
    for page in pages:
        a = f"{med([x[0] for x in again[page]]):9.0f} ms" if again[page] else ""
        a += f" {med([x[1] for x in again[page]]):9.0f} ms" if again[page] else ""
        f1, f2 = first[page][0]
        print(f"-> {page:<11} {f1 * 1000:7.0f} ms {f2 * 1000:9.0f} ms   {a}")
    every = [x[0] for d in (first, again) for xs in d.values() for x in xs]
    worst = max(every) * 1000
    print(f"all clicks: median {med(every):.0f} ms, max {worst:.0f} ms; goal: within 1 s")
    print(f"({load()})")


class Typist:
    """One tab on one page, with the bench settings; types new sentences into its box."""

    def __init__(self, browser, app: str, page: str) -> None:
        self.pg = browser.new_page(viewport=VIEWPORT)
        self.pg.goto(f"{app}/{page}?{QUERY}")
        self.pg.wait_for_function(DRAWN, arg=titles()[page], polling="raf", timeout=120_000)
        self.box = self.pg.get_by_role("textbox", name="Your sentence")
        self.old = self.pg.evaluate(FIRST_ROWS)[0]
        self.cdp = self.pg.context.new_cdp_session(self.pg)
        self.cdp.send("Performance.enable")

    def busy(self) -> float:
        """Seconds of the renderer's main thread so far (Chromium's TaskDuration)."""
        metrics = self.cdp.send("Performance.getMetrics")["metrics"]
        return next(m["value"] for m in metrics if m["name"] == "TaskDuration")

    def type(self, s: str) -> tuple[float, float, float]:
        """Keypress -> first figure updated, -> whole page updated, and the main thread's
        time over the whole update (seconds)."""
        pg, first = self.pg, s.split()[0]
        pg.bring_to_front()
        self.box.fill(s)
        pg.wait_for_timeout(300)  # the fill settles before the keypress
        busy = self.busy()
        t0 = time.perf_counter()
        self.box.press("Enter")
        pg.wait_for_function(FIRST, arg=first, polling="raf", timeout=60_000)
        t1 = time.perf_counter()
        pg.wait_for_function(DONE, arg=[self.old, first], polling="raf", timeout=60_000)
        t2 = time.perf_counter()
        self.old = first
        return t1 - t0, t2 - t0, self.busy() - busy


def sentences(browser, app: str, pages: list[str], n: int) -> None:
    print(f"\n3. A new 32-token sentence, keypress -> figures ({QUERY}) ({load()})")
    print("medians, page / overview interleaved: keypress -> first figure updated,")
    print("-> whole page updated, and the renderer main thread's time over the update")
    overview = Typist(browser, app, "Overview")
    overview.type(sentence(9000))  # warm-up
    seed = 10_000
    ov_all = []
    for page in [p for p in pages if p != "Overview"]:
        tab = Typist(browser, app, page)
        tab.type(sentence(seed))  # warm-up
        ov, mine = [], []
        for _ in range(n):
            seed += 2
            ov.append(overview.type(sentence(seed)))
            mine.append(tab.type(sentence(seed + 1)))
        tab.pg.close()
        ov_all += ov
        o1, o2, o3 = (med([x[k] for x in ov]) for k in range(3))
        p1, p2, p3 = (med([x[k] for x in mine]) for k in range(3))
        print(
            f"{page:<13} {p1:5.0f} / {o1:4.0f} ms x{p1 / o1:4.2f}   {p2:5.0f} / {o2:4.0f} ms "
            f"x{p2 / o2:4.2f}   {p3:5.0f} / {o3:4.0f} ms x{p3 / o3:4.2f}   (n={n} each)"
        )
    o1, o2, o3 = (med([x[k] for x in ov_all]) for k in range(3))
    print(f"{'overview, all':<13} {o1:5.0f} ms {'':12} {o2:5.0f} ms {'':12} {o3:5.0f} ms")
    print(f"goal: each page within 1.5 x the overview ({load()})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3, help="first opens per page (and bare)")
    ap.add_argument("--clicks", type=int, default=3, help="menu rounds over the pages")
    ap.add_argument("-n", type=int, default=6, help="new sentences per page (and overview)")
    ap.add_argument("--pages", nargs="+", default=STEPS, choices=STEPS)
    ap.add_argument("--skip", nargs="*", default=[], choices=["open", "click", "type"])
    args = ap.parse_args()
    print(f"bench_pages: {len(os.sched_getaffinity(0))} cores, {load()}")
    with (
        serving() as (app, _),
        serving(script="bench/bare_page.py") as (bare, _),
        sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        if "open" not in args.skip:
            first_opens(browser, app, bare, args.pages, args.rounds)
        if "click" not in args.skip:
            menu_clicks(browser, app, args.pages, args.clicks)
        if "type" not in args.skip:
            sentences(browser, app, args.pages, args.n)
        browser.close()


if __name__ == "__main__":
    main()
