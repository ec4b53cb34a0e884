"""Where the browser spends its time when a page redraws: a CPU profile from Chromium.

    .venv/bin/python bench/profile_browser.py [--page Overview] [--updates 3] [--top 25]

Starts the app, opens the page (default the overview) with bench_app's settings (4 heads,
d_model 32, d_k 8), types one 32-token sentence to warm up, then records Chromium's
JavaScript profiler (DevTools protocol) over `--updates` more sentences, each waited for
until the run has finished and no figure shows the sentence before. Prints the wall time,
the sampled renderer time, and the functions with the most time of their own and including
what they call: the heatmaps' are named in attn_ui/figures/canvas_grid.js (draw, drawCells,
drawLabels, layout), the rest are Streamlit's and, for line and bar charts, Plotly's.
When the heatmaps were Plotly figures, this is how their margin and label-overflow
settings were found (Plotly's doAutoMargin and _adjustTickLabelsOverflow).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import sync_playwright  # noqa: E402

from bench.bench_app import sentence  # noqa: E402
from bench.bench_renderer import PAGE_DONE, QUERY  # noqa: E402
from tests.support.browser import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.support.server import serving  # noqa: E402


def update(pg, box, old: str, s: str) -> None:
    box.fill(s)
    pg.wait_for_timeout(200)  # the fill settles before the keypress
    box.press("Enter")
    pg.wait_for_function(PAGE_DONE, arg=[old, s.split()[0]], polling="raf", timeout=60_000)


def record(url: str, page: str, updates: int) -> tuple[dict, float]:
    """The profiler's output over `updates` updates of `page`, and their wall time (s)."""
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        pg = b.new_page(viewport={"width": 1400, "height": 1000})
        pg.goto(f"{url}/{page}?{QUERY}")
        pg.wait_for_selector(".cg-root canvas", timeout=60_000)
        box = pg.get_by_role("textbox", name="Your sentence")
        update(pg, box, "", sentence(5000))  # warm up
        seeds = [5000, *range(6000, 6000 + updates)]
        cdp = pg.context.new_cdp_session(pg)
        cdp.send("Profiler.enable")
        cdp.send("Profiler.setSamplingInterval", {"interval": 200})  # microseconds
        cdp.send("Profiler.start")
        t0 = time.perf_counter()
        for before, seed in zip(seeds[:-1], seeds[1:], strict=True):
            update(pg, box, sentence(before).split()[0], sentence(seed))
        wall = time.perf_counter() - t0
        profile = cdp.send("Profiler.stop")["profile"]
        b.close()
    return profile, wall


def summarise(profile: dict) -> tuple[Counter, Counter, float]:
    """Microseconds per function: its own samples, and samples with it anywhere on the stack."""
    nodes = {n["id"]: n for n in profile["nodes"]}
    parent = {c: n["id"] for n in profile["nodes"] for c in n.get("children", [])}

    def name(n: dict) -> str:
        f = n["callFrame"]
        return f"{f['functionName'] or '(anonymous)'} {f['url'].split('/')[-1][:28]}"

    own, total = Counter(), Counter()
    for sample, dt in zip(profile["samples"], profile["timeDeltas"], strict=True):
        own[name(nodes[sample])] += dt
        seen, node = set(), sample
        while node is not None:
            seen.add(name(nodes[node]))
            node = parent.get(node)
        for n in seen:
            total[n] += dt
    return own, total, sum(profile["timeDeltas"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--page", default="Overview", help="the page's URL path, e.g. Multi-head")
    ap.add_argument("--updates", type=int, default=3)
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args()
    with serving() as (url, _):
        profile, wall = record(url, args.page, args.updates)
    own, total, sampled = summarise(profile)
    print(f"{args.updates} {args.page} updates: {wall:.2f} s wall, {sampled / 1e6:.2f} s sampled")
    for title, counts in (("own time", own), ("including callees", total)):
        print(f"\n{title}:")
        for n, us in counts.most_common(args.top):
            print(f"{us / 1e3:9.1f} ms {100 * us / sampled:5.1f}%  {n}")


if __name__ == "__main__":
    main()
