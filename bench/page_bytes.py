"""What a page sends its browser over the websocket, and what drawing it costs the browser,
with the figures' script served as a file (today: `js_bundle.publish`) and carried inside
every figure element (`--server.enableStaticServing false`, how the app sent it before).

Two servers of this checkout, one per way, in alternating rounds. Per round and way, one
headless Chromium tab opens every page by its address and waits for its figures; printed:
the websocket's bytes per page (the same every round), the whole tour's bytes, and the
renderer's CPU for the tour (from /proc) with its spread over the rounds. Then, per way, the
bytes of one new sentence typed on /Softmax (a rerun: what every interaction sends).

Run: `.venv/bin/python bench/page_bytes.py` (3 rounds, about 4 minutes; `--rounds N`).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import sync_playwright  # noqa: E402

from attn_ui.registry import PAGES  # noqa: E402
from bench.browser_costs import cpu_of  # noqa: E402
from tests.support.browser import CHROMIUM, TEST_ARGS, url_path, wait_idle  # noqa: E402
from tests.support.server import serving  # noqa: E402

WAYS = {"file": (), "inline": ("--server.enableStaticServing", "false")}
PATHS = ["", *(url_path(p.path) for p in PAGES)]
FIRST_RUN = 240_000  # Generate writes its default text on a first visit


def tour(browser, url: str) -> tuple[dict[str, int], float, int]:
    """Every page opened by its address in a new tab: bytes received per page, the
    renderer's CPU seconds for all of them, and the bytes of one new sentence on /Softmax."""
    got: list[int] = []
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = ctx.new_page()
    pg.on("websocket", lambda ws: ws.on("framereceived", lambda p: got.append(len(p))))
    sent = {}
    before = cpu_of(None, "--type=renderer")
    for path in PATHS:
        got.clear()
        pg.goto(f"{url}/{path}")
        wait_idle(pg, FIRST_RUN)
        sent[path or "home"] = sum(got)
    cpu = cpu_of(None, "--type=renderer") - before
    pg.goto(f"{url}/Softmax")
    wait_idle(pg, FIRST_RUN)
    got.clear()
    box = pg.get_by_role("textbox", name="Your sentence")
    box.fill("the small bird sat on the old tree")
    box.press("Enter")
    pg.wait_for_function("() => document.querySelector('.cg-root canvas[data-rows*=\"bird\"]')")
    wait_idle(pg, FIRST_RUN)
    sentence = sum(got)
    ctx.close()
    return sent, cpu, sentence


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    sent, cpu, sentence = {}, {w: [] for w in WAYS}, {}
    with (
        serving(*WAYS["file"]) as (file_url, _),
        serving(*WAYS["inline"]) as (inline_url, _),
        sync_playwright() as p,
    ):
        urls = {"file": file_url, "inline": inline_url}
        browser = p.chromium.launch(executable_path=CHROMIUM, args=TEST_ARGS)
        for r in range(args.rounds):
            for way in WAYS if r % 2 == 0 else reversed(WAYS):
                sent[way], seconds, sentence[way] = tour(browser, urls[way])
                cpu[way].append(seconds)
                print(f"round {r + 1}, {way}: renderer {seconds:.1f} s", flush=True)
        browser.close()
    print(f"\n{'page':22s} {'file kB':>9s} {'inline kB':>10s}")
    for page in sent["file"]:
        print(f"{page:22s} {sent['file'][page] / 1e3:9.1f} {sent['inline'][page] / 1e3:10.1f}")
    for way in WAYS:
        total = sum(sent[way].values()) / 1e3
        med, lo, hi = statistics.median(cpu[way]), min(cpu[way]), max(cpu[way])
        print(
            f"{way:7s}: {len(PATHS)} pages {total:,.0f} kB; one new sentence on /Softmax "
            f"{sentence[way] / 1e3:.1f} kB; renderer CPU for the tour median {med:.1f} s "
            f"({lo:.1f} to {hi:.1f}, {len(cpu[way])} rounds)"
        )
    ratio = statistics.median(cpu["file"]) / statistics.median(cpu["inline"])
    print(f"renderer CPU, file / inline: {ratio:.2f}")


if __name__ == "__main__":
    main()
