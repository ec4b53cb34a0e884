"""A class on two replicas behind HAProxy (`make class REPLICAS=2`, deploy/class_run.py): two
learners pinned to different replicas by HAProxy's cookie; one replica dies (or is restarted in
place, as a rolling update does): both learners carry on, each with their own sentence and
settings (the URL mirror restores the page on the live replica), and nobody sees an error."""

from __future__ import annotations

import itertools
import re
import signal
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from attn_class import open_store
from attn_lessons import inventory
from attn_ui.settings import DEFAULT_NEW_TOKENS
from deploy.class_run import COOKIE, Classroom
from tests.support.browser import AFTER, CHROMIUM, CHROMIUM_ARGS, SHOWS, STATE, wait_idle
from tests.support.postgres import postgres
from tests.support.server import ROOT, free_port

SENTENCES = ("the dog ran home", "a small bird sat on the tree")
HAD = f"""([n, words]) => {{ const s = ({AFTER})();
    return s && (s.heads.includes(n + ' heads') || s.sentence !== words || s.alerts.length)
        ? s : null; }}"""
ERRORS = "() => document.querySelectorAll('[data-testid=stException]').length"


@pytest.fixture(scope="module")
def pg_server():
    """One PostgreSQL server for this file's classes (a database each): the replicas use it
    as `make class` has them use its own."""
    with postgres() as server:
        yield server


_databases = itertools.count()


@pytest.fixture
def room(tmp_path, pg_server):
    """Two replicas, HAProxy and PostgreSQL on free loopback ports, as `make class REPLICAS=2`
    starts them."""
    url = pg_server.database(f"class{next(_databases)}")
    with Classroom(
        replicas=2, port=free_port(), bind="127.0.0.1", log_dir=tmp_path, database=url
    ) as r:
        yield r


def _replica(ctx) -> str:
    (value,) = [c["value"] for c in ctx.cookies() if c["name"] == COOKIE]
    return value


def _learner(browser, base: str, sentence: str):
    """A learner with their own cookies: the overview with random weights (its heads
    slider), their sentence typed, the heads moved 2 -> 3 (a setting to keep)."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = ctx.new_page()
    pg.goto(f"{base}/Overview?weights=random")
    box = pg.get_by_role("textbox", name="Your sentence")
    box.wait_for(timeout=120_000)
    box.fill(sentence)
    box.press("Enter")
    pg.wait_for_function(SHOWS, arg=[sentence, "CONNECTED"], timeout=120_000)
    _move_heads(pg, 3, sentence)
    return ctx, pg


def _move_heads(pg, n: int, sentence: str) -> dict:
    """Press → on the heads slider; what the page shows once that rerun has finished."""
    slider = pg.get_by_role("slider", name="heads")
    slider.focus()
    pg.keyboard.press("ArrowRight")
    return pg.wait_for_function(HAD, arg=[n, sentence], timeout=120_000).json_value()


def _check_in_class(ctx, base: str, form: str) -> None:
    """In a second tab of the learner's browser (the same replica): one form of the concept
    inventory answered (the first option each time) until the page confirms it is saved."""
    tab = ctx.new_page()
    tab.goto(f"{base}/Concept_inventory?form={form}")
    submit = tab.get_by_role("button", name="Submit my answers")
    submit.wait_for(timeout=120_000)
    wait_idle(tab, 120_000)  # the page's run has finished: a click now is not undone
    groups = tab.locator("[data-testid=stForm] [data-testid=stRadio]")  # not the form picker
    for i in range(groups.count()):
        groups.nth(i).locator("[data-testid=stRadioOption]").first.click()
    submit.click()
    tab.get_by_text("Your answers are saved for your class.").wait_for(timeout=120_000)
    tab.close()


def _lose_a_replica(room: Classroom, how: str, code: str = "") -> dict:
    """Two learners on different replicas; `how` ("kill" or "restart") happens to the first
    learner's replica; then both move the heads slider 3 -> 4. What each then sees. With a
    class `code`, the first learner joins it first and checks a page before and after."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        learners = [_learner(browser, room.url, s) for s in SENTENCES]
        before = [_replica(ctx) for ctx, _ in learners]
        lost = room.replica_of(before[0])
        pg0 = learners[0][1]
        if code:
            tab = learners[0][0].new_page()
            tab.goto(f"{room.url}/Join?code={code}")
            tab.get_by_label("Nickname", exact=True).fill("Ada")
            tab.get_by_role("button", name="Join the class").click()
            tab.get_by_text("as Ada.").wait_for(timeout=120_000)
            tab.close()
            _check_in_class(learners[0][0], room.url, "pre")
        with pg0.expect_websocket(timeout=120_000):  # the browser reconnects on its own
            if how == "kill":
                room.kill(lost)
            else:
                room.restart(lost)
        pg0.wait_for_function(f"() => ({STATE})() === 'CONNECTED'", timeout=120_000)
        seen = [_move_heads(pg, 4, s) for (_, pg), s in zip(learners, SENTENCES, strict=True)]
        errors = [pg.evaluate(ERRORS) for _, pg in learners]
        after = [_replica(ctx) for ctx, _ in learners]
        if code:  # on the live replica now: the same class, the same learner
            _check_in_class(learners[0][0], room.url, "post")
        browser.close()
    return {"before": before, "after": after, "seen": seen, "errors": errors}


def _run(room: Classroom, how: str, code: str = "") -> dict:
    # Its own thread: the sync API refuses to run where an asyncio loop is already running.
    with ThreadPoolExecutor(1) as pool:
        got = pool.submit(_lose_a_replica, room, how, code).result(timeout=600)
    print(how, got)
    return got


def _both_carry_on(got: dict) -> None:
    for s, seen, errors in zip(SENTENCES, got["seen"], got["errors"], strict=True):
        assert seen["sentence"] == s and seen["rows"] == s, seen  # their own sentence
        assert "4 heads" in seen["heads"], seen  # 3 heads kept, and the move counted
        assert seen["alerts"] == [] and errors == 0, (seen, errors)


def test_a_killed_replicas_learner_moves_to_the_live_one(room):
    """... and keeps their class: the answers confirmed on the killed replica are stored,
    and the learner's next check, on the live one, is stored for the same learner."""
    store = open_store(room.database_url)
    new = store.create_class("Failover")
    got = _run(room, "kill", new.code)
    assert got["before"][0] != got["before"][1], got  # pinned to different replicas
    # the first learner now holds the live replica's cookie; the second never moved
    assert got["after"] == [got["before"][1]] * 2, got
    _both_carry_on(got)
    s = store.summary(new.code, new.teacher_key)
    n = len(inventory.items("pre"))
    assert [(r.nickname, r.answers, r.pre is not None, r.post is not None) for r in s.roster] == [
        ("Ada", 2 * n, True, True)
    ]
    store.close()


def test_a_replica_restarted_in_place_loses_no_learner(room):
    """A rolling update's step: the replica is stopped gracefully and a new one starts on
    its port; its learner is served by whichever replica is up when the browser reconnects."""
    got = _run(room, "restart")
    assert got["before"][0] != got["before"][1], got
    assert got["after"][1] == got["before"][1], got  # the other learner stayed put
    _both_carry_on(got)


PROMPT = "Once upon a time in a small village there lived"
CAPTIONS = """() => [...document.querySelectorAll('[data-testid=stCaptionContainer]')]
    .map(c => c.innerText).join(' | ')"""


def _generation_cut_off(room: Classroom) -> dict:
    """A learner's generation on /Generate; their replica is killed mid-way. What the page
    says on the live replica, and what one click on "Write it again" then writes."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
        pg = ctx.new_page()
        pg.goto(f"{room.url}/Generate")  # the default text: written by the warm start
        pg.wait_for_function(IDLE, timeout=180_000)
        box = pg.get_by_role("textbox", name="Prompt (press Enter to write)")
        box.fill(PROMPT)
        box.press("Enter")
        pg.wait_for_function(  # a few tokens written: the replica is mid-way
            f"() => /Writing: ([3-9]|\\d\\d+) token/.test(({CAPTIONS})())", timeout=120_000
        )
        with pg.expect_websocket(timeout=120_000):
            room.kill(room.replica_of(_replica(ctx)))
        pg.wait_for_function(
            "() => [...document.querySelectorAll('[data-testid=stAlert]')]"
            ".some(a => a.innerText.includes('cut off'))",
            timeout=120_000,
        )
        pg.wait_for_function(IDLE, timeout=120_000)
        cut = {"prompt": box.input_value(), "captions": pg.evaluate(CAPTIONS), "url": pg.url}
        pg.get_by_role("button", name="Write it again").click()
        pg.wait_for_function(
            f"() => ({CAPTIONS})().includes('{DEFAULT_NEW_TOKENS} token(s) written')",
            timeout=180_000,
        )
        alerts = pg.locator("[data-testid=stAlert]").all_inner_texts()
        errors = pg.evaluate(ERRORS)
        browser.close()
    return {"cut": cut, "alerts_after": alerts, "errors": errors}


IDLE = """() => { const a = document.querySelector('[data-testid=stApp]');
    return a && a.dataset.testScriptState === 'notRunning'
        && a.dataset.testConnectionState === 'CONNECTED'; }"""


def test_a_generation_on_a_killed_replica_is_reported_and_written_again_in_one_click(room):
    with ThreadPoolExecutor(1) as pool:
        got = pool.submit(_generation_cut_off, room).result(timeout=600)
    print(got)
    assert got["cut"]["prompt"] == PROMPT, got  # the prompt kept
    assert "Writing" not in got["cut"]["captions"], got  # not restarted behind their back
    assert "writing=1" not in got["cut"]["url"], got
    assert got["alerts_after"] == [] and got["errors"] == 0, got


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_stops_the_replicas_and_haproxy(tmp_path, sig):
    """`make class` in a terminal: Ctrl+C (SIGINT) or a `kill` (SIGTERM) of the launcher
    stops every process it started: the replica, PostgreSQL and HAProxy."""
    port = free_port()
    cmd = [sys.executable, "deploy/class_run.py", "--replicas", "1", "--port", str(port)]
    cmd += ["--bind", "127.0.0.1", "--log-dir", str(tmp_path)]
    launcher = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    pids = []
    for line in launcher.stdout:  # it prints each pid, HAProxy's last
        pids += [int(w) for w in re.findall(r"pid (\d+)", line)]
        if "HAProxy pid" in line:
            break
    assert len(pids) == 3, pids
    assert all(_alive(p) for p in pids)
    launcher.send_signal(sig)
    assert launcher.wait(timeout=60) == 0
    assert "stopping the class" in launcher.stdout.read()
    assert not any(_alive(p) for p in pids), pids


def _alive(pid: int) -> bool:
    """Running (a zombie left for its parent to collect counts as stopped)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def _worksheets_across_a_kill(room: Classroom) -> dict:
    """A teacher sets a worksheet (seed 12) and a class set of 5, builds it; their replica
    is killed; what the page shows on the live one, and what one click on Build then gives."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
        pg = ctx.new_page()
        pg.goto(f"{room.url}/Worksheets")
        pg.wait_for_function(IDLE, timeout=180_000)
        for name, value in (("Seed", "12"), ("Sheets in the class set", "5")):
            box = pg.get_by_role("spinbutton", name=name)
            box.fill(value)
            box.press("Enter")
            pg.wait_for_function(f"() => ({BUTTONS})().includes('seeds 12 to')", timeout=60_000)
        pg.wait_for_function(f"() => ({BUTTONS})().includes('5 sheets')", timeout=60_000)
        pg.get_by_role("button", name="Build the class set").click()
        pg.wait_for_function(f"() => ({BUTTONS})().includes('Class set ZIP')", timeout=120_000)
        with pg.expect_websocket(timeout=120_000):
            room.kill(room.replica_of(_replica(ctx)))
        pg.wait_for_function(  # the page ran again on the live replica: the ZIP is gone
            f"() => ({IDLE})() && !({BUTTONS})().includes('Class set ZIP')", timeout=120_000
        )
        after = {
            "seed": pg.get_by_role("spinbutton", name="Seed").input_value(),
            "buttons": pg.evaluate(BUTTONS),
            "alerts": pg.locator("[data-testid=stAlert]").all_inner_texts(),
            "replica": _replica(ctx),
        }
        pg.get_by_role("button", name="Build the class set").click()
        pg.wait_for_function(f"() => ({BUTTONS})().includes('Class set ZIP')", timeout=120_000)
        after["errors"] = pg.evaluate(ERRORS)
        browser.close()
    return after


BUTTONS = "() => [...document.querySelectorAll('button')].map(b => b.innerText).join(' | ')"


def test_worksheet_settings_survive_a_killed_replica(room):
    """The settings come back with the page (the browser re-sends its widget values); the
    finished ZIP lived in the dead replica's memory: one click builds it again."""
    with ThreadPoolExecutor(1) as pool:
        got = pool.submit(_worksheets_across_a_kill, room).result(timeout=600)
    print(got)
    assert got["seed"] == "12", got
    assert "Build the class set (5 sheets, seeds 12 to 16)" in got["buttons"], got
    assert got["alerts"] == [] and got["errors"] == 0, got
