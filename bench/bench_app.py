"""How fast does the overview page answer a learner, against a bare one-heatmap page?

Prints, in one run:
1. server time per interaction (a new 32-token sentence, 4 heads) measured with
   Streamlit's AppTest, which runs the real script in-process. AppTest has no fragment
   reruns: on the overview this is the whole page, what moving a sidebar control costs;
2. the same against a real server: a websocket client speaking the browser's protocol
   (tests/support/wsclient.py), from the rerun request sent to the script-finished message. Like
   the browser, it reruns only the overview's fragment (sentence box and figures);
3. browser-observed time from the keypress to the updated figure, in headless
   Chromium against real servers on loopback.

Both for the overview page and for bench/bare_page.py, a page that draws one
heatmap of the same size and nothing else. Run: `.venv/bin/python bench/bench_app.py`.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from tests.support.browser import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.support.server import serving  # noqa: E402
from tests.support.wsclient import Session  # noqa: E402

WORDS = (
    "apple bird cloud dream earth field glass house island jungle kettle lemon mountain night "
    "ocean pencil queen river stone table umbrella valley window yellow zebra anchor basket "
    "candle desert engine forest garden harbor"
).split()
N = 25  # interactions per measurement
SETTINGS = {"n_heads": 4, "d_model": 32, "d_k": 8, "weights": "random"}
OVERVIEW_URL = "Overview?" + "&".join(f"{k}={v}" for k, v in SETTINGS.items())


def sentence(i: int) -> str:
    """32 distinct-ish words, different for every i, so no cache hit hides the work."""
    rot = WORDS[i % len(WORDS) :] + WORDS[: i % len(WORDS)]
    return " ".join(rot[:31] + [f"w{i}"])


def server_times(script: str, widget: str, settings: dict) -> list[float]:
    at = AppTest.from_file(str(ROOT / script), default_timeout=120)
    for k, v in settings.items():
        at.session_state[k] = v
    if script == "app.py":
        at.switch_page("pages/00_Overview.py")
    at.run()
    times = []
    for i in range(N):
        box = at.text_input(key=widget) if widget.startswith("lesson") else at.text_input[0]
        box.input(sentence(i))
        t0 = time.perf_counter()
        at.run()
        times.append(time.perf_counter() - t0)
        assert not at.exception, at.exception
    return times


def websocket_times(url: str, page: str, widget: str, setup: list[tuple]) -> list[float]:
    """Rerun request -> script finished, on a real server, one session, new sentences."""

    async def go() -> list[float]:
        s = Session(url, page)
        await s.connect()
        for key, value in setup:
            await s.set(key, value)
        times = []
        for i in range(N):
            run = await s.set(widget, sentence(i + 2000))
            assert run.ok, run.exceptions
            times.append(run.seconds)
        await s.close()
        return times

    return asyncio.run(go())


# Every figure's row labels, whichever way it is drawn: a Plotly heatmap (the bare page, and
# older revisions' step pages, bench_renderer.py) keeps them in its layout, a canvas of
# attn_ui/figures/canvas_grid.js (every heatmap of the app) in data-rows; a chart's canvas
# (canvas_chart.js, in the same component) has none.
FIGURE_ROWS = """() => [
    ...[...document.querySelectorAll('.js-plotly-plot')].map(
        g => (g.layout && g.layout.yaxis && g.layout.yaxis.ticktext) || null),
    ...[...document.querySelectorAll('.cg-root canvas')].filter(c => c.dataset.rows)
        .map(c => JSON.parse(c.dataset.rows)),
]"""
FIRST_ROWS = f"""() => ({FIGURE_ROWS})().map(rows => rows && rows[0])"""
UPDATED = f"""([i, first]) => ({FIRST_ROWS})()[i] === first"""
# The whole page: the run has finished and every figure shows the new sentence.
PAGE_DONE = f"""(first) => {{
    const app = document.querySelector('[data-testid=stApp]');
    const rows = ({FIRST_ROWS})();
    return app && app.dataset.testScriptState === 'notRunning' && rows.length > 0
        && rows.every(r => r === first);
}}"""


def browser_times(url: str, label: str, submit: str) -> tuple[list[float], list[float]]:
    """Keypress -> first figure updated, and keypress -> whole page updated.

    Each keypress waits until the previous interaction has finished drawing, so one
    interaction's time does not include the tail of the one before."""
    first, done = [], []
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        pg = b.new_page(viewport={"width": 1400, "height": 1000})
        pg.goto(url)
        pg.wait_for_selector(".js-plotly-plot, .cg-root canvas", timeout=60_000)
        box = pg.get_by_role("textbox", name=label)
        for i in range(N):
            s = sentence(i + 1000)
            word = s.split()[0]
            box.fill(s)
            pg.wait_for_timeout(300)  # let the browser settle after filling the box
            t0 = time.perf_counter()
            box.press(submit)
            pg.wait_for_function(UPDATED, arg=[0, word], polling="raf", timeout=60_000)
            first.append(time.perf_counter() - t0)
            pg.wait_for_function(PAGE_DONE, arg=word, polling="raf", timeout=60_000)
            done.append(time.perf_counter() - t0)
        b.close()
    return first, done


def summary(name: str, xs: list[float]) -> str:
    ms = sorted(x * 1000 for x in xs)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    return f"{name:<48} median {statistics.median(ms):7.1f} ms   p95 {p95:7.1f} ms   (n={len(ms)})"


def main() -> None:
    lesson = {"lesson": dict(SETTINGS)}
    print("Server time per interaction (AppTest: whole-page reruns, new 32-token sentence)")
    ov = server_times("app.py", "lesson_w_sentence", lesson)
    bare = server_times("bench/bare_page.py", "", {})
    print(summary("overview (32 tokens, 4 heads)", ov))
    print(summary("bare page (one 32x32 heatmap)", bare))
    print(f"ratio overview / bare: {statistics.median(ov) / statistics.median(bare):.2f}")

    print("\nReal server: rerun request -> run finished (websocket client, loopback; the")
    print("overview's sentence box reruns its fragment, as in the browser)")
    setup = [("lesson_w_d_model", 32), ("lesson_w_d_k", 8), ("lesson_w_n_heads", 4)]
    ws = {}
    for name, script, page, widget, steps in (
        ("overview (32 tokens, 4 heads)", "app.py", "Overview", "lesson_w_sentence", setup),
        ("bare page (one 32x32 heatmap)", "bench/bare_page.py", "", "bare_sentence", []),
    ):
        with serving(script=script) as (url, _):
            ws[name] = websocket_times(url, page, widget, steps)
        print(summary(name, ws[name]))
    a, b = (statistics.median(v) for v in ws.values())
    print(f"ratio overview / bare: {a / b:.2f}")

    print("\nBrowser: keypress -> first figure updated / whole page updated (headless Chromium)")
    firsts, dones = {}, {}
    for name, script, path, label, submit in (
        ("overview (32 tokens, 4 heads)", "app.py", OVERVIEW_URL, "Your sentence", "Enter"),
        ("bare page (one 32x32 heatmap)", "bench/bare_page.py", "", "Your sentence", "Enter"),
    ):
        with serving(script=script) as (url, _):
            firsts[name], dones[name] = browser_times(f"{url}/{path}", label, submit)
        print(summary(f"{name}, first figure", firsts[name]))
        print(summary(f"{name}, whole page", dones[name]))
    for what, res in (("first figure", firsts), ("whole page", dones)):
        a, b = (statistics.median(v) for v in res.values())
        print(f"ratio overview / bare, {what}: {a / b:.2f}")


if __name__ == "__main__":
    main()
