"""A whole class at once: N learners on one server, typing sentences and moving sliders.

One `python serve.py app.py` (as `make run` starts it) on a free loopback port, started and
stopped here. Half the learners are on /Overview, half on /Multi-head. Each one, for a
bounded time, waits a think time (uniform 2 to 4 s, seeded), then types a new sentence or
moves the heads or temperature slider, and waits for the rerun to finish.

1. validation: the same interactions from headless Chromium and from the websocket client
   (tests/support/wsclient.py) give the same elements (decoded from the frames each one received);
2. browsers: a handful of Chromium contexts, keypress -> updated figure;
3. websocket learners for N = 1, 10, 50, 100: p50/p95 latency (rerun sent -> script
   finished), errors, server CPU and resident memory (from /proc); N = 1 clicks faster
   (see `active_phase`) so that its p95 is measured, not the largest of a dozen;
4. idle sessions: resident memory per extra open session;
5. with ``--generators K``: of each N learners, K are on /Generate and, every 2 to 4 s,
   submit a new prompt for SmolLM2 to continue (20 tokens, greedy). Generations take turns
   in the page's per-process queue; the figures are the other N - K learners' latencies,
   to be held against one learner alone, and the generators' own (queue wait included).

6. with ``--class``: 100 learners through HAProxy (`make class`, deploy/class_run.py) over 2
   and over 4 replicas: p50/p95, errors, how many sessions each replica got (HAProxy's
   cookie, read from the websocket handshake) and its CPU; then the same with replica r1
   killed (SIGKILL) at half time. Each learner reconnects as the browser does when its
   connection drops (the cookie, its page, the app's query string, its widget states) and
   redoes an interaction that was in flight; printed: how many learners lost their
   connection, how many had an interaction in flight (saw the "connecting" state), how long
   until each was served again, and how many sessions were lost (never served again, or
   served without the sentence they last typed). On a 2-core machine the figures show the balancer's
   overhead and fairness, not capacity.

7. with ``--app PATH``: each N's learners also on another app, started beside this one and
   run alternately with it (the same sentences and sliders; bench/bare_app.py is the
   yardstick: a text box, a slider, one 14 x 14 heatmap): the server CPU milliseconds per
   interaction of both and their ratio, which holds on a slower machine where times do not.

Run: `.venv/bin/python bench/bench_load.py` (about 6 minutes; `--quick` for a smoke run);
`.venv/bin/python bench/bench_load.py --class` (about 6 minutes; `--runs 2` repeats it).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from websockets.exceptions import ConnectionClosed  # noqa: E402

from bench.bench_app import FIGURE_ROWS  # noqa: E402
from tests.support.browser import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.support.server import cpu_seconds, load_1min, rss_mb, serving  # noqa: E402
from tests.support.wsclient import Decoder, Session  # noqa: E402

PAGES = ("Overview", "Multi-head")
CHARTS = ("plotly_chart", "bidi_component")  # Plotly figures; the overview's canvas grid
WORDS = (
    "the a cat dog bird sat ran flew on under over mat house tree river because when and "
    "small big red old young quick slow happy tired hungry home garden school city night "
    "morning rain sun friend teacher book letter music song water food bread milk"
).split()


def sentence(rng: random.Random) -> str:
    """6 to 14 common words: one WordPiece token each, so the tokens are the words."""
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 14)))


def action(rng: random.Random, s: Session | None = None) -> tuple[str, object]:
    """What a learner does next: type a sentence (half the time) or move a slider. A page
    without a heads slider (the overview on the real model's head) gets a sentence instead."""
    r = rng.random()
    if r < 0.5:
        return "lesson_w_sentence", sentence(rng)
    if r < 0.75:
        heads = rng.randint(1, 4)
        if s is None or "lesson_w_n_heads" in s.widgets:
            return "lesson_w_n_heads", heads
        return "lesson_w_sentence", sentence(rng)
    return "lesson_w_temperature", rng.choice([0.5, 1.0, 1.5, 2.0])


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def record(self, run) -> None:
        self.latencies.append(run.seconds)
        if not run.ok:
            self.errors.append(f"status {run.status} {run.exceptions[:1]}")


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] * 1000 if xs else float("nan")


# --- websocket learners ------------------------------------------------------------------


async def open_sessions(
    base: str, n: int, stats: Stats, generators: int = 0, pages: tuple[str, ...] = PAGES
) -> list[Session]:
    """n sessions, each with its first page run done; at most 5 connect at a time. The first
    `generators` of them open /Generate, the others `pages` in turn."""
    gate = asyncio.Semaphore(5)

    async def one(i: int) -> Session | None:
        async with gate:
            s = Session(base, "Generate" if i < generators else pages[i % len(pages)])
            try:
                run = await s.connect()
            except Exception as exc:  # noqa: BLE001 -- counted and reported, not hidden
                stats.errors.append(f"connect: {type(exc).__name__}: {exc}")
                return None
            if not run.ok:
                stats.errors.append(f"first run: status {run.status} {run.exceptions[:1]}")
            return s

    found = await asyncio.gather(*(one(i) for i in range(n)))
    return [s for s in found if s is not None]


async def learner(
    s: Session, seed: int, until: float, stats: Stats, think_s: tuple[float, float] = (2.0, 4.0)
) -> None:
    rng = random.Random(seed)
    while True:
        think = rng.uniform(*think_s)  # pacing of a learner, not synchronisation
        if time.monotonic() + think >= until:
            return
        await asyncio.sleep(think)
        key, value = action(rng, s)
        try:
            stats.record(await s.set(key, value))
        except Exception as exc:  # noqa: BLE001 -- counted and reported, not hidden
            stats.errors.append(f"{key}: {type(exc).__name__}: {exc}")
            return


async def generator(s: Session, seed: int, until: float, stats: Stats) -> None:
    """A learner on /Generate: a new prompt every 2 to 4 s, 20 tokens, greedy."""
    rng = random.Random(seed)
    s.stage("gen_max_new", 20)
    s.stage("gen_temperature", 0.0)
    while True:
        think = rng.uniform(2.0, 4.0)
        if time.monotonic() + think >= until:
            return
        await asyncio.sleep(think)
        s.stage("gen_prompt", sentence(rng))
        try:
            stats.record(await s.set("gen_go", True))
        except Exception as exc:  # noqa: BLE001 -- counted and reported, not hidden
            stats.errors.append(f"generate: {type(exc).__name__}: {exc}")
            return


@dataclass
class Phase:
    line: str  # what is printed
    cpu_ms: float  # the server's CPU milliseconds per interaction (generations included)
    p95_ms: float


async def active_phase(
    base: str, pid: int, n: int, seconds: float, generators: int = 0, pages=PAGES
) -> Phase:
    """N learners for `seconds`, `generators` of them writing with SmolLM2. One learner alone
    thinks 0.2 to 0.5 s instead of 2 to 4 s: the server is idle between its clicks either
    way, and the single-session p95 that the others are held against then rests on about
    100 interactions instead of a dozen."""
    stats, gen_stats = Stats(), Stats()
    sessions = await open_sessions(base, n, stats, generators, pages)
    cpu0, t0 = cpu_seconds(pid), time.monotonic()
    until = t0 + seconds
    think = (0.2, 0.5) if n == 1 else (2.0, 4.0)
    tasks = [
        generator(s, 1000 * n + i, until, gen_stats)
        if s.page == "Generate"
        else learner(s, 1000 * n + i, until, stats, think)
        for i, s in enumerate(sessions)
    ]
    await asyncio.wait_for(asyncio.gather(*tasks), seconds + 300)
    wall = time.monotonic() - t0
    cpu_s = cpu_seconds(pid) - cpu0
    cpu = cpu_s / wall * 100
    rss = rss_mb(pid)
    await asyncio.gather(*(s.close() for s in sessions))
    lat = stats.latencies
    per = 1000 * cpu_s / max(len(lat) + len(gen_stats.latencies), 1)
    line = (
        f"N={n:<4d} interactions {len(lat):4d}  p50 {pct(lat, 0.5):7.0f} ms  "
        f"p95 {pct(lat, 0.95):7.0f} ms  errors {len(stats.errors)}  "
        f"server CPU {cpu:5.0f}% of one core, {per:5.1f} ms per interaction  "
        f"RSS {rss:6.1f} MiB  load {load_1min():.2f}"
    )
    for e in stats.errors[:3]:
        line += f"\n        error: {e}"
    if generators:
        g = gen_stats.latencies
        line = line.replace(f"N={n:<4d}", f"N={n} ({generators} generating), the others:")
        line += (
            f"\n        generators: {len(g)} generations of 20 tokens, p50 {pct(g, 0.5):.0f} ms "
            f"p95 {pct(g, 0.95):.0f} ms (queue wait included), errors {len(gen_stats.errors)}"
        )
        for e in gen_stats.errors[:3]:
            line += f"\n        error: {e}"
    return Phase(line, per, pct(lat, 0.95))


async def idle_phase(base: str, pid: int, n: int) -> str:
    stats = Stats()
    warm = await open_sessions(base, 4, stats)  # caches filled, imports done
    before = await settled_rss(pid)
    sessions = await open_sessions(base, n, stats)
    after = await settled_rss(pid)
    await asyncio.gather(*(s.close() for s in warm + sessions))
    closed = await settled_rss(pid)
    per = (after - before) * 1024 / max(len(sessions), 1)
    return (
        f"idle: RSS {before:.1f} MiB -> {after:.1f} MiB with {len(sessions)} more open "
        f"sessions: {per:.0f} KiB per idle session; after closing all: {closed:.1f} MiB; "
        f"errors {len(stats.errors)}"
    )


async def settled_rss(pid: int, limit_s: float = 10) -> float:
    """RSS once two readings 1 s apart agree within 0.5 MiB (or after limit_s)."""
    last, deadline = rss_mb(pid), time.monotonic() + limit_s
    while time.monotonic() < deadline:
        await asyncio.sleep(1)
        now = rss_mb(pid)
        if abs(now - last) < 0.5:
            return now
        last = now
    return last


# --- the browser -------------------------------------------------------------------------

WAIT_TOKENS = f"""([words, i]) => {{
    const app = document.querySelector('[data-testid=stApp]');
    const rows = ({FIGURE_ROWS})()[i];
    return app && app.dataset.testScriptState === 'notRunning' && rows
        && rows.join(' ') === words;
}}"""
WAIT_HEADS = """(n) => {
    const app = document.querySelector('[data-testid=stApp]');
    return app && app.dataset.testScriptState === 'notRunning'
        && [...document.querySelectorAll('h3')].some(h => h.textContent.includes(n + ' heads'));
}"""


async def browser_open(browser, base: str, page: str, frames: list | None = None):
    ctx = await browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = await ctx.new_page()
    if frames is not None:
        pg.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(f)))
    await pg.goto(f"{base}/{page}")
    await pg.wait_for_function(WAIT_HEADS, arg=2, timeout=180_000)
    return ctx, pg


async def browser_type(pg, text: str) -> float:
    box = pg.get_by_role("textbox", name="Your sentence")
    await box.fill(text)
    t0 = time.perf_counter()
    await box.press("Enter")
    await pg.wait_for_function(WAIT_TOKENS, arg=[text, 0], timeout=120_000, polling=50)
    return time.perf_counter() - t0


async def browser_heads(pg, n: int, current: int) -> float:
    slider = pg.get_by_role("slider", name="heads")
    await slider.focus()
    t0 = time.perf_counter()
    for _ in range(abs(n - current)):
        await pg.keyboard.press("ArrowRight" if n > current else "ArrowLeft")
    await pg.wait_for_function(WAIT_HEADS, arg=n, timeout=120_000, polling=50)
    return time.perf_counter() - t0


async def browser_phase(base: str, n: int, rounds: int) -> str:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)

        async def one(i: int) -> list[float]:
            rng = random.Random(i)
            ctx, pg = await browser_open(browser, base, PAGES[i % 2])
            times, heads = [], 2
            for _ in range(rounds):
                times.append(await browser_type(pg, sentence(rng)))
                new = 3 if heads == 2 else 2
                times.append(await browser_heads(pg, new, heads))
                heads = new
            await ctx.close()
            return times

        lat = [t for ts in await asyncio.gather(*(one(i) for i in range(n))) for t in ts]
        await browser.close()
    return (
        f"browsers={n}  interactions {len(lat)}  keypress -> updated figure: "
        f"p50 {pct(lat, 0.5):.0f} ms  p95 {pct(lat, 0.95):.0f} ms  load {load_1min():.2f}"
    )


# --- validation: the browser and the client see the same elements -------------------------


async def validate(base: str, page: str) -> str:
    """Type a sentence, then move heads 2 -> 3, in Chromium and in the client; compare."""
    from playwright.async_api import async_playwright

    text = "the quick dog ran home because the cat sat"
    frames: list[bytes] = []
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        ctx, pg = await browser_open(browser, base, page, frames)
        await browser_type(pg, text)
        await browser_heads(pg, 3, 2)
        await ctx.close()  # after this, every frame has been delivered
        await browser.close()
    runs = browser_runs(frames)  # the page load, the sentence, the slider
    seen = runs[-2:]
    s = Session(base, page)
    await s.connect()
    mine = [(await s.set("lesson_w_sentence", text)).elements]
    mine.append((await s.set("lesson_w_n_heads", 3)).elements)
    await s.close()
    return f"validation {page} ({len(runs)} browser runs): " + "; ".join(
        compare(name, a, b) for name, a, b in zip(("sentence", "heads"), seen, mine, strict=True)
    )


def browser_runs(frames: list[bytes]) -> list[dict]:
    """The elements of every run the browser saw finish, in order."""
    dec, runs = Decoder(), []
    for f in frames:
        done = dec.feed(f)
        if done is not None:
            runs.append(done[1])
    return runs


def compare(name: str, seen: dict, mine: dict) -> str:
    same = sum(
        1
        for path, el in mine.items()
        if path in seen
        and seen[path].SerializeToString(deterministic=True)
        == el.SerializeToString(deterministic=True)
    )
    charts = sum(1 for e in mine.values() if e.WhichOneof("type") in CHARTS)
    return (
        f"{name}: {same}/{len(mine)} client elements byte-identical to the browser's "
        f"({len(seen)} in the browser run, {charts} charts)"
    )


# --- a class: replicas behind HAProxy ------------------------------------------------------


@dataclass
class Rejoin:
    """One learner's connection across a replica's loss."""

    lost_at: float | None = None  # when its websocket closed
    served_at: float | None = None  # when the page ran again after reconnecting
    in_flight: bool = False  # an interaction was under way when the connection dropped
    sentence: str | None = None  # the last sentence the learner typed
    kept: bool = True  # the reconnected page ran, and its URL mirror holds that sentence
    failed: str = ""  # why it never came back


async def rejoin(s: Session, r: Rejoin, until: float) -> None:
    """What the browser does when its websocket closes: reconnect at once, then every 0.2 s
    (its back-off starts shorter than that), until the page runs again."""
    r.lost_at = r.lost_at or time.monotonic()
    while time.monotonic() < until + 30:
        try:
            run = await s.connect()
        except Exception as exc:  # noqa: BLE001 -- retried, and reported if it never comes back
            r.failed = f"{type(exc).__name__}: {exc}"
            await asyncio.sleep(0.2)
            continue
        r.served_at, r.failed = time.monotonic(), ""
        shown = parse_qs(s.decoder.query_string).get("sentence", [None])[0]
        r.kept = run.ok and (r.sentence is None or shown == r.sentence)
        return
    r.failed = r.failed or "not served again"


async def class_learner(s: Session, seed: int, until: float, stats: Stats, r: Rejoin) -> None:
    """A learner (as `learner`) whose connection may drop: it reconnects in the background as
    soon as its websocket closes, and an interaction in flight is redone once it is back."""
    rng = random.Random(seed)

    async def watcher() -> None:  # cancelled when the learner is done, before we close
        await s.ws.wait_closed()
        r.lost_at = time.monotonic()
        await rejoin(s, r, until)

    guard = asyncio.create_task(watcher())
    try:
        await _class_actions(s, rng, until, stats, r, guard)
    finally:
        guard.cancel()


async def _class_actions(s, rng, until, stats, r: Rejoin, guard: asyncio.Task) -> None:
    while True:
        think = rng.uniform(2.0, 4.0)
        if time.monotonic() + think >= until:
            break
        await asyncio.sleep(think)
        key, value = action(rng, s)
        if r.lost_at is not None and r.served_at is None:
            await guard  # reconnecting: the browser shows "connecting" until it is back
            if r.served_at is None:
                stats.errors.append(f"never served again: {r.failed}")
                return
        if key == "lesson_w_sentence":
            r.sentence = value
        try:
            stats.record(await s.set(key, value))
        except (ConnectionClosed, OSError) as exc:  # the connection dropped under this one
            r.in_flight = True
            await guard
            if r.served_at is None:
                stats.errors.append(f"{key}: {type(exc).__name__}: {exc} (never served again)")
                return
            stats.record(await s.set(key, value))  # the learner does it again


async def class_phase(room, n: int, seconds: float, kill_at: float | None) -> str:
    from deploy.class_run import COOKIE

    stats = Stats()
    sessions = await open_sessions(room.url, n, stats)
    per = {r.name: 0 for r in room.servers}
    for s in sessions:
        per[s.cookies.get(COOKIE, "?")] = per.get(s.cookies.get(COOKIE, "?"), 0) + 1
    alive = [r for r in room.servers if r.proc.poll() is None]
    cpu0 = {r.name: cpu_seconds(r.pid) for r in alive}
    rejoins = [Rejoin() for _ in sessions]
    t0 = time.monotonic()
    until = t0 + seconds
    tasks = [
        asyncio.create_task(class_learner(s, 7000 + i, until, stats, rj))
        for i, (s, rj) in enumerate(zip(sessions, rejoins, strict=True))
    ]
    killed = ""
    if kill_at is not None:
        await asyncio.sleep(kill_at)
        victim = room.servers[0]
        cpu_victim = cpu_seconds(victim.pid) - cpu0.pop(victim.name)
        room.kill(0)
        killed = f", {victim.name} killed at {kill_at:.0f} s (its CPU {cpu_victim:.1f} s)"
    await asyncio.wait_for(asyncio.gather(*tasks), seconds + 300)
    wall = time.monotonic() - t0
    cpus = {
        k: (cpu_seconds(r.pid) - v) / wall * 100
        for r in room.servers
        for k, v in cpu0.items()
        if r.name == k
    }
    await asyncio.gather(*(s.close() for s in sessions))
    lat = stats.latencies
    line = (
        f"replicas={len(room.servers)} N={n}{killed}: interactions {len(lat)}  "
        f"p50 {pct(lat, 0.5):.0f} ms  p95 {pct(lat, 0.95):.0f} ms  errors {len(stats.errors)}  "
        f"load {load_1min():.2f}\n        sessions per replica (HAProxy cookie): "
        + ", ".join(f"{k} {v}" for k, v in per.items())
        + "; CPU % of a core: "
        + ", ".join(f"{k} {v:.0f}" for k, v in cpus.items())
    )
    hit = [r for r in rejoins if r.lost_at is not None]
    if kill_at is not None:
        back = [r.served_at - r.lost_at for r in hit if r.served_at is not None]
        lost = [r for r in hit if r.served_at is None or not r.kept]
        line += (
            f"\n        connection lost: {len(hit)} learners; interaction in flight: "
            f"{sum(r.in_flight for r in hit)}; served again: {len(back)}, after "
            f"p50 {pct(back, 0.5) / 1000:.2f} s  max {max(back, default=float('nan')):.2f} s; "
            f"lost sessions: {len(lost)}"
        )
        for r in lost[:3]:
            line += f"\n        lost: {r}"
    for e in stats.errors[:3]:
        line += f"\n        error: {e}"
    return line


async def class_main(replicas: list[int], n: int, seconds: float, runs: int) -> None:
    from deploy.class_run import Classroom
    from tests.support.server import free_port

    print(f"a class through HAProxy; machine: {os.cpu_count()} cores, load {load_1min():.2f}")
    for run in range(runs):
        for r in replicas:
            with Classroom(replicas=r, port=free_port(), bind="127.0.0.1") as room:
                print(f"run {run + 1}: {r} replicas up; load {load_1min():.2f}", flush=True)
                print(await class_phase(room, n, seconds, None), flush=True)
                print(await class_phase(room, n, seconds, seconds / 2), flush=True)


# --- main ----------------------------------------------------------------------------------


async def main(
    quick: bool, ns: list[int] | None, browsers: bool, generators: int = 0, app: str | None = None
) -> None:
    """The phases on the app; with `app`, each N's learners also on that app (its own server,
    started beside this one), alternately, and the ratio of server CPU per interaction."""
    seconds = 10 if quick else 40
    with contextlib.ExitStack() as stack:
        base, proc = stack.enter_context(serving())
        print(f"server pid {proc.pid} on {base}; load {load_1min():.2f}", flush=True)
        if app:
            other, other_proc = stack.enter_context(serving(script=app))
            print(f"{app}: server pid {other_proc.pid} on {other}", flush=True)
        for page in PAGES if browsers else ():
            print(await validate(base, page), flush=True)
        for n in ((1,) if quick else (1, 3)) if browsers else ():
            print(await browser_phase(base, n, 2 if quick else 4), flush=True)
        for n in ns or ((1, 10) if quick else (1, 10, 50, 100)):
            ours = await active_phase(base, proc.pid, n, seconds)
            print(ours.line, flush=True)
            if app:
                bare = await active_phase(other, other_proc.pid, n, seconds, pages=("",))
                print(f"{app}: {bare.line}", flush=True)
                print(
                    f"        server CPU per interaction, this app / {app}: "
                    f"{ours.cpu_ms:.1f} / {bare.cpu_ms:.1f} ms = {ours.cpu_ms / bare.cpu_ms:.2f}x; "
                    f"p95 {ours.p95_ms:.0f} / {bare.p95_ms:.0f} ms",
                    flush=True,
                )
            if generators and n > generators:
                phase = await active_phase(base, proc.pid, n, seconds, generators)
                print(phase.line, flush=True)
        print(await idle_phase(base, proc.pid, 10 if quick else 100), flush=True)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small N and short phases")
    ap.add_argument("--n", type=int, nargs="*", help="only these N (default 1 10 50 100)")
    ap.add_argument("--no-browser", action="store_true", help="skip validation and browsers")
    ap.add_argument(
        "--generators", type=int, default=0, help="also run each N with this many on /Generate"
    )
    ap.add_argument(
        "--app", help="also run each N on this app, in the same run (bench/bare_app.py)"
    )
    ap.add_argument("--class", dest="klass", action="store_true", help="through HAProxy (6.)")
    ap.add_argument("--replicas", type=int, nargs="*", default=[2, 4], help="with --class")
    ap.add_argument("--runs", type=int, default=1, help="with --class: repeat the whole run")
    a = ap.parse_args()
    if a.klass:
        seconds = 10 if a.quick else 40
        asyncio.run(class_main(a.replicas, (a.n or [100])[0], seconds, a.runs))
    else:
        asyncio.run(main(a.quick, a.n, not a.no_browser, a.generators, a.app))
