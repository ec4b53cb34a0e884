"""Which heatmap renderer answers a keypress faster on a step page: Plotly or our canvas?

    .venv/bin/python bench/bench_renderer.py [--before e95b9ff] [--pages Multi-head Scores]
                                             [--rounds 3] [-n 15]

Compares the step pages of an older revision (`--before`, default e95b9ff: the last one
whose step pages drew Plotly heatmaps; unpacked with `git archive` into a temporary
folder) with this tree (every heatmap on the canvas component, attn_ui/figures/canvas_grid.js).
Both are served by their own serve.py, one at a time, in alternating rounds (before, this
tree; then this tree, before; ...), so that a machine busy with other work slows both alike.

Per page and version, each interaction is a new 32-token sentence (4 heads, d_model 32,
d_k 8, random weights):
1. server: a websocket client speaking the browser's protocol (tests/support/wsclient.py), from
   the rerun request to the script-finished message;
2. browser: headless Chromium, from the keypress to the first figure showing the new
   sentence, and to the whole page updated (the run finished and no figure shows the
   previous sentence).
Prints each round's medians, then the median over all interactions with the range of the
round medians (the spread), and the ratio before / this tree.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from bench.bench_app import FIGURE_ROWS, UPDATED, sentence  # noqa: E402
from tests.support.browser import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.support.server import free_port, stop_server, wait_healthy  # noqa: E402
from tests.support.wsclient import Session  # noqa: E402

SETTINGS = {"n_heads": 4, "d_model": 32, "d_k": 8, "weights": "random"}
QUERY = "&".join(f"{k}={v}" for k, v in SETTINGS.items())
SETUP = [("lesson_w_d_model", 32), ("lesson_w_d_k", 8), ("lesson_w_n_heads", 4)]
# The whole page: the run has finished, some figure shows the new sentence, none the old one.
PAGE_DONE = f"""([old, first]) => {{
    const app = document.querySelector('[data-testid=stApp]');
    const rows = ({FIGURE_ROWS})().map(r => r && r[0]);
    return app && app.dataset.testScriptState === 'notRunning'
        && rows.includes(first) && !rows.includes(old);
}}"""


def unpack(revision: str, into: Path) -> Path:
    """The tree of `revision` (git archive), in a new folder under `into`."""
    tree = into / revision
    tree.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", revision], check=True, capture_output=True
    ).stdout
    with tempfile.TemporaryFile() as f:
        f.write(archive)
        f.seek(0)
        with tarfile.open(fileobj=f) as tar:
            tar.extractall(tree, filter="data")
    return tree


@contextmanager
def serving(tree: Path) -> Iterator[str]:
    """`python serve.py app.py` of `tree`, run in `tree`, on a free loopback port."""
    port = free_port()
    cmd = [sys.executable, str(tree / "serve.py"), "app.py", "--server.port", str(port)]
    cmd += ["--server.address", "127.0.0.1", "--server.headless", "true"]
    cmd += ["--server.fileWatcherType", "none"]
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(cmd, cwd=tree, stdout=log, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            wait_healthy(url, proc)
            yield url
        finally:
            stop_server(proc)


def server_times(url: str, page: str, n: int, seed: int) -> list[float]:
    async def go() -> list[float]:
        s = Session(url, page)
        await s.connect()
        for key, value in SETUP:
            if key in s.widgets:  # a page without a heads slider has one head
                await s.set(key, value)
        times = []
        for i in range(n):
            run = await s.set("lesson_w_sentence", sentence(seed + i))
            assert run.ok, run.exceptions
            times.append(run.seconds)
        await s.close()
        return times

    return asyncio.run(go())


def browser_times(url: str, page: str, n: int, seed: int) -> tuple[list[float], list[float]]:
    """Keypress -> first figure updated, and -> whole page updated; one warm-up keypress.
    Each keypress waits until the interaction before it has finished drawing."""
    first, done = [], []
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        pg = b.new_page(viewport={"width": 1400, "height": 1000})
        pg.goto(f"{url}/{page}?{QUERY}")
        pg.wait_for_selector(".js-plotly-plot, .cg-root canvas", timeout=60_000)
        box = pg.get_by_role("textbox", name="Your sentence")
        old = ""
        for i in range(n + 1):
            s = sentence(seed + i)
            word = s.split()[0]
            box.fill(s)
            pg.wait_for_timeout(300)  # let the browser settle after filling the box
            t0 = time.perf_counter()
            box.press("Enter")
            pg.wait_for_function(UPDATED, arg=[0, word], polling="raf", timeout=60_000)
            t1 = time.perf_counter() - t0
            pg.wait_for_function(PAGE_DONE, arg=[old, word], polling="raf", timeout=60_000)
            t2 = time.perf_counter() - t0
            if i:  # the first keypress warms up
                first.append(t1)
                done.append(t2)
            old = word
        b.close()
    return first, done


MEASURES = ("server", "first figure", "whole page")


def measure(page: str, trees: dict[str, Path], rounds: int, n: int) -> dict:
    """{version: {measure: (every time in s, each round's median in ms)}}, rounds alternating."""
    out = {v: {m: ([], []) for m in MEASURES} for v in trees}
    for r in range(rounds):
        for version in list(trees) if r % 2 == 0 else list(trees)[::-1]:
            with serving(trees[version]) as url:
                ws = server_times(url, page, n, 2000 + 100 * r)
                first, done = browser_times(url, page, n, 5000 + 100 * r)
            for m, xs in zip(MEASURES, (ws, first, done), strict=True):
                out[version][m][0].extend(xs)
                out[version][m][1].append(statistics.median(xs) * 1000)
            medians = "  ".join(f"{m} {out[version][m][1][-1]:7.1f}" for m in MEASURES)
            print(f"  round {r}  {version:<20} {medians}", flush=True)
    return out


def report(res: dict) -> None:
    """Median over all interactions (range of the round medians), and the ratio."""
    med = {v: {m: statistics.median(res[v][m][0]) * 1000 for m in MEASURES} for v in res}
    for version, by in res.items():
        cells = [
            f"{m} {med[version][m]:7.1f} ({min(r):.0f}-{max(r):.0f})" for m, (_, r) in by.items()
        ]
        print(f"  median   {version:<20} " + "  ".join(cells))
    a, b = res
    print(
        "  ratio before / this tree: "
        + "  ".join(f"{m} {med[a][m] / med[b][m]:.2f}" for m in MEASURES)
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--before", default="e95b9ff", help="the older revision (default: Plotly heatmaps)"
    )
    ap.add_argument("--pages", nargs="+", default=["Multi-head", "Scores"])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("-n", type=int, default=15, help="interactions per measure and round")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        before = unpack(args.before, Path(tmp))
        # the default revision drew Plotly heatmaps; any other is named by its revision
        name = "Plotly" if args.before == "e95b9ff" else "before"
        trees = {f"{name} ({args.before})": before, "this tree": ROOT}
        for page in args.pages:
            print(f"\n{page}?{QUERY}: new 32-token sentence per keypress, ms")
            report(measure(page, trees, args.rounds, args.n))


if __name__ == "__main__":
    main()
