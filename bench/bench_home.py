"""How fast does the home page open, against a bare one-heatmap Streamlit page?

The home page is the first page a learner opens: it now starts with their sentence and a live
heatmap (attn_ui/first_screen.py). This times its first open in a fresh browser context (no
cache, no session), from navigation to the heatmap drawn and the script finished, against
bench/bare_page.py (one Plotly heatmap, its plot drawn). Both servers are warm (one visit
each before timing, so MiniLM is loaded), and the two pages are opened in turns, so machine
load hits both alike. Prints each median and p95, their ratio, and the load average.

Run: `.venv/bin/python bench/bench_home.py [--n 15] [--width 1400]`.
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

from tests.support.browser import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.support.server import serving  # noqa: E402

# The page is ready: the script has finished and its figure is drawn.
READY = {
    "home": """() => {
        const app = document.querySelector('[data-testid=stApp]');
        return app && app.dataset.testScriptState === 'notRunning'
            && document.querySelector('.cg-root[data-drawn]') !== null;
    }""",
    "bare": """() => {
        const app = document.querySelector('[data-testid=stApp]');
        const g = document.querySelector('.js-plotly-plot');
        return app && app.dataset.testScriptState === 'notRunning'
            && g && g.querySelector('.main-svg') && g._fullLayout && g._fullLayout._size;
    }""",
}


def first_open(browser, url: str, ready: str, width: int) -> float:
    """Seconds from navigation to `ready`, in a fresh context (a new learner)."""
    ctx = browser.new_context(viewport={"width": width, "height": 1000})
    pg = ctx.new_page()
    try:
        t0 = time.perf_counter()
        pg.goto(url)
        pg.wait_for_function(ready, polling="raf", timeout=120_000)
        return time.perf_counter() - t0
    finally:
        ctx.close()


def summary(name: str, xs: list[float]) -> str:
    ms = sorted(x * 1000 for x in xs)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    return f"{name:<36} median {statistics.median(ms):7.0f} ms   p95 {p95:7.0f} ms   (n={len(ms)})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=15, help="first opens of each page")
    ap.add_argument("--width", type=int, default=1400, help="browser width in px")
    args = ap.parse_args()
    times: dict[str, list[float]] = {"home": [], "bare": []}
    with (
        serving(script="app.py") as (home_url, _),
        serving(script="bench/bare_page.py") as (bare_url, _),
        sync_playwright() as p,
    ):
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        urls = {"home": home_url + "/", "bare": bare_url + "/"}
        for name, url in urls.items():  # warm: imports, MiniLM loaded, the component served
            first_open(b, url, READY[name], args.width)
        for i in range(args.n):
            order = ("home", "bare") if i % 2 == 0 else ("bare", "home")
            for name in order:
                times[name].append(first_open(b, urls[name], READY[name], args.width))
        b.close()
    print(f"First open in a fresh browser context, {args.width} px wide, servers warm")
    print(summary("home (sentence box + live A)", times["home"]))
    print(summary("bare page (one Plotly heatmap)", times["bare"]))
    ratio = statistics.median(times["home"]) / statistics.median(times["bare"])
    print(f"ratio home / bare (medians): {ratio:.2f}")
    print("load average (1, 5, 15 min): {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
