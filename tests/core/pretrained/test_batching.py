"""Continuous batching (attn_core/pretrained/batching.py) against writing alone: the batched
pass is the plain one-row pass B rows at a time, and every learner's text is the one
``generate`` writes for them, however the others join and leave."""

from __future__ import annotations

import numpy as np
import pytest

from attn_core.pretrained import load_smollm
from attn_core.pretrained.batching import Batch, forward_rows
from attn_core.pretrained.smollm import KVCache

PROMPTS = {  # different lengths, so different positions and caches in one step
    "a": ("The sky is", 0.0, 0),
    "b": ("Once upon a time, in a small village by the sea, there lived", 0.0, 0),
    "c": ("My favourite fruit is", 1.0, 7),  # sampled, with its seed
    "d": ("def add(a, b):\n    return", 0.8, 3),
}


@pytest.fixture(scope="module")
def model():
    return load_smollm()


def test_a_batched_pass_is_each_rows_own_pass(model):
    """forward_rows over three sequences of different lengths gives each row the logits and
    attention that the plain forward gives it alone."""
    texts = ["The sky is", "Once upon a time there", "Hello"]
    alone, together = [], []
    for text in texts:
        ids = model.encode(text)
        for caches in (alone, together):
            cache = KVCache.empty(model.config, len(ids) + 1)
            model.forward(ids, cache)
            caches.append(cache)
    new = [42, 1000, 7]
    logits, rows = forward_rows(model, new, together)
    for i, (token, cache) in enumerate(zip(new, alone, strict=True)):
        one, kept = model.forward(np.array([token]), cache, keep=True)
        np.testing.assert_allclose(logits[i], one[0], rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(rows[i], np.stack(kept["att"])[:, :, -1, :], atol=1e-5)
        assert together[i].length == cache.length
        np.testing.assert_allclose(together[i].keys, cache.keys, rtol=1e-5, atol=1e-5)


def test_learners_joining_and_leaving_write_what_they_would_alone(model):
    """Four learners, prompts of different lengths, joining at steps 0, 0, 3 and 6; one
    leaves in the middle. Each one's tokens are `generate`'s, greedy and sampled alike."""
    n_new = 12
    alone = {k: model.generate(*p[:1], n_new, *p[1:]).new_ids for k, p in PROMPTS.items()}
    batch, got, joins = Batch(model), {k: [] for k in PROMPTS}, {0: "ab", 3: "c", 6: "d"}
    writing, sizes = set(), []
    for step in range(40):
        for key in joins.get(step, ""):
            text, temp, seed = PROMPTS[key]
            got[key].append(batch.join(key, text, n_new, temp, seed).id)
            writing.add(key)
        if step == 5:  # "b" goes (the learner left the page): the others go on
            batch.leave("b")
            writing.discard("b")
        sizes.append(len(batch))
        for key, s in batch.step().items():
            got[key].append(s.id)
        for key in [k for k in writing if batch.done(k)]:  # done: they leave
            batch.leave(key)
            writing.discard(key)
    assert max(sizes) == 3  # three at once at the busiest step
    for key in "acd":
        assert got[key] == list(alone[key]), key
    assert got["b"] == list(alone["b"][: len(got["b"])]) and len(got["b"]) == 6  # cut at 5


def test_a_step_with_nobody_writing_is_empty_and_keys_are_one_each(model):
    batch = Batch(model)
    assert batch.step() == {} and len(batch) == 0
    batch.join("x", "Hi", 2)
    with pytest.raises(ValueError, match="already writing"):
        batch.join("x", "Hi", 2)
    assert len(batch.step()) == 1 and batch.done("x") and batch.step() == {}
