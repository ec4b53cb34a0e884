"""A class on two replicas behind HAProxy (`make class REPLICAS=2`, deploy/class_run.py):
learners pinned to the replicas by HAProxy's cookie; one replica is restarted in place (as a
rolling update does), then one is killed under four people at once: a learner in a class, a
learner on the other replica, a teacher with a class set of worksheets built and a learner
mid-way through a generation. Every one carries on with their own sentence and settings (the
URL mirror restores the page on the live replica), and nobody sees an error."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from attn_class import open_store
from attn_lessons import inventory
from attn_ui.settings import DEFAULT_NEW_TOKENS
from deploy.class_run import COOKIE, Classroom
from tests.support.browser import AFTER, CHROMIUM, SHOWS, STATE, TEST_ARGS, until, wait_idle
from tests.support.postgres import postgres
from tests.support.server import ROOT, free_port

SENTENCES = ("the dog ran home", "a small bird sat on the tree")
HAD = f"""([n, words]) => {{ const s = ({AFTER})();
    return s && (s.heads.includes(n + ' heads') || s.sentence !== words || s.alerts.length)
        ? s : null; }}"""
ERRORS = "() => document.querySelectorAll('[data-testid=stException]').length"
IDLE = """() => { const a = document.querySelector('[data-testid=stApp]');
    return a && a.dataset.testScriptState === 'notRunning'
        && a.dataset.testConnectionState === 'CONNECTED'; }"""
BUTTONS = "() => [...document.querySelectorAll('button')].map(b => b.innerText).join(' | ')"
CAPTIONS = """() => [...document.querySelectorAll('[data-testid=stCaptionContainer]')]
    .map(c => c.innerText).join(' | ')"""
PROMPT = "Once upon a time in a small village there lived"


@pytest.fixture(scope="module")
def room(tmp_path_factory):
    """Two replicas, HAProxy and PostgreSQL on free loopback ports, as `make class REPLICAS=2`
    starts them; one room for the file (the restart, then the kill)."""
    with postgres() as server:
        url = server.database("failover")
        log_dir = tmp_path_factory.mktemp("room")
        with Classroom(
            replicas=2, port=free_port(), bind="127.0.0.1", log_dir=log_dir, database=url
        ) as r:
            yield r


def _browse(fn, *args):
    """`fn(browser, *args)` in a thread of its own (the sync API refuses to run where an
    asyncio loop is already running), with one headless Chromium."""

    def run():
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=TEST_ARGS)
            try:
                return fn(browser, *args)
            finally:
                browser.close()

    with ThreadPoolExecutor(1) as pool:
        got = pool.submit(run).result(timeout=600)
    print(got)
    return got


def _pinned(browser, room: Classroom, replica: str):
    """A browser of its own whose HAProxy cookie names `replica`, as after a first visit."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    ctx.add_cookies([{"name": COOKIE, "value": replica, "url": room.url}])
    return ctx


def _replica(ctx) -> str:
    (value,) = [c["value"] for c in ctx.cookies() if c["name"] == COOKIE]
    return value


def _learner(ctx, base: str, sentence: str):
    """The overview with random weights (its heads slider), the learner's sentence typed,
    the heads moved 2 -> 3 (a setting to keep)."""
    pg = ctx.new_page()
    pg.goto(f"{base}/Overview?weights=random")
    box = pg.get_by_role("textbox", name="Your sentence")
    box.wait_for(timeout=120_000)
    box.fill(sentence)
    box.press("Enter")
    until(pg, SHOWS, arg=[sentence, "CONNECTED"], timeout=120_000)
    _move_heads(pg, 3, sentence)
    return pg


def _move_heads(pg, n: int, sentence: str) -> dict:
    """Press → on the heads slider; what the page shows once that rerun has finished."""
    slider = pg.get_by_role("slider", name="heads")
    slider.focus()
    pg.keyboard.press("ArrowRight")
    return until(pg, HAD, arg=[n, sentence], timeout=120_000).json_value()


def _carry_on(learners: list) -> dict:
    """Both learners move the heads slider 3 -> 4: what each sees, their errors, replicas."""
    seen = [_move_heads(pg, 4, s) for (_, pg), s in zip(learners, SENTENCES, strict=True)]
    errors = [pg.evaluate(ERRORS) for _, pg in learners]
    return {"seen": seen, "errors": errors, "after": [_replica(ctx) for ctx, _ in learners]}


def _both_carry_on(got: dict) -> None:
    for s, seen, errors in zip(SENTENCES, got["seen"], got["errors"], strict=True):
        assert seen["sentence"] == s and seen["rows"] == s, seen  # their own sentence
        assert "4 heads" in seen["heads"], seen  # 3 heads kept, and the move counted
        assert seen["alerts"] == [] and errors == 0, (seen, errors)


# --- a rolling update's step ---------------------------------------------------------------


def _restarted(browser, room: Classroom) -> dict:
    ctxs = [_pinned(browser, room, r.name) for r in room.servers]
    learners = [(ctx, _learner(ctx, room.url, s)) for ctx, s in zip(ctxs, SENTENCES, strict=True)]
    pg0 = learners[0][1]
    with pg0.expect_websocket(timeout=120_000):  # the browser reconnects on its own
        room.restart(0)
    until(pg0, f"() => ({STATE})() === 'CONNECTED'", timeout=120_000)
    return _carry_on(learners)


def test_a_replica_restarted_in_place_loses_no_learner(room):
    """The replica is stopped gracefully and a new one starts on its port; its learner is
    served by whichever replica is up when the browser reconnects."""
    got = _browse(_restarted, room)
    assert got["after"][1] == "r2", got  # the other learner stayed put
    _both_carry_on(got)


# --- a kill under four people ----------------------------------------------------------------


def _inventory(ctx, base: str, form: str) -> None:
    """In a tab of the learner's browser: one form of the concept inventory answered (the
    first option each time) until the page confirms it is saved."""
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


def _join(ctx, base: str, code: str) -> None:
    tab = ctx.new_page()
    tab.goto(f"{base}/Join?code={code}")
    tab.get_by_label("Nickname", exact=True).fill("Ada")
    tab.get_by_role("button", name="Join the class").click()
    tab.get_by_text("as Ada.").wait_for(timeout=120_000)
    tab.close()


def _class_set(ctx, base: str):
    """A teacher sets a worksheet (seed 12) and a class set of 5, and builds it."""
    pg = ctx.new_page()
    pg.goto(f"{base}/Worksheets")
    until(pg, IDLE, timeout=180_000)
    for name, value in (("Seed", "12"), ("Sheets in the class set", "5")):
        box = pg.get_by_role("spinbutton", name=name)
        box.fill(value)
        box.press("Enter")
        until(pg, f"() => ({BUTTONS})().includes('seeds 12 to')", timeout=60_000)
    until(pg, f"() => ({BUTTONS})().includes('5 sheets')", timeout=60_000)
    pg.get_by_role("button", name="Build the class set").click()
    until(pg, f"() => ({BUTTONS})().includes('Class set ZIP')", timeout=120_000)
    return pg


def _writing(ctx, base: str):
    """A learner presses Enter on a prompt of /Generate; returns once a few tokens are
    written (the replica is mid-way)."""
    pg = ctx.new_page()
    pg.goto(f"{base}/Generate")  # the default text: written by the warm start
    until(pg, IDLE, timeout=180_000)
    box = pg.get_by_role("textbox", name="Prompt (press Enter to write)")
    box.fill(PROMPT)
    box.press("Enter")
    until(pg, f"() => /Writing: ([3-9]|\\d\\d+) token/.test(({CAPTIONS})())", timeout=120_000)
    return pg


def _killed(browser, room: Classroom, code: str) -> dict:
    """Learner Ada (in the class, the inventory's first form sent), a teacher's class set
    and a generation under way, all on r1; another learner on r2. r1 is killed."""
    r1, r2 = (r.name for r in room.servers)
    ada, other, teacher, writer = (_pinned(browser, room, r) for r in (r1, r2, r1, r1))
    learners = [(ada, _learner(ada, room.url, SENTENCES[0]))]
    learners.append((other, _learner(other, room.url, SENTENCES[1])))
    _join(ada, room.url, code)
    _inventory(ada, room.url, "pre")
    sheets = _class_set(teacher, room.url)
    gen = _writing(writer, room.url)
    with gen.expect_websocket(timeout=120_000):  # the browser reconnects on its own
        room.kill(room.replica_of(r1))

    # the generation: reported cut off on the live replica, not restarted behind its back
    until(
        gen,
        "() => [...document.querySelectorAll('[data-testid=stAlert]')]"
        ".some(a => a.innerText.includes('cut off'))",
        timeout=120_000,
    )
    until(gen, IDLE, timeout=120_000)
    box = gen.get_by_role("textbox", name="Prompt (press Enter to write)")
    generation = {"prompt": box.input_value(), "captions": gen.evaluate(CAPTIONS), "url": gen.url}
    # the worksheets: the page ran again on the live replica, the ZIP (in r1's memory) gone
    until(sheets, f"() => ({IDLE})() && !({BUTTONS})().includes('Class set ZIP')", timeout=120_000)
    worksheets = {
        "seed": sheets.get_by_role("spinbutton", name="Seed").input_value(),
        "buttons": sheets.evaluate(BUTTONS),
        "alerts": sheets.locator("[data-testid=stAlert]").all_inner_texts(),
        "replica": _replica(teacher),
    }
    # the learners carry on, and Ada's next form is stored for the same learner
    until(learners[0][1], f"() => ({STATE})() === 'CONNECTED'", timeout=120_000)
    got = _carry_on(learners)
    _inventory(ada, room.url, "post")

    # one click each writes the text and builds the class set again
    gen.get_by_role("button", name="Write it again").click()
    sheets.get_by_role("button", name="Build the class set").click()
    until(
        gen,
        f"() => ({CAPTIONS})().includes('{DEFAULT_NEW_TOKENS} token(s) written')",
        timeout=180_000,
    )
    generation["alerts_after"] = gen.locator("[data-testid=stAlert]").all_inner_texts()
    generation["errors"] = gen.evaluate(ERRORS)
    until(sheets, f"() => ({BUTTONS})().includes('Class set ZIP')", timeout=120_000)
    worksheets["errors"] = sheets.evaluate(ERRORS)
    return {**got, "generation": generation, "worksheets": worksheets}


@pytest.fixture(scope="module")
def killed(room):
    """The class, then the kill (once for the file: the tests below read what it left)."""
    store = open_store(room.database_url)
    new = store.create_class("Failover")
    got = _browse(_killed, room, new.code)
    got["roster"] = store.summary(new.code, new.teacher_key).roster
    store.close()
    return got


def test_a_killed_replicas_learner_moves_to_the_live_one(killed):
    """... and keeps their class: the answers confirmed on the killed replica are stored,
    and the learner's next form, on the live one, is stored for the same learner."""
    assert killed["after"] == ["r2", "r2"], killed  # Ada now holds the live replica's cookie
    _both_carry_on(killed)
    n = len(inventory.items("pre"))
    got = [(r.nickname, r.answers, r.pre is not None, r.post is not None) for r in killed["roster"]]
    assert got == [("Ada", 2 * n, True, True)]


def test_a_generation_on_a_killed_replica_is_reported_and_written_again_in_one_click(killed):
    got = killed["generation"]
    assert got["prompt"] == PROMPT, got  # the prompt kept
    assert "Writing" not in got["captions"], got  # not restarted behind their back
    assert "writing=1" not in got["url"], got
    assert got["alerts_after"] == [] and got["errors"] == 0, got


def test_worksheet_settings_survive_a_killed_replica(killed):
    """The settings come back with the page (the browser re-sends its widget values); the
    finished ZIP lived in the dead replica's memory: one click builds it again."""
    got = killed["worksheets"]
    assert got["replica"] == "r2", got
    assert got["seed"] == "12", got
    assert "Build the class set (5 sheets, seeds 12 to 16)" in got["buttons"], got
    assert got["alerts"] == [] and got["errors"] == 0, got


# --- stopping -------------------------------------------------------------------------------


def test_ctrl_c_and_sigterm_stop_the_replicas_and_haproxy(tmp_path):
    """`make class` in a terminal: Ctrl+C (SIGINT) or a `kill` (SIGTERM) of the launcher
    stops every process it started: the replica, PostgreSQL and HAProxy (two launchers at
    once, one signal each)."""
    # One started after the other has bound its ports: started together, a launcher's
    # HAProxy once found its free port taken by the other's servers. Each has a data folder
    # of its own (data/postgres is one launcher's).
    launchers = {}
    for sig in (signal.SIGINT, signal.SIGTERM):
        launcher = _start(tmp_path / sig.name)
        launchers[sig] = (launcher, _pids(launcher))
    for sig, (launcher, pids) in launchers.items():
        assert len(pids) == 3, (sig, pids)
        assert all(_alive(p) for p in pids), sig
        launcher.send_signal(sig)
    for sig, (launcher, pids) in launchers.items():
        assert launcher.wait(timeout=60) == 0, sig
        assert "stopping the class" in launcher.stdout.read(), sig
        assert not any(_alive(p) for p in pids), (sig, pids)


def _start(log_dir: Path) -> subprocess.Popen:
    """`deploy/class_run.py` with one replica, as `make class` runs it, with a data folder
    of its own in this run's (tests/conftest.py: PostgreSQL's user reaches it; tmp_path
    only root may enter)."""
    data = tempfile.mkdtemp(prefix="launcher-", dir=os.environ["ATTN_DATA_DIR"])
    os.chmod(data, 0o755)
    cmd = [sys.executable, "deploy/class_run.py", "--replicas", "1", "--port", str(free_port())]
    cmd += ["--bind", "127.0.0.1", "--log-dir", str(log_dir)]
    # cold replicas: stopping is the point here, and each warm start loads both models and
    # writes Generate's default text (a few seconds of CPU)
    env = {**os.environ, "ATTN_DATA_DIR": data, "ATTN_WARM_MODELS": "0"}
    return subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)


def _pids(launcher: subprocess.Popen) -> list[int]:
    """The pids the launcher prints, HAProxy's last: read until that one."""
    pids = []
    for line in launcher.stdout:
        pids += [int(w) for w in re.findall(r"pid (\d+)", line)]
        if "HAProxy pid" in line:
            break
    return pids


def _alive(pid: int) -> bool:
    """Running (a zombie left for its parent to collect counts as stopped)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"
