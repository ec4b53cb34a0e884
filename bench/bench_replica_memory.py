"""The memory one replica needs: what deploy/k8s/deployment.yaml's requests and limits rest on.

One replica as `make class` and the Docker image start it (``ATTN_WARM_MODELS=1``: both
models loaded before it listens), then, through Streamlit's websocket protocol:

1. after start (MiniLM and SmolLM2 loaded);
2. after 20 learners opened the lesson pages, the model explorer and the decoder pages;
3. after a generation of 64 tokens on /Generate (the writing process, a child of the server,
   memory-maps the same 538 MB weights file);
4. after 10 more generations with different prompts.

For the server and its writing process: VmRSS, RssAnon (its own memory) and RssFile (mapped
file pages, the weights: shared between the two, and with every replica on the machine), and
Pss from smaps_rollup (each shared page divided between the processes that map it). A
container's memory limit counts the anonymous memory of both and the mapped file once.

Run: `.venv/bin/python bench/bench_replica_memory.py` (about a minute).
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.support.server import load_1min, serving  # noqa: E402
from tests.support.wsclient import Session  # noqa: E402

PAGES = ("Overview", "Multi-head", "Model_explorer", "Causal_decoder", "Generate")


def status(pid: int) -> dict[str, float]:
    """VmRSS, RssAnon, RssFile (MiB) from /proc/<pid>/status and Pss from smaps_rollup."""
    found = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, rest = line.partition(":")
        if name in ("VmRSS", "RssAnon", "RssFile"):
            found[name] = int(rest.split()[0]) / 1024
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            found["Pss"] = int(line.split()[1]) / 1024
    return found


def children(pid: int) -> list[int]:
    kids = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        kids += [int(k) for k in (task / "children").read_text().split()]
    return kids


def report(label: str, pid: int) -> str:
    procs = [("server", pid)] + [("child", k) for k in children(pid)]
    parts, anon, file_max = [], 0.0, 0.0
    for name, p in procs:
        try:
            s = status(p)
        except FileNotFoundError:
            continue
        anon += s["RssAnon"]
        file_max = max(file_max, s["RssFile"])
        parts.append(
            f"{name} {p}: RSS {s['VmRSS']:.0f} anon {s['RssAnon']:.0f} file {s['RssFile']:.0f}"
            f" Pss {s['Pss']:.0f}"
        )
    return (
        f"{label}: " + "; ".join(parts) + f"  => anon total {anon:.0f} MiB + mapped file "
        f"{file_max:.0f} MiB = {anon + file_max:.0f} MiB  (load {load_1min():.2f})"
    )


async def main() -> None:
    os.environ["ATTN_WARM_MODELS"] = "1"  # as make class and the Docker image start it
    with serving() as (base, proc):
        print(report("1. started, models loaded", proc.pid), flush=True)
        sessions = [Session(base, PAGES[i % len(PAGES)]) for i in range(20)]
        for s in sessions:
            run = await s.connect()
            assert run.ok, (s.page, run.exceptions)
        print(report("2. 20 learners on 5 pages", proc.pid), flush=True)
        gen = next(s for s in sessions if s.page == "Generate")
        gen.stage("gen_max_new", 64)
        gen.stage("gen_prompt", "Once upon a time in a small village there lived")
        run = await gen.set("gen_go", True)
        assert run.ok, run.exceptions
        print(report("3. after a generation of 64 tokens", proc.pid), flush=True)
        for i in range(10):
            gen.stage("gen_prompt", f"Story number {i}: a teacher and a cat")
            assert (await gen.set("gen_go", True)).ok
        print(report("4. after 10 more generations", proc.pid), flush=True)
        await asyncio.gather(*(s.close() for s in sessions))


if __name__ == "__main__":
    asyncio.run(main())
