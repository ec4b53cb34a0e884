"""One learner runs the heaviest thing the app offers; another learner's edit still comes back."""

from __future__ import annotations

import asyncio
import json
import time
from concurrent.futures import ThreadPoolExecutor

from attn_ui.compute import lesson_run
from attn_ui.settings import LessonSettings
from tests.support.wsclient import Session

LIGHT = "the dog ran home"


def rows(run) -> list[str]:
    """The row labels of the overview's first figure (the tokens), as its first canvas grid
    got them (X beside the lesson's words; the pipeline's grid follows)."""
    grids = run.of_type("bidi_component")  # the canvas grids, and the page's style component
    grid = [g for g in grids if g.component_name.endswith("canvas_grid")][0]
    return json.loads(grid.json)["sections"][0]["items"][0]["rows"]


async def light_edit(s: Session, words: str):
    run = await s.set("lesson_w_sentence", words)
    assert run.ok, (run.status, run.exceptions)
    assert rows(run) == list(lesson_run(LessonSettings(sentence=words)).tokens)
    return run


async def heavy_and_light(base: str, heavy_page: str, heavy_steps: list, sign: str | None) -> dict:
    """Start the heavy run, wait for its first `sign` element, then time the light edit."""
    light, heavy = Session(base, "Overview"), Session(base, heavy_page)
    assert (await light.connect()).ok and (await heavy.connect()).ok
    alone = await light_edit(light, "the cat ran home")
    for key, value in heavy_steps[:-1]:
        assert (await heavy.set(key, value)).ok
    t0 = await heavy.send(*heavy_steps[-1])
    await heavy.wait_for(sign, limit_s=120)  # the heavy run is under way
    heavy_task = asyncio.create_task(heavy.finish(t0))  # reads the heavy frames meanwhile
    during = await light_edit(light, LIGHT)
    light_end = time.perf_counter()
    heavy_run = await heavy_task
    overlapped = t0 + heavy_run.seconds > light_end  # the heavy run ended after the edit
    await asyncio.gather(light.close(), heavy.close())
    return {"alone": alone, "during": during, "heavy": heavy_run, "overlapped": overlapped}


def report(name: str, got: dict) -> None:
    print(
        f"\n{name}: light edit alone {got['alone'].seconds * 1000:.0f} ms, during the heavy run "
        f"{got['during'].seconds * 1000:.0f} ms; heavy run {got['heavy'].seconds:.1f} s; "
        f"still running when the edit came back: {got['overlapped']}"
    )


def run_async(coro, limit_s: float = 300):
    """Run the websocket clients in their own thread: when the browser tests ran first in
    this process, Playwright's sync API still holds an event loop in the main thread."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, asyncio.wait_for(coro, limit_s)).result()


def test_cost_timing_does_not_block_another_learner(app_url):
    """The cost lab's measurement (T up to 2048, d = 128, best of 9) while another edits."""
    steps = [("cost_d", 128), ("cost_repeats", 9), ("cost_run", True)]
    got = run_async(heavy_and_light(app_url, "Cost", steps, "spinner"))
    report("cost lab", got)
    assert got["heavy"].ok, (got["heavy"].status, got["heavy"].exceptions)
    assert any("Measured" in h.body for h in got["heavy"].of_type("heading"))
    assert rows(got["during"]) == list(lesson_run(LessonSettings(sentence=LIGHT)).tokens)
    assert got["overlapped"], "the light edit waited for the heavy run to end"


def test_model_explorer_does_not_block_another_learner(app_url):
    """MiniLM on a long text (truncated to the explorer's limit) while another edits."""
    text = " ".join(["attention lets every word look at every other word"] * 20)
    steps = [("explorer_sentence", text)]
    got = run_async(heavy_and_light(app_url, "Model_explorer", steps, None))
    report("model explorer", got)
    assert got["heavy"].ok, (got["heavy"].status, got["heavy"].exceptions)
    assert rows(got["during"]) == list(lesson_run(LessonSettings(sentence=LIGHT)).tokens)
    assert got["overlapped"], "the light edit waited for the heavy run to end"
