"""The server restarts under an open page: the learner's work comes back (the address bar
holds the settings, docs/teaching.md)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from playwright.sync_api import sync_playwright

from tests.support.browser import AFTER, CHROMIUM, SHOWS, STATE, TEST_ARGS, until
from tests.support.server import free_port, start_server, stop_server, wait_healthy

SENTENCE = "the dog ran home"


@pytest.fixture
def server():
    """A server on a free port, and a way to restart it on the same port."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    procs = [start_server(port)]

    def restart():
        stop_server(procs[-1])
        procs.append(start_server(port))
        wait_healthy(base, procs[-1])

    wait_healthy(base, procs[0])
    yield base, restart
    stop_server(procs[-1])


def _type_restart_and_carry_on(base: str, restart) -> dict:
    """In a browser: type a sentence, restart the server, move a slider; what then shows."""
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=TEST_ARGS)
        pg = b.new_page(viewport={"width": 1400, "height": 1000})
        pg.goto(f"{base}/Overview?weights=random")  # the heads slider: random weights
        pg.wait_for_selector("input[aria-label='Your sentence']", timeout=120_000)
        box = pg.get_by_role("textbox", name="Your sentence")
        box.fill(SENTENCE)
        box.press("Enter")
        until(pg, SHOWS, arg=[SENTENCE, "CONNECTED"], timeout=120_000)
        restart()
        until(pg, f"() => ({STATE})() === 'CONNECTED'", timeout=120_000)
        slider = pg.get_by_role("slider", name="heads")
        slider.focus()
        pg.keyboard.press("ArrowRight")  # 2 -> 3 heads: the learner carries on
        seen = until(
            pg,  # until the slider's rerun has shown something new
            f"""() => {{ const s = ({AFTER})();
                return s && (s.heads.includes('3 heads') || s.sentence !== {SENTENCE!r}
                             || s.alerts.length) ? s : null; }}""",
            timeout=120_000,
        ).json_value()
        b.close()
    return seen


def test_restart_keeps_the_learners_sentence(server):
    """Type a sentence, restart the server, move a slider: the sentence is still the one shown,
    and that first move after the restart counts."""
    base, restart = server
    # Its own thread: the sync API refuses to run where an asyncio loop is already running
    # (the browser tests' Playwright leaves one on the main thread in a full test run).
    with ThreadPoolExecutor(1) as pool:
        seen = pool.submit(_type_restart_and_carry_on, base, restart).result(timeout=600)
    print("after the restart:", seen)
    assert seen["sentence"] == SENTENCE and seen["rows"] == SENTENCE, seen  # the sentence kept
    assert "3 heads" in seen["heads"], seen  # the first move after the restart counts
