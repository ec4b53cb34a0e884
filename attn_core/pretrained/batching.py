"""Continuous batching: the generations running at one moment share each decoding step.

Writing one token reads every weight of the model once (538 MB for SmolLM2) to multiply one
row. B learners writing one after another read them B times; decoded together, each step
multiplies a (B, d) block instead of a (1, d) row, and the weights are read once for
everyone. What stays each learner's own is what attention needs: their KV cache, so their
own length and positions, and the row that attends over it.

    step, for B sequences, one new token each:
    x = embed[ids]                                          (B, d_model)
    for each block:
        q, k, v = rope(rms_norm(x) w_q), rope(rms_norm(x) w_k), rms_norm(x) w_v
                                       each row rotated by its own position (its cache's length)
        for each sequence b:           its k, v appended to its cache; its one query row
            z_b = attention(q_b, K_b, V_b)      attends over its own past (no mask is needed:
                                                a last row sees every key before it)
        x = x + z w_o;  x = x + swiglu(rms_norm(x))        (B, d_model) at once
    logits = rms_norm(x) embed^T                            (B, vocab)

A learner joins between steps: their prompt is read alone (its first token comes from that
pass, as in ``SmolLM.generate_steps``), then their next token joins the next step. A learner
leaves when done (the end token or their length) or when they go. Each learner keeps their
own random generator, so a sampled text with its seed is the one they would write alone.
The numbers agree with writing alone to float32 rounding, not bit for bit: a matrix product
over B rows may sum in another order than over one (differences of about 1e-6 relative), so
a token could differ only where two candidates tie to that precision.
``tests/core/pretrained/test_batching.py`` checks the tokens against ``generate``.

This is the fast path of ``SmolLM.forward`` for one new token per sequence; the plain form
is ``forward`` itself, and the test ties the two.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np

from attn_core.attention import attend
from attn_core.multihead import merge_heads, split_heads
from attn_core.pretrained.smollm import (
    KVCache,
    SmolLM,
    Step,
    Writing,
    repeat_kv,
    rms_norm,
    rope,
    silu,
)


def forward_rows(
    model: SmolLM, ids: Sequence[int], caches: Sequence[KVCache]
) -> tuple[np.ndarray, list[np.ndarray]]:
    """One new token for each of B sequences, each read after its own cache, in one pass.

    Returns logits (B, vocab) and, per sequence, its new row's attention weights
    (n_layers, n_heads, its length + 1): what ``forward`` gives for one token, B at a time.
    """
    w, c = model.weights, model.config
    positions = np.array([cache.length for cache in caches])  # each row's own position
    x = np.asarray(w["embed"][np.asarray(ids)], dtype=np.float32)  # (B, d_model)
    rows: list[list[np.ndarray]] = [[] for _ in caches]
    for layer in range(model.n_layers):
        p = f"{layer}."
        h = rms_norm(x, w[p + "attn_norm"], c["rms_eps"])
        # split_heads reads the batch as its T axis: (heads, B, 64), row b at positions[b]
        q = rope(split_heads(h @ w[p + "w_q"], model.n_heads), positions, c["rope_base"])
        k = rope(split_heads(h @ w[p + "w_k"], model.n_kv_heads), positions, c["rope_base"])
        v = split_heads(h @ w[p + "w_v"], model.n_kv_heads)
        z = np.empty((len(caches), model.n_heads * model.head_dim), np.float32)
        for b, cache in enumerate(caches):  # attention: each sequence over its own cache
            keys, values = cache.store(layer, k[:, b : b + 1], v[:, b : b + 1])
            t = attend(
                q[:, b : b + 1], repeat_kv(keys, model.group), repeat_kv(values, model.group)
            )
            z[b] = merge_heads(t.output)[0]
            rows[b].append(t.weights[:, 0])  # (n_heads, length + 1)
        x = x + z @ w[p + "w_o"]
        h = rms_norm(x, w[p + "ffn_norm"], c["rms_eps"])
        x = x + (silu(h @ w[p + "w_gate"]) * (h @ w[p + "w_up"])) @ w[p + "w_down"]
    for cache in caches:
        cache.advance(1)
    logits = rms_norm(x, w["norm"], c["rms_eps"]) @ w["embed"].T  # (B, vocab)
    return logits, [np.stack(r) for r in rows]


class Batch:
    """The generations of one model running now, decoded together.

    >>> batch = Batch(model)
    >>> first = batch.join("a", "Once upon a time", 20)   # the prompt read alone
    >>> batch.step()                                       # {"a": Step}: one token each
    """

    def __init__(self, model: SmolLM):
        self.model = model
        self._writing: dict[Hashable, Writing] = {}

    def __len__(self) -> int:
        """The generations that will take part in the next step."""
        return sum(not w.done for w in self._writing.values())

    def join(
        self,
        key: Hashable,
        text: str,
        max_new_tokens: int,
        temperature: float = 0.0,
        seed: int = 0,
        keep_prompt_rows: int = 0,
    ) -> Step:
        """Read `text` alone and return its first new token (``SmolLM.start``, which also
        says what `keep_prompt_rows` keeps); the generation then takes part in every
        ``step`` until it is done or leaves."""
        if key in self._writing:
            raise ValueError(f"{key!r} is already writing in this batch.")
        w = self.model.start(text, max_new_tokens, temperature, seed, keep_prompt_rows)
        self._writing[key] = w
        return w.last

    def step(self) -> dict[Hashable, Step]:
        """One token for every generation not done, in one pass for all of them
        (``forward_rows``; each then chooses as ``SmolLM.next_step`` does). Returns each
        one's new step; a finished generation stays until it leaves."""
        keys = [k for k, w in self._writing.items() if not w.done]
        if not keys:
            return {}
        ws = [self._writing[k] for k in keys]
        logits, rows = forward_rows(self.model, [w.last.id for w in ws], [w.cache for w in ws])
        return {
            key: self.model.write(w, row_logits, attention)
            for key, w, row_logits, attention in zip(keys, ws, logits, rows, strict=True)
        }

    def done(self, key: Hashable) -> bool:
        """Whether `key`'s generation has written its last token."""
        return self._writing[key].done

    def leave(self, key: Hashable) -> None:
        """Drop `key`'s generation (finished, or its learner gone); its cache goes with it."""
        self._writing.pop(key, None)
