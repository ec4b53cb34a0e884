"""A page's first visit on N fresh servers, in headless Chromium: how many finish, and what
the page said when one did not (its uncaught errors, the app's state).

Made for Generate, whose first visit writes its default text while the learner watches:
in Streamlit 1.67, replacing a placeholder's container that held another container on
every token made the browser side fail ("Bad delta path index 1 (should be between
[0, 0])") and blank the whole page on about one first visit in four
(attn_ui/generate_view.py `live`). It fails by chance, so it is counted here over many
servers rather than asserted in a test.

Run: `.venv/bin/python bench/first_visits.py` (12 servers, /Generate; `--n 24`,
`--page KV_cache`).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from tests.support.browser import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.support.server import serving  # noqa: E402

# Finished: the script ran to its end and every figure component (not the hidden ones) drew.
DONE = """() => {
    const app = document.querySelector('[data-testid=stApp]');
    const figures = [...document.querySelectorAll('[data-testid=stBidiComponentRegular]')]
        .filter(e => !e.closest('.st-key-attn_page, .st-key-attn_progress_cookie'));
    return !!app && app.dataset.testScriptState === 'notRunning' && figures.length > 0
        && document.querySelectorAll('.cg-root[data-drawn]').length >= figures.length;
}"""


def visit(page: str, limit_s: float) -> tuple[bool, float, list[str]]:
    """One fresh server, one first visit: (finished, seconds, the page's errors)."""
    with serving() as (url, _), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        pg = browser.new_page(viewport={"width": 1400, "height": 1000})
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e).splitlines()[0][:200]))
        t0 = time.monotonic()
        pg.goto(f"{url}/{page}")
        try:
            pg.wait_for_function(DONE, timeout=limit_s * 1000)
            done = True
        except PlaywrightTimeout:
            done = False
        browser.close()
        return done, time.monotonic() - t0, errors


def main(n: int, page: str, limit_s: float) -> None:
    failed = 0
    for i in range(n):
        done, seconds, errors = visit(page, limit_s)
        failed += not done
        how = "finished" if done else "NEVER FINISHED"
        print(f"{i + 1:3d}  {how} in {seconds:.1f} s  {errors}")
    print(f"/{page}: {n - failed} of {n} first visits finished, {failed} never did")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=12, help="fresh servers (default 12)")
    ap.add_argument("--page", default="Generate")
    ap.add_argument("--limit", type=float, default=60, help="seconds a visit may take")
    a = ap.parse_args()
    main(a.n, a.page, a.limit)
