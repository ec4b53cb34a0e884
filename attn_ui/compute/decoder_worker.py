"""Generations in a process of their own, decoded together, so a writing learner never slows
the others and ten writing learners do not wait for each other.

A generation is about 40 numpy calls per block, 30 blocks per token: between the matrix
products, each holds Python's global interpreter lock. In the server's process that lock is
also what every other learner's rerun needs, so one learner generating made the other 49
wait (bench/bench_load.py --generators 10). Here the model runs in a child process (spawned,
not forked: the server has threads) that memory-maps the same cache, so the weights' pages
are shared, not copied.

The child decodes every generation under way together (``attn_core.pretrained.batching``):
each step is one pass for all of them, the weights read once; a new request is read alone
and joins the next step; a cancelled one (a learner who navigates away) leaves before it.
Page threads send requests over one pipe and a reader thread hands each reply to the
request it answers. Each step says how many generations shared it and what it took
(``Shared``), for the KV cache page.

If the child dies (killed, out of memory), every request in flight raises
``GenerationInterrupted`` and the next one starts a new child.

A spawned child first imports the parent's ``__main__`` module. Under Streamlit that is not
the server's entry point but the page script running at that moment (Streamlit installs
each script as ``sys.modules["__main__"]`` while it runs), so the child would run a page
without a server, one that may itself write (and spawn) or wait. `_spawn` hands the child
an empty ``__main__`` instead: the child imports only what `_work` needs.
"""

from __future__ import annotations

import itertools
import multiprocessing as mp
import queue
import sys
import threading
import time
import types
from collections.abc import Iterator
from dataclasses import dataclass

from attn_core.pretrained.smollm import Step
from attn_lessons.i18n import _

REPLY_TIMEOUT_S = 120.0  # a step never takes this long; a child that says nothing is lost


class GenerationInterrupted(RuntimeError):
    """The generating process stopped mid-way; the message is for the learner."""


@dataclass(frozen=True)
class Shared:
    """One decoding step of the child: how many generations it wrote a token for, and the
    milliseconds it took (a prompt's own pass, which writes a first token, is not a step)."""

    together: int
    ms: float


def _work(conn) -> None:
    """The child: one model, every generation under way decoded together (a batch), new
    requests read between steps, a cancel honoured before the next step."""
    from attn_core.pretrained import load_smollm
    from attn_core.pretrained.batching import Batch

    batch = Batch(load_smollm())
    writing: set[int] = set()
    while True:
        try:
            while conn.poll() or not writing:  # wait only when nobody is writing
                msg = conn.recv()
                if msg[0] == "cancel":
                    batch.leave(msg[1])
                    writing.discard(msg[1])
                    continue
                _kind, rid, args = msg
                try:
                    first = batch.join(rid, *args)
                except Exception as err:  # noqa: BLE001 -- sent back and raised in the server
                    conn.send((rid, "error", err))  # (a PromptError becomes the page's message)
                    continue
                writing.add(rid)
                _send(conn, batch, writing, {rid: first}, None)  # a prompt's pass: no step
            t0 = time.perf_counter()
            steps = batch.step()
            _send(conn, batch, writing, steps, Shared(len(steps), _ms(t0)))
        except (EOFError, OSError):  # the server closed the pipe: it is gone
            return


def _ms(t0: float) -> float:
    return 1000 * (time.perf_counter() - t0)


def _send(conn, batch, writing: set[int], steps: dict, shared: Shared | None) -> None:
    """Each step to its request, then "done" for those that wrote their last token."""
    for rid, step in steps.items():
        conn.send((rid, "step", (step, shared)))
        if batch.done(rid):
            conn.send((rid, "done", None))
            batch.leave(rid)
            writing.discard(rid)


_MAIN = threading.Lock()  # one spawn at a time swaps __main__


def _spawn(ctx, target, args):
    """``ctx.Process(target, args)`` started with an empty ``__main__`` (no file, no spec:
    multiprocessing then imports no main module in the child), the real one put back after.
    Streamlit itself swaps ``__main__`` only when a script starts, which reads nothing back."""
    with _MAIN:
        main = sys.modules["__main__"]
        sys.modules["__main__"] = types.ModuleType("__main__")
        try:
            proc = ctx.Process(target=target, args=args, daemon=True, name="generate")
            proc.start()
        finally:
            sys.modules["__main__"] = main
    return proc


class DecoderWorker:
    """The child process, the pipe to it and the thread that reads its replies; any number
    of requests at once, each reading its own replies."""

    def __init__(self) -> None:
        self._ctx = mp.get_context("spawn")
        self._lock = threading.Lock()  # one sender at a time, and the child's start
        self._ids = itertools.count()
        self._proc = None
        self._conn = None
        self._replies: dict[int, queue.SimpleQueue] = {}
        self.last: Shared | None = None  # the child's latest step
        self.alone: Shared | None = None  # its latest step that wrote for one generation

    def _ensure(self) -> None:
        if self._proc is None or not self._proc.is_alive():
            parent, child = self._ctx.Pipe()
            proc = _spawn(self._ctx, _work, (child,))
            child.close()
            self._proc, self._conn = proc, parent
            threading.Thread(target=self._read, args=(parent,), daemon=True).start()

    def _read(self, conn) -> None:
        """Hand each reply to its request; when the child is gone, tell every request."""
        try:
            while True:
                rid, kind, payload = conn.recv()
                if kind == "step":
                    payload, shared = payload
                    if shared is not None:
                        self.last = shared
                        if shared.together == 1:
                            self.alone = shared
                reply = self._replies.get(rid)
                if reply is not None:  # else the rest of a cancelled request
                    reply.put((kind, payload))
        except (EOFError, OSError):
            for reply in list(self._replies.values()):
                reply.put(("gone", None))

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    def generate_steps(
        self,
        text: str,
        max_new_tokens: int,
        temperature: float = 0.0,
        seed: int = 0,
        keep_prompt_rows: int = 0,
    ) -> Iterator[Step]:
        """``SmolLM.generate_steps``, computed in the child with whoever else is writing;
        the same tokens, as written. The first step carries the prompt's rows when it has 2
        to `keep_prompt_rows` tokens (``SmolLM.start``): the server needs no pass of its own."""
        reply: queue.SimpleQueue = queue.SimpleQueue()
        with self._lock:
            self._ensure()
            rid = next(self._ids)
            self._replies[rid] = reply
            conn = self._conn
            args = (text, max_new_tokens, temperature, seed, keep_prompt_rows)
            conn.send(("generate", rid, args))
        finished = False
        try:
            while True:
                try:
                    kind, payload = reply.get(timeout=REPLY_TIMEOUT_S)
                except queue.Empty:
                    kind = "gone"
                if kind == "gone":
                    finished = True
                    with self._lock:
                        if self._conn is conn:
                            self._proc = None
                    raise GenerationInterrupted(
                        _(
                            "The model's process stopped while writing (the server may be "
                            "short of memory). Press Write again to start over."
                        )
                    )
                if kind == "error":
                    finished = True
                    raise payload
                if kind == "done":
                    finished = True
                    return
                yield payload
        finally:
            self._replies.pop(rid, None)
            if not finished:  # the learner left mid-way: the child drops it before its next step
                try:
                    with self._lock:
                        conn.send(("cancel", rid))
                except (OSError, ValueError):
                    pass

    def close(self) -> None:
        if self._proc is not None and self._proc.is_alive():
            self._proc.kill()
            self._proc.join(5)
        self._proc = None
