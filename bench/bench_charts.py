"""One way to draw charts: the canvas charts against Vega-Lite (and Plotly), in bare pages.

    .venv/bin/python bench/bench_charts.py [--opens 6] [-n 10] [--kinds bars lines]
                                           [--port 8621] [--skip open type access]

The same two charts drawn three ways, each in an otherwise identical bare page
(bench/chart_pages/: a sentence box and the two charts, numbers from chart_data.py):
- canvas: the heatmaps' canvas component (attn_ui/figures/chart.py, canvas_chart.js), both
  charts in one component through `panels.charts`, as pages/05_Softmax.py draws its bars;
- Vega-Lite: two `st.vega_lite_chart`s in two columns, everything a sentence changes in the
  data and none of it in the spec;
- Plotly: two `st.plotly_chart`s in two columns, as the labs draw theirs.
`bars` (`?chart=bars`) are Softmax's row of scores and row of weights, one bar per token;
`lines` are the labs' curves against d: 3 series of 12 points, a log x axis, a dotted mark.
Each page has its own server (ports `--port`, +1, +2), started once and warmed up.

Prints, with the load average before and after each part:
1. first open: a fresh browser context (empty cache) opens each page, `goto` to both charts
   drawn, the variants interleaved (the order turns each round), `--opens` times each after
   one warm-up; and the bytes that first open fetched: the JavaScript over HTTP as sent
   (encoded) and unpacked, all of HTTP, and the websocket's messages (where Streamlit sends a
   component's script);
2. a new 32-token sentence (bench_app.sentence, the same for every variant at each step)
   typed, Enter pressed, to the whole page updated: the run finished, nothing stale, both
   charts showing the new sentence; the variants interleaved, `-n` each after one warm-up.
   Beside it the renderer main thread's time over the update (Chromium's TaskDuration), the
   websocket bytes the update received, and whether each level of the chart's DOM is the
   same node after the update as before (the Streamlit element, the chart's root, the
   drawing surface: a canvas or an SVG): redrawn in place, or mounted anew;
3. what a keyboard and a screen reader get: the Tab stops inside the charts from the sentence
   box, what an arrow key on each makes a live region say, the named nodes of Chromium's
   accessibility tree besides the page's own (what a screen reader's reading mode reaches),
   and axe-core's findings inside the charts.

"Both charts drawn" reads each chart as drawn: the chart the canvas component keeps on
each figure box (set in the same task that draws its canvas), Vega's SVG text (the x
axis's first label, the mark's text), and Plotly's SVG text of a laid-out chart (the first
x tick, the annotation).
Medians with the (min-max) range of the individual times; ratios against the canvas variant
of the same run.
"""

from __future__ import annotations

import argparse
import collections
import os
import statistics
import sys
import time
from contextlib import ExitStack, contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from axe_playwright_python.sync_playwright import Axe  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from attn_ui.figures import canvas_grid  # noqa: E402
from bench.bench_app import sentence  # noqa: E402
from bench.chart_pages import chart_data  # noqa: E402
from tests.support.browser import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.support.server import start_server, stop_server, wait_healthy  # noqa: E402

PAGES = {
    "canvas": "bench/chart_pages/canvas.py",
    "Vega-Lite": "bench/chart_pages/vega.py",
    "Plotly": "bench/chart_pages/plotly_page.py",
}
VIEWPORT = {"width": 1400, "height": 1000}
N_CHARTS = 2

# Each chart's drawn text that names the sentence (chart_data.stamp), by variant: `kind` is
# "bars" or "lines".
STAMPS = {
    "canvas": """(kind) => [...document.querySelectorAll('.cg-root[data-drawn] .cg-chart')]
        .map(b => b.chart
            && (kind === 'bars' ? b.chart.x.labels[0] : (b.chart.mark || {}).text))""",
    "Vega-Lite": """(kind) => [...document.querySelectorAll(
            '[data-testid=stVegaLiteChart] svg.marks')].map(svg => {
        const t = svg.querySelector(kind === 'bars'
            ? '[aria-roledescription=axis][aria-label^="X-axis"] .role-axis-label text'
            : '.mark-text.role-mark text');
        return t && t.textContent; })""",
    "Plotly": """(kind) => [...document.querySelectorAll('.js-plotly-plot')].filter(g =>
            g.querySelector('.main-svg') && g._fullLayout && g._fullLayout._size
            && !g._fullLayout._replotting && !(g._promises && g._promises.length))
        .map(g => { const t = g.querySelector(kind === 'bars' ? '.xtick text' : '.annotation-text');
                    return t && t.textContent; })""",
}


def drawn(variant: str) -> str:
    """JS: ([kind, want]) => the run has finished, nothing is stale, and both charts show
    `want`."""
    return f"""([kind, want]) => {{
        const app = document.querySelector('[data-testid=stApp]');
        if (!app || app.dataset.testScriptState !== 'notRunning') return false;
        if (document.querySelector('[data-stale=true], [data-testid=stSkeleton]')) return false;
        const s = ({STAMPS[variant]})(kind);
        return s.length === {N_CHARTS} && s.every(x => x === want);
    }}"""


# The levels of a chart's DOM whose node identity an update keeps or replaces.
LEVEL_NAMES = ("element", "chart root", "surface")
LEVELS = {
    "canvas": (
        "[data-testid=stElementContainer]:has(.cg-root)",
        ".cg-root",
        ".cg-root canvas",
    ),
    "Vega-Lite": (
        "[data-testid=stElementContainer]:has([data-testid=stVegaLiteChart])",
        "[data-testid=stVegaLiteChart]",
        "[data-testid=stVegaLiteChart] svg.marks",
    ),
    "Plotly": (
        "[data-testid=stElementContainer]:has(.js-plotly-plot)",
        ".js-plotly-plot",
        ".js-plotly-plot .main-svg",
    ),
}
TAG = """(sels) => sels.forEach(s => document.querySelectorAll(s).forEach(e => e.__bench = 1))"""
KEPT = """(sels) => sels.map(s => { const es = [...document.querySelectorAll(s)];
    return es.length > 0 && es.every(e => e.__bench === 1); })"""
# A chart's own part of the page, for the keyboard and axe: Streamlit's element around it.
CHART = {v: levels[0] for v, levels in LEVELS.items()}


def load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def med(xs: list[float]) -> float:
    return statistics.median(xs)


@contextmanager
def servers(port: int):
    """The three pages' servers on `port`, `port` + 1, `port` + 2: {variant: url}."""
    with ExitStack() as stack:
        urls = {}
        for k, (variant, script) in enumerate(PAGES.items()):
            proc = start_server(port + k, script=script)
            stack.callback(stop_server, proc)
            urls[variant] = f"http://127.0.0.1:{port + k}"
            wait_healthy(urls[variant], proc)
        yield urls


class Meter:
    """A page's renderer main thread time (Chromium's TaskDuration) and the bytes it has
    received over its websockets."""

    def __init__(self, pg) -> None:
        self.pg, self.ws_bytes = pg, 0
        self.cdp = pg.context.new_cdp_session(pg)
        self.cdp.send("Performance.enable")
        pg.on("websocket", lambda ws: ws.on("framereceived", self._frame))

    def _frame(self, payload) -> None:
        self.ws_bytes += len(payload.encode() if isinstance(payload, str) else payload)

    def busy(self) -> float:
        metrics = self.cdp.send("Performance.getMetrics")["metrics"]
        return next(m["value"] for m in metrics if m["name"] == "TaskDuration")


def first_open(browser, url: str, variant: str, kind: str) -> dict:
    """A fresh context opens the page: seconds to both charts drawn, main thread seconds,
    and the bytes fetched on the way."""
    ctx = browser.new_context(viewport=VIEWPORT)
    pg = ctx.new_page()
    meter, responses = Meter(pg), []
    pg.on("response", lambda r: responses.append(r))
    t0 = time.perf_counter()
    pg.goto(f"{url}/?chart={kind}")
    want = chart_data.stamp(chart_data.DEFAULT, kind)
    pg.wait_for_function(drawn(variant), arg=[kind, want], polling="raf", timeout=120_000)
    out = {"wall": time.perf_counter() - t0, "cpu": meter.busy(), "ws": meter.ws_bytes}
    js = http = js_raw = 0
    for r in responses:
        if not r.url.startswith("http"):  # the component's script, from a blob: (websocket)
            continue
        try:
            sent = r.request.sizes()["responseBodySize"]
        except Exception:  # noqa: BLE001 (a response without a body: a redirect, a 304)
            continue
        http += sent
        if r.request.resource_type == "script":
            js += sent
            js_raw += len(r.body())
    ctx.close()
    return out | {"js": js, "js_raw": js_raw, "http": http}


def first_opens(browser, urls: dict, kind: str, opens: int) -> dict:
    print(f"\n1. First open ({kind}), fresh browser context, goto -> both charts drawn ({load()})")
    for v in urls:  # warm-up: the server's first run of each page
        first_open(browser, urls[v], v, kind)
    runs = {v: [] for v in urls}
    order = list(urls)
    for r in range(opens):
        for v in order[r % 3 :] + order[: r % 3]:
            runs[v].append(first_open(browser, urls[v], v, kind))
    base = med([x["wall"] for x in runs["canvas"]])
    base_cpu = med([x["cpu"] for x in runs["canvas"]])
    print(
        f"{'':<10} {'wall: median (range)':>26} {'x canvas':>8}  {'main thread':>11} x canvas"
        f"   {'JS sent':>9} {'JS unpacked':>11} {'all HTTP':>9} {'websocket':>9}"
    )
    for v, xs in runs.items():
        w, c = [x["wall"] * 1000 for x in xs], med([x["cpu"] for x in xs]) * 1000
        kb = {k: med([x[k] for x in xs]) / 1024 for k in ("js", "js_raw", "http", "ws")}
        print(
            f"{v:<10} {med(w):8.0f} ms ({min(w):.0f}-{max(w):.0f}) {med(w) / base / 1000:8.2f}"
            f"  {c:8.0f} ms {c / base_cpu / 1000:8.2f}   {kb['js']:6.0f} kB {kb['js_raw']:8.0f} kB"
            f" {kb['http']:6.0f} kB {kb['ws']:6.0f} kB   (n={len(xs)})"
        )
    print(f"({load()})")
    return runs


class Typist:
    """One tab on one variant's page, typing new sentences into its box."""

    def __init__(self, browser, url: str, variant: str, kind: str) -> None:
        self.pg = browser.new_page(viewport=VIEWPORT)
        self.meter = Meter(self.pg)
        self.variant, self.kind = variant, kind
        self.pg.goto(f"{url}/?chart={kind}")
        want = chart_data.stamp(chart_data.DEFAULT, kind)
        self.pg.wait_for_function(drawn(variant), arg=[kind, want], polling="raf", timeout=120_000)
        self.box = self.pg.get_by_role("textbox", name="Your sentence")

    def type(self, s: str) -> dict:
        """Keypress -> whole page updated (s), main thread (s), websocket bytes, and which
        levels of the charts' DOM kept their nodes."""
        pg = self.pg
        pg.bring_to_front()
        self.box.fill(s)
        pg.wait_for_timeout(300)  # the fill settles before the keypress
        pg.evaluate(TAG, list(LEVELS[self.variant]))
        busy, got = self.meter.busy(), self.meter.ws_bytes
        t0 = time.perf_counter()
        self.box.press("Enter")
        want = chart_data.stamp(s, self.kind)
        pg.wait_for_function(drawn(self.variant), arg=[self.kind, want], polling="raf")
        wall = time.perf_counter() - t0
        return {
            "wall": wall,
            "cpu": self.meter.busy() - busy,
            "ws": self.meter.ws_bytes - got,
            "kept": pg.evaluate(KEPT, list(LEVELS[self.variant])),
        }


def sentences(browser, urls: dict, kind: str, n: int) -> dict:
    print(f"\n2. A new 32-token sentence ({kind}), keypress -> whole page updated ({load()})")
    tabs = {v: Typist(browser, urls[v], v, kind) for v in urls}
    for tab in tabs.values():
        tab.type(sentence(9000))  # warm-up
    runs = {v: [] for v in urls}
    order = list(urls)
    for i in range(n):
        for v in order[i % 3 :] + order[: i % 3]:
            runs[v].append(tabs[v].type(sentence(100 + i)))
    for tab in tabs.values():
        tab.pg.close()
    base = med([x["wall"] for x in runs["canvas"]])
    base_cpu = med([x["cpu"] for x in runs["canvas"]])
    kept = "  ".join(f"{name}" for name in LEVEL_NAMES)
    print(
        f"{'':<10} {'wall: median (range)':>26} {'x canvas':>8}  {'main thread':>11} x canvas"
        f"   {'websocket':>9}   same node after the update ({kept})"
    )
    for v, xs in runs.items():
        w, c = [x["wall"] * 1000 for x in xs], med([x["cpu"] for x in xs]) * 1000
        ws = med([x["ws"] for x in xs]) / 1024
        same = "  ".join(
            f"{sum(x['kept'][k] for x in xs)}/{len(xs)}" for k in range(len(LEVEL_NAMES))
        )
        print(
            f"{v:<10} {med(w):8.0f} ms ({min(w):.0f}-{max(w):.0f}) {med(w) / base / 1000:8.2f}"
            f"  {c:8.0f} ms {c / base_cpu / 1000:8.2f}   {ws:6.1f} kB"
            f"   {same}   (n={len(xs)})"
        )
    print(f"({load()})")
    return runs


# The focused element, described: its tag, role and name, and whether it is inside a chart.
FOCUSED = """(chart) => { const e = document.activeElement;
    return { inside: Boolean(e && e.closest(chart)),
             box: Boolean(e && e.getAttribute('aria-label') === 'Your sentence'),
             what: e ? [e.tagName.toLowerCase(), e.getAttribute('role') || '',
                        e.getAttribute('aria-label') || e.textContent.trim().slice(0, 30)]
                       .filter(Boolean).join(' ') : '' }; }"""
# What the live regions inside the charts say.
SAID = """(chart) => [...document.querySelectorAll(chart)].flatMap(c =>
    [...c.querySelectorAll('[aria-live]')].map(r => r.textContent)).filter(Boolean)"""


# Roles of the page around the charts (the sentence box and Streamlit's frame), and text.
PAGE_ROLES = {"RootWebArea", "main", "banner", "textbox", "LabelText", "StaticText"}
PAGE_ROLES |= {"InlineTextBox", "generic"}
SKIP = "Skip to main content"  # Streamlit's link


def ax_names(pg) -> list[tuple[str, str]]:
    """(role, name) of every named node of Chromium's accessibility tree but the page's own:
    what a screen reader can reach of the charts, in its reading mode."""
    cdp = pg.context.new_cdp_session(pg)
    nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    out = []
    for n in nodes:
        role, name = n.get("role", {}).get("value", ""), n.get("name", {}).get("value", "")
        if not n.get("ignored") and name and role not in PAGE_ROLES and name != SKIP:
            out.append((role, name))
    return out


def access(browser, urls: dict, kind: str) -> None:
    print(f"\n3. Keyboard and screen reader ({kind})")
    axe = Axe()
    for v, url in urls.items():
        pg = browser.new_page(viewport=VIEWPORT)
        pg.goto(f"{url}/?chart={kind}")
        want = chart_data.stamp(chart_data.DEFAULT, kind)
        pg.wait_for_function(drawn(v), arg=[kind, want], polling="raf", timeout=120_000)
        box = pg.get_by_role("textbox", name="Your sentence")
        box.focus()
        stops, said = [], []
        for _ in range(40):  # Tab from the sentence box round the page back to it
            pg.keyboard.press("Tab")
            f = pg.evaluate(FOCUSED, CHART[v])
            if f["box"]:
                break
            if f["inside"]:
                stops.append(f["what"])
                pg.keyboard.press("ArrowRight")
                said += pg.evaluate(SAID, CHART[v])
        print(f"{v}: {len(stops)} Tab stops inside the charts: {stops}")
        print(f"  an arrow key on them: live regions say {said[:2] or 'nothing'}")
        named = ax_names(pg)
        roles = collections.Counter(role for role, _ in named)
        print(f"  accessibility tree (Chromium's), named nodes of the charts: {dict(roles)}")
        for role in roles:
            names = [n[:60] for r, n in named if r == role]
            print(f"    e.g. {role}: {names[:2] + names[-1:] if len(names) > 2 else names}")
        found = axe.run(pg, context=CHART[v]).response
        bad = [f"{x['id']} ({x['impact']}, {len(x['nodes'])} nodes)" for x in found["violations"]]
        review = [f"{x['id']} ({len(x['nodes'])})" for x in found["incomplete"]]
        print(f"  axe-core inside the charts: violations {bad or 'none'}; to review {review}")
        pg.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opens", type=int, default=6, help="first opens per variant and kind")
    ap.add_argument("-n", type=int, default=10, help="new sentences per variant and kind")
    ap.add_argument("--kinds", nargs="+", default=["bars", "lines"], choices=["bars", "lines"])
    ap.add_argument("--port", type=int, default=8621, help="the first of three ports")
    ap.add_argument("--skip", nargs="*", default=[], choices=["open", "type", "access"])
    args = ap.parse_args()
    print(f"bench_charts: {len(os.sched_getaffinity(0))} cores, {load()}")
    script = len(canvas_grid._JS.encode()) / 1024
    print(f"the canvas component's script: {script:.0f} kB, sent in every rerun's message")
    with servers(args.port) as urls, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        for kind in args.kinds:
            if "open" not in args.skip:
                first_opens(browser, urls, kind, args.opens)
            if "type" not in args.skip:
                sentences(browser, urls, kind, args.n)
            if "access" not in args.skip:
                access(browser, urls, kind)
        browser.close()
    print(f"\nbench_charts done ({load()})")


if __name__ == "__main__":
    main()
