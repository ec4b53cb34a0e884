"""Generations in a process of their own, so a writing learner never slows the others.

A generation is about 40 numpy calls per block, 30 blocks per token: between the matrix
products, each holds Python's global interpreter lock. In the server's process that lock is
also what every other learner's rerun needs, so one learner generating made the other 49
wait (bench/bench_load.py --generators 10). Here the model runs in a child process (spawned,
not forked: the server has threads) that memory-maps the same cache, so the weights' pages
are shared, not copied. The page thread sends a request and reads the steps back as they
are written; leaving early (a learner who navigates away) sends a cancel, and the child
stops at the next token.

If the child dies (killed, out of memory), the request in flight raises
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
import sys
import threading
import types
from collections.abc import Iterator

from attn_core.pretrained.smollm import Step

REPLY_TIMEOUT_S = 120.0  # a step never takes this long; a child that says nothing is lost


class GenerationInterrupted(RuntimeError):
    """The generating process stopped mid-way; the message is for the learner."""


def _work(conn) -> None:
    """The child: one model, requests one at a time, a cancel honoured between tokens."""
    from attn_core.pretrained import load_smollm

    model = load_smollm()
    waiting = []
    while True:
        try:
            msg = waiting.pop(0) if waiting else conn.recv()
        except (EOFError, OSError):  # the server closed the pipe: it is gone
            return
        if msg[0] != "generate":
            continue  # a cancel for a request already finished
        _, rid, args = msg
        try:
            for step in model.generate_steps(*args):
                conn.send((rid, "step", step))
                if conn.poll():  # a cancel, or (after a cancel) the next request
                    nxt = conn.recv()
                    if nxt[0] == "generate":
                        waiting.append(nxt)
                    break
            else:
                conn.send((rid, "done", None))
        except Exception as err:  # noqa: BLE001 -- sent back and raised in the server
            conn.send((rid, "error", err))  # (a prompt's PromptError becomes the page's message)


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
    """The child process and the pipe to it; one request at a time."""

    def __init__(self) -> None:
        self._ctx = mp.get_context("spawn")
        self._lock = threading.Lock()
        self._ids = itertools.count()
        self._proc = None
        self._conn = None

    def _ensure(self) -> None:
        if self._proc is None or not self._proc.is_alive():
            parent, child = self._ctx.Pipe()
            proc = _spawn(self._ctx, _work, (child,))
            child.close()
            self._proc, self._conn = proc, parent

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    def generate_steps(
        self, text: str, max_new_tokens: int, temperature: float = 0.0, seed: int = 0
    ) -> Iterator[Step]:
        """``SmolLM.generate_steps``, computed in the child; the same steps, as written."""
        with self._lock:
            self._ensure()
            rid = next(self._ids)
            self._conn.send(("generate", rid, (text, max_new_tokens, temperature, seed)))
            finished = False
            try:
                while True:
                    if not self._conn.poll(REPLY_TIMEOUT_S):
                        raise EOFError
                    got, kind, payload = self._conn.recv()
                    if got != rid:
                        continue  # the rest of a cancelled request
                    if kind == "error":
                        finished = True
                        raise payload
                    if kind == "done":
                        finished = True
                        return
                    yield payload
            except (EOFError, OSError, ConnectionError):
                finished = True
                self._proc = None
                raise GenerationInterrupted(
                    "The model's process stopped while writing (the server may be short of "
                    "memory). Press Write again to start over."
                ) from None
            finally:
                if not finished:  # the learner left mid-way: stop the child's loop
                    try:
                        self._conn.send(("cancel", rid))
                    except (OSError, ValueError):
                        self._proc = None

    def close(self) -> None:
        if self._proc is not None and self._proc.is_alive():
            self._proc.kill()
            self._proc.join(5)
        self._proc = None
