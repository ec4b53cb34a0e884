"""The Generate page's computation: a learner's prompt checked, SmolLM2 writing through the
shared queue one token at a time, and what the page keeps of it (``Written``) so that
changing the layer, the head or the token shown never writes again.

The steps' attention rows are kept for every layer and head (float32, 30 x 9 x n_new x T:
at most 64 x 320 numbers per head, 22 MB; 0.8 MB for the default prompt), and the prompt's
own rows when it has at most RUN_TOKENS tokens (10 MB at most). Those come with the first
step, from the writing process's own pass over the prompt: a pass of the server's for them
(``decoder_run``) cost about 0.1 s of the server's core per generation, and the server then
held the whole model too (bench/bench_load.py --generators 10: the other learners' p95 went
from 240 to 87 and 100 ms, the server's memory from 985 to 387 MiB; docs/class.md).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
import streamlit as st

from attn_core.pretrained.smollm import Step
from attn_ui.compute.decoder import (
    PROMPT_TOKENS,
    RUN_TOKENS,
    generation_queue,
    generation_worker,
    smollm,
)
from attn_ui.settings import MAX_PROMPT_CHARS, GenerationSettings

LIVE_CELLS = 128 * 128  # a bigger live triangle is redrawn every 8th token only


@dataclass(frozen=True, eq=False)
class Written:
    """A finished generation as the page keeps it.

    text : the prompt as the model read it (chat template included)
    ids, tokens : the whole sequence, prompt then new tokens
    n_prompt : how many of them are the prompt's
    prompt_rows : (n_layers, n_heads, n_prompt - 1, n_prompt - 1) the prompt's own rows but
           the last, or None (a prompt of one token, or of more than RUN_TOKENS)
    rows : (n_layers, n_heads, n_new, T - 1) row k is the attention of the query that chose
           new token k (the token before it), over keys 0..n_prompt + k - 1 (zeros after)
    top_ids, top_probs : (n_new, 5) the likeliest tokens at each step and their probabilities
    stopped : "eos" or "length"
    """

    settings: GenerationSettings
    text: str
    ids: np.ndarray
    tokens: tuple[str, ...]
    n_prompt: int
    prompt_rows: np.ndarray | None
    rows: np.ndarray
    top_ids: np.ndarray
    top_probs: np.ndarray
    stopped: str

    @property
    def n_new(self) -> int:
        return len(self.ids) - self.n_prompt

    @property
    def written(self) -> str:
        """The new tokens as text (the end token left out)."""
        new = self.ids[self.n_prompt :]
        if self.stopped == "eos":
            new = new[:-1]
        return smollm().decode(new)


def cut(prompt: str) -> tuple[str, bool]:
    """The prompt, cut to MAX_PROMPT_CHARS characters; and whether it was cut."""
    return prompt[:MAX_PROMPT_CHARS], len(prompt) > MAX_PROMPT_CHARS


def model_text(s: GenerationSettings) -> str:
    """The text the model reads, after the learner-readable checks (PromptError): the
    question on its own first in chat mode, so an empty question is not hidden by the
    template."""
    model = smollm()
    model.encode(s.prompt, limit=PROMPT_TOKENS)
    text = model.chat_prompt(s.prompt) if s.chat else s.prompt
    model.encode(text, limit=PROMPT_TOKENS)
    return text


def read_prompt(s: GenerationSettings) -> tuple[str, int]:
    """The text the model reads for `s` and its number of tokens (PromptError if it cannot)."""
    text = model_text(s)
    return text, len(smollm().encode(text, limit=PROMPT_TOKENS))


def stream(
    s: GenerationSettings, show_wait: Callable[[int], None]
) -> Iterator[tuple[str, int, Step]]:
    """Write with the shared queue: wait for the turn (``show_wait(ahead)`` while waiting),
    then yield ``(text, n_prompt, step)`` per token as it is written."""
    text, n_prompt = read_prompt(s)
    with generation_queue().turn() as wait:
        wait(show_wait)
        worker = generation_worker()  # its own process: see decoder_worker
        args = (text, s.max_new_tokens, s.temperature, s.seed, RUN_TOKENS)
        for step in worker.generate_steps(*args):
            yield text, n_prompt, step


def collect(s: GenerationSettings, text: str, n_prompt: int, steps: list[Step]) -> Written:
    """The steps of a finished generation, packed for the page."""
    model = smollm()
    new = np.array([step.id for step in steps], dtype=np.int64)
    ids = np.concatenate([model.encode(text, limit=PROMPT_TOKENS), new])
    n_layers, n_heads = steps[0].attention.shape[:2]
    rows = np.zeros((n_layers, n_heads, len(steps), len(ids) - 1), np.float32)
    for k, step in enumerate(steps):
        rows[:, :, k, : step.position] = step.attention
    stopped = "eos" if new[-1] == model.eos_id else "length"
    return Written(
        settings=s,
        text=text,
        ids=ids,
        tokens=model.token_labels(ids),
        n_prompt=n_prompt,
        prompt_rows=steps[0].prompt_rows,
        rows=rows,
        top_ids=np.stack([step.top_ids for step in steps]),
        top_probs=np.stack([step.top_probs for step in steps]),
        stopped=stopped,
    )


def stack_rows(
    before: np.ndarray | None, new: list[np.ndarray], first_new: int
) -> tuple[np.ndarray, int]:
    """One head's causal attention as a matrix, and the position of its first row: the
    prompt's rows `before` (P - 1, P - 1) when kept, then the new tokens' rows `new` (row k,
    the query at position first_new + k - 1, has first_new + k weights), all padded with
    zeros to the last row's width."""
    width = first_new + len(new) - 1
    rows = [] if before is None else [np.pad(r, (0, width - len(r))) for r in before]
    rows += [np.pad(r, (0, width - len(r))) for r in new]
    return np.array(rows, dtype=np.float32), 0 if before is not None else first_new - 1


def triangle(w: Written, layer: int, head: int) -> tuple[np.ndarray, int]:
    """`stack_rows` for a finished generation."""
    before = None if w.prompt_rows is None else w.prompt_rows[layer, head]
    new = [w.rows[layer, head, k, : w.n_prompt + k] for k in range(w.n_new)]
    return stack_rows(before, new, w.n_prompt)


def default_token(w: Written) -> int:
    """The new token shown first: the first one with a quote mark in it (the default prompt's
    closing quote), else the first."""
    new = w.tokens[w.n_prompt :]
    return next((k for k, t in enumerate(new) if '"' in t), 0)


class Finished:
    """The generations a first visit shows (the default, or a link's settings), shared by the
    sessions of the process: a learner opening the page reads them instead of queueing.
    At most `size`, the least recently used dropped first."""

    def __init__(self, size: int = 8):
        self.size = size
        self._lock = threading.Lock()
        self._items: OrderedDict[GenerationSettings, Written] = OrderedDict()

    def get(self, s: GenerationSettings) -> Written | None:
        with self._lock:
            if s in self._items:
                self._items.move_to_end(s)
            return self._items.get(s)

    def put(self, w: Written) -> None:
        with self._lock:
            self._items[w.settings] = w
            self._items.move_to_end(w.settings)
            while len(self._items) > self.size:
                self._items.popitem(last=False)


@st.cache_resource
def finished() -> Finished:
    """The one store of first-visit generations of this server process."""
    return Finished()


def warm_default() -> Written:
    """The default settings' text, written once in this process (not in the worker's: the
    server is not listening yet) and kept in `finished()`, so that a class's first learners
    on /Generate find it written instead of each waiting in line to write the same text.
    Called by serve.py with ATTN_WARM_MODELS=1; the same code and one BLAS thread as the
    worker, so the same tokens."""
    s = GenerationSettings()
    done = finished().get(s)
    if done is None:
        text, n_prompt = read_prompt(s)
        args = (text, s.max_new_tokens, s.temperature, s.seed, RUN_TOKENS)
        steps = list(smollm().generate_steps(*args))
        done = collect(s, text, n_prompt, steps)
        finished().put(done)
    return done
