"""The decoder (SmolLM2): loaded once per server process and shared, its passes cached, and
one queue per process for the generations.

The generations run in one child process (``decoder_worker``), decoded together: each step
writes a token for every generation under way in one pass. Up to ``GENERATION_SLOTS`` share
the steps; more would make each step, and so each of them, slower than a learner will wait,
so the others wait in order and see their place.
"""

from __future__ import annotations

import itertools
import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import streamlit as st

from attn_core.pretrained import DecoderTrace, SmolLM
from attn_lessons.i18n import N_
from attn_ui.compute.model import Shown

RUN_TOKENS = 96  # a pass kept whole for the pages: attentions 30 x 9 x 96 x 96 x 4 B = 10 MB
PROMPT_TOKENS = 256  # a prompt to generate from (only the new rows are kept)
GENERATION_SLOTS = 8  # generations decoded together (bench/bench_batching.py)


@st.cache_resource(show_spinner=Shown(N_("Loading the decoder (once per server)...")))
def smollm() -> SmolLM:
    """SmolLM2-135M-Instruct, memory-mapped from the cache ``make`` built; never mutated."""
    from attn_core.pretrained import load_smollm

    return load_smollm()


# <= 12 MB each
@st.cache_data(max_entries=8, show_spinner=Shown(N_("Running SmolLM2 on your prompt...")))
def decoder_run(prompt: str) -> DecoderTrace:
    """Every block and head of SmolLM2 on `prompt` (at most RUN_TOKENS tokens). Raises the
    core's PromptError unchanged, for the page to show."""
    return smollm().run(prompt, limit=RUN_TOKENS)


class TurnQueue:
    """First come, first served, `slots` at a time, shared by every session of the process.

    >>> q = TurnQueue(slots=1)
    >>> with q.turn() as wait:
    ...     wait(lambda ahead: None)  # returns at once: nobody ahead
    """

    def __init__(self, slots: int = 1):
        self.slots = slots
        self._cv = threading.Condition()
        self._line: deque[int] = deque()  # tickets in arrival order; the first `slots` run
        self._tickets = itertools.count()

    def ahead(self, ticket: int) -> int:
        """How many must finish before `ticket` runs (0: it may run now)."""
        with self._cv:
            return max(0, self._line.index(ticket) - self.slots + 1)

    def __len__(self) -> int:
        with self._cv:
            return len(self._line)

    @contextmanager
    def turn(self, poll: float = 0.25) -> Iterator[Callable[[Callable[[int], None]], None]]:
        """Join the line; the body calls ``wait(show)`` to block until it may run, ``show``
        being called with the number ahead when someone leaves the line and at least every
        `poll` s. On a Streamlit page ``show`` draws into a placeholder, and drawing is where
        Streamlit stops the script of a learner who has left: so a learner who closes the
        tab while waiting leaves the line within `poll` s instead of holding a place.
        Leaves the line on exit, however the body ends (finished, an error, or Streamlit
        stopping the script)."""
        with self._cv:
            ticket = next(self._tickets)
            self._line.append(ticket)

        def wait(show: Callable[[int], None]) -> None:
            while True:
                with self._cv:
                    ahead = max(0, self._line.index(ticket) - self.slots + 1)
                if ahead == 0:
                    return
                show(ahead)  # outside the lock: it draws on the page, or finds it stopped
                with self._cv:
                    self._cv.wait(poll)  # woken when someone leaves, or after `poll` s

        try:
            yield wait
        finally:
            with self._cv:
                self._line.remove(ticket)
                self._cv.notify_all()


@st.cache_resource(show_spinner=False)
def generation_worker():
    """The process that runs this server's generations (``decoder_worker``)."""
    from attn_ui.compute.decoder_worker import DecoderWorker

    return DecoderWorker()


@st.cache_resource
def generation_queue() -> TurnQueue:
    """The one queue of this server process."""
    return TurnQueue(GENERATION_SLOTS)
