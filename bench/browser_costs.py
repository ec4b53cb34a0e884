"""What a page costs the test suite's browser: Chromium's CPU seconds (every Chromium process,
read from /proc) for each phase of the language walk and the accessibility survey.

Per page, in the language asked: open it by its address and wait for the app and its first
figure (`open`), axe-core without colour contrast at 1400 px (`axe`), narrow to 390 px and
wait for every figure to redraw (`narrow`), axe again (`axe 390`), and colour contrast alone
(`contrast`). The app's server is measured apart (`server`: its CPU for the page's runs).

Run: `.venv/bin/python bench/browser_costs.py` (every page in Spanish; `--lang zh`,
`--pages Softmax Overview`; `--plain` for the benchmarks' Chromium flags instead of the
tests' `TEST_ARGS`; `--flags='--js-flags=--max-opt=0'` for more). The suite is CPU-bound on
two cores: a page's seconds here, summed over the suite's page visits, are about twice what
they add to its wall time.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import sync_playwright  # noqa: E402

from attn_ui.registry import PAGES  # noqa: E402
from tests.support.browser import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    TEST_ARGS,
    axe_findings,
    url_path,
    wait_figure_shown,
    wait_idle,
    wait_plots_drawn,
)
from tests.support.server import serving  # noqa: E402

NO_CONTRAST = {"resultTypes": ["violations"], "rules": {"color-contrast": {"enabled": False}}}
CONTRAST = {
    "resultTypes": ["violations"],
    "runOnly": {"type": "rule", "values": ["color-contrast"]},
}
REDRAWN = (
    "() => [...document.querySelectorAll('.cg-root')]"
    ".every(r => r.dataset.width === String(r.clientWidth))"
)


def cpu_of(pids: set[int] | None, word: str) -> float:
    """CPU seconds so far of the processes whose command line holds `word` (or of `pids`)."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if pids is not None and int(stat.parent.name) not in pids:
                continue
            if pids is None and word not in (stat.parent / "cmdline").read_text():
                continue
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the process ended
        total += (int(fields[11]) + int(fields[12])) / 100  # utime + stime, in clock ticks
    return total


def measure(pg, url: str, path: str, lang: str, server_pid: int) -> Counter:
    """One page's phases (see the module's words): Chromium's CPU seconds each, and the
    server's for the page's runs."""
    cost, clock = Counter(), [cpu_of(None, "chromium")]

    def done(name: str) -> None:
        now = cpu_of(None, "chromium")
        cost[name], clock[0] = now - clock[0], now

    server = cpu_of({server_pid}, "")
    pg.set_viewport_size({"width": 1400, "height": 1000})
    pg.goto(f"{url}/{path}?lang={lang}")
    wait_idle(pg, 240_000)
    wait_figure_shown(pg)
    done("open")
    cost["server"] = cpu_of({server_pid}, "") - server
    axe_findings(pg, NO_CONTRAST)
    done("axe")
    pg.set_viewport_size({"width": 390, "height": 1000})
    pg.wait_for_function(REDRAWN)
    wait_plots_drawn(pg)
    done("narrow")
    axe_findings(pg, NO_CONTRAST)
    done("axe 390")
    axe_findings(pg, CONTRAST)
    done("contrast")
    return cost


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lang", default="es")
    ap.add_argument(
        "--pages", nargs="*", help="URL paths (default: every page with a figure, and home)"
    )
    ap.add_argument("--plain", action="store_true", help="the benchmarks' Chromium flags")
    ap.add_argument(
        "--flags", default="", help="more Chromium flags, space-separated: --flags='--js-flags=...'"
    )
    args = ap.parse_args()
    paths = args.pages or ["", *(url_path(p.path) for p in PAGES if p.figure)]
    with serving() as (url, proc), sync_playwright() as p:
        flags = [*(CHROMIUM_ARGS if args.plain else TEST_ARGS), *args.flags.split()]
        browser = p.chromium.launch(executable_path=CHROMIUM, args=flags)
        pg = browser.new_page(viewport={"width": 1400, "height": 1000})
        pg.goto(f"{url}/Scores?lang={args.lang}")  # Streamlit's scripts compiled once
        wait_idle(pg, 120_000)
        rows = [(path or "home", measure(pg, url, path, args.lang, proc.pid)) for path in paths]
        browser.close()
    names = ["open", "axe", "narrow", "axe 390", "contrast", "server"]
    flags = ("the benchmarks'" if args.plain else "the tests'") + f" Chromium flags {args.flags}"
    print(f"{len(rows)} pages in {args.lang!r}, CPU seconds, {flags.strip()}")
    print(f"{'page':<20}" + "".join(f"{n:>10}" for n in names))
    total = Counter()
    for path, cost in rows:
        print(f"{path:<20}" + "".join(f"{cost[n]:10.2f}" for n in names))
        total.update(cost)
    print(f"{'total':<20}" + "".join(f"{total[n]:10.1f}" for n in names))


if __name__ == "__main__":
    main()
