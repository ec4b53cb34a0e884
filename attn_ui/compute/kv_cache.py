"""The KV cache page's computation: the learner's prompt checked, one step through the cache
against a full pass (cached per prompt), the counts of attn_core.labs.kv_cache at every
context length, and the timing, measured inside the shared generation queue."""

from __future__ import annotations

import numpy as np
import streamlit as st

from attn_core.labs import kv_cache as kv
from attn_lessons.i18n import N_
from attn_ui import formats
from attn_ui.compute.decoder import PROMPT_TOKENS, generation_queue, smollm
from attn_ui.compute.model import Shown

# i18n: the model's input (SmolLM2 reads English), not words of the page: not translated
DEFAULT_PROMPT = (
    "The keys and values of every token are kept, so each new token reads them instead of "
    "computing them again."
)
FULL_CONTEXT = 8192  # the model's longest context
CONTEXTS = np.unique(np.geomspace(1, FULL_CONTEXT, 40).astype(int))


def sizes() -> kv.DecoderSizes:
    return kv.DecoderSizes.from_config(smollm().config)


@st.cache_data(max_entries=16, show_spinner=Shown(N_("Reading your prompt both ways...")))
def check(prompt: str) -> kv.CacheCheck:
    """One step through the cache against the whole sequence again (PromptError for a bad
    prompt, unchanged, for the page to show)."""
    model = smollm()
    return kv.check_cache(model, model.encode(prompt, limit=PROMPT_TOKENS))


def costs(t: int) -> dict[str, kv.StepCost]:
    """The step that reads the t-th token, with the cache and without."""
    s = sizes()
    return {"with": kv.step_cost(s, t, cached=True), "without": kv.step_cost(s, t, cached=False)}


def memory(s: kv.DecoderSizes) -> dict[str, str]:
    """The memory sentence's sizes (``formats.size``, the unit every page uses): the cache per
    token, at the full context, and the weights."""
    return {
        "per_token": formats.size(kv.cache_bytes(s, 1)),
        "full": formats.size(kv.cache_bytes(s, FULL_CONTEXT)),
        "weights": formats.size(kv.weight_bytes(s)),
    }


def curves() -> dict[str, np.ndarray]:
    """Counts against the context length: cache in MB (formats.MB), FLOPs per step each way."""
    s = sizes()
    return {
        "t": CONTEXTS,
        "cache_mb": np.array([kv.cache_bytes(s, int(t)) for t in CONTEXTS]) / formats.MB,
        "flops_with": np.array([kv.step_cost(s, int(t), cached=True).flops for t in CONTEXTS]),
        "flops_without": np.array([kv.step_cost(s, int(t), cached=False).flops for t in CONTEXTS]),
    }


def measure(ids: np.ndarray, show_wait, repeats: int = 3) -> kv.StepTiming:
    """Time one step each way, in turn with the other learners' generations."""
    with generation_queue().turn() as wait:
        wait(show_wait)
        return kv.time_step(smollm(), ids, repeats)
