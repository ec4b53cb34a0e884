"""What a test's wait costs the browser: Chromium's CPU seconds (every Chromium process, read
from /proc) while a wait that never comes true runs for `--seconds` on a loaded page, asking
the page on every animation frame (Playwright's default) or every N ms (`until` in
tests/support/browser.py asks every POLL_MS).

Run: `.venv/bin/python bench/wait_polling.py` (Softmax, 5 s a wait, 3 rounds of every way;
`--page Overview`, `--rounds 5`). It prints each wait's CPU, and per way the median CPU per
second of waiting and its spread over the rounds.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from bench.browser_costs import cpu_of  # noqa: E402
from tests.support.browser import CHROMIUM, POLL_MS, TEST_ARGS, wait_idle  # noqa: E402
from tests.support.server import serving  # noqa: E402

# never true, but as costly as the tests' waits: it looks at the app and its figures
NEVER = """() => document.querySelectorAll('.cg-root[data-drawn]').length > 10000
    && document.querySelector('[data-testid=stApp]').dataset.testScriptState === 'x'"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--page", default="Softmax")
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    ways = ["raf", 16, POLL_MS, 100]
    got: dict[str, list[float]] = {str(w): [] for w in ways}
    with serving() as (url, _), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=TEST_ARGS)
        pg = browser.new_page(viewport={"width": 1400, "height": 1000})
        pg.goto(f"{url}/{args.page}")
        wait_idle(pg, 120_000)
        for r in range(args.rounds):
            for way in ways:  # each round every way, one after another
                before = cpu_of(None, "chromium")
                with contextlib.suppress(PlaywrightTimeout):  # it never comes true
                    pg.wait_for_function(NEVER, polling=way, timeout=args.seconds * 1000)
                spent = cpu_of(None, "chromium") - before
                got[str(way)].append(spent / args.seconds)
                print(
                    f"round {r + 1}, {way}: {spent:.2f} s of CPU in {args.seconds:g} s", flush=True
                )
        browser.close()
    print(f"\nChromium's CPU per second of waiting on /{args.page}, {args.rounds} rounds:")
    for way, per_s in got.items():
        name = "every frame" if way == "raf" else f"every {way} ms"
        print(
            f"  {name:>14}: median {statistics.median(per_s):.3f} s"
            f" (from {min(per_s):.3f} to {max(per_s):.3f})"
        )


if __name__ == "__main__":
    main()
