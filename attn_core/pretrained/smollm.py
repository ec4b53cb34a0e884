"""A real decoder in NumPy: SmolLM2-135M-Instruct (a 30-block Llama), run with the lesson's own
``attention`` and ``causal_mask``, writing one token at a time through a KV cache.

x_0 = embed[ids]                                              (T, d_model = 576)
for each of the 30 blocks:
    h = rms_norm(x) * g_attn
    q = rope(h w_q)   k = rope(h w_k)   v = h w_v           9 query heads, 3 K/V heads, 64 dims
    z = attention(q, repeat_kv(k), repeat_kv(v), mask=causal)   each K/V head serves 3 query heads
    x = x + concat(z) w_o
    h = rms_norm(x) * g_ffn
    x = x + (silu(h w_gate) * (h w_up)) w_down                 SwiGLU feed-forward, 1536 wide
logits = (rms_norm(x) * g) embed^T                             (T, 49152): tied weights

What a decoder adds to the lessons' attention:

- **the causal mask**: token i sees tokens 0..i only, so the model can be trained to predict
  token i + 1 at every position at once, and so nothing written later changes what came before;
- **the KV cache**: because of that mask, the keys and values of the tokens already read never
  change. Writing one more token needs one new query row, and one new key and value row per
  layer appended to the cache: not the whole sequence again;
- **grouped-query attention (GQA)**: 9 query heads share 3 key/value heads (3 each), so the cache
  holds a third of what 9 full heads would;
- **rotary positions (RoPE)**: no position vector is added to x. Each query and key is rotated,
  pair of dimensions by pair, by an angle proportional to its position, so q_m . k_n depends on
  the positions only through m - n.

Weights are float32 memory maps in the ``x @ W`` layout, made once by ``smollm_files`` from the
GGUF file. Computation is float32, the model's own precision.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from attn_core.attention import attend
from attn_core.errors import AttentionInputError, whole_number
from attn_core.masks import causal_mask
from attn_core.multihead import merge_heads, split_heads
from attn_core.pretrained import smollm_files
from attn_core.pretrained.byte_tokens import piece_labels, vocab_bytes

if TYPE_CHECKING:
    from collections.abc import Iterator

    from tokenizers import Tokenizer

SYSTEM_PROMPT = "You are a helpful AI assistant named SmolLM, trained by Hugging Face"


class PromptError(AttentionInputError):
    """A prompt the model cannot run; the message is shown to the learner as is."""


# --- the pieces of one block ------------------------------------------------------------------


def rms_norm(x: np.ndarray, gain: np.ndarray, eps: float) -> np.ndarray:
    """x / sqrt(mean(x^2) + eps) * gain, row by row: LayerNorm without the mean or a bias."""
    mean_square = np.mean(x * x, axis=-1, keepdims=True)  # (T, 1)
    return x / np.sqrt(mean_square + np.float32(eps)) * gain  # (T, d) / (T, 1) * (d,)


def silu(x: np.ndarray) -> np.ndarray:
    """x * sigmoid(x), the gate of the SwiGLU feed-forward."""
    return x / (1 + np.exp(-x))


def rope_angles(positions: np.ndarray, head_dim: int, base: float) -> np.ndarray:
    """theta[t, i] = position_t * base^(-2i / head_dim): pair i of a head turns by theta[t, i].

    Pair 0 turns by a whole radian per position, the last pair by about 1/base: fast
    dimensions tell near positions apart, slow ones far ones. Returns (T, head_dim / 2).
    """
    inv_freq = base ** (-np.arange(0, head_dim, 2, dtype=np.float64) / head_dim)  # (hd/2,)
    return np.outer(positions, inv_freq)  # (T, hd/2)


def rope(x: np.ndarray, positions: np.ndarray, base: float) -> np.ndarray:
    """Rotate each adjacent pair (x_2i, x_2i+1) of every head vector by its angle.

    (x_2i, x_2i+1) -> (x_2i cos - x_2i+1 sin,  x_2i sin + x_2i+1 cos)

    Rotating q at position m and k at position n leaves q . k depending on n - m only: a
    rotation by m then the inverse rotation by n is one rotation by m - n.

    Parameters
    ----------
    x : (heads, T, head_dim)
    positions : (T,) int
    """
    theta = rope_angles(positions, x.shape[-1], base)  # (T, hd/2)
    cos, sin = np.cos(theta).astype(x.dtype), np.sin(theta).astype(x.dtype)
    even, odd = x[..., 0::2], x[..., 1::2]  # (heads, T, hd/2) each
    out = np.empty_like(x)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out


def repeat_kv(kv: np.ndarray, group: int) -> np.ndarray:
    """(kv_heads, T, d) -> (kv_heads * group, T, d): K/V head g serves query heads
    g*group .. g*group + group - 1 (SmolLM2: heads 0-2 read K/V head 0, 3-5 head 1, 6-8 head 2)."""
    return np.repeat(kv, group, axis=0)


# --- the KV cache -----------------------------------------------------------------------------


@dataclass(eq=False)
class KVCache:
    """The keys and values of every token read so far, per layer (after RoPE).

    keys, values : (n_layers, n_kv_heads, capacity, head_dim); rows ``0:length`` are filled.
    Queries are not stored: a token's query is used once, when that token is read.
    """

    keys: np.ndarray
    values: np.ndarray
    length: int = 0

    @classmethod
    def empty(cls, config: dict[str, Any], capacity: int) -> KVCache:
        shape = (config["n_layers"], config["n_kv_heads"], capacity, config["head_dim"])
        return cls(np.zeros(shape, np.float32), np.zeros(shape, np.float32))

    @property
    def capacity(self) -> int:
        return self.keys.shape[2]

    @property
    def nbytes(self) -> int:
        """Bytes the filled part takes: 2 (K and V) x layers x kv_heads x length x head_dim x 4."""
        per_row = 2 * self.keys.shape[0] * self.keys.shape[1] * self.keys.shape[3] * 4
        return per_row * self.length

    def store(self, layer: int, k: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Append this pass's rows at ``length`` for `layer`; return that layer's keys and
        values so far (views, ``length + new`` rows). ``advance`` moves ``length`` after the
        last layer."""
        new = k.shape[1]
        end = self.length + new
        if end > self.capacity:
            raise PromptError.said(
                "the cache holds {capacity} tokens; this pass needs {end}.",
                capacity=self.capacity,
                end=end,
            )
        self.keys[layer, :, self.length : end] = k
        self.values[layer, :, self.length : end] = v
        return self.keys[layer, :, :end], self.values[layer, :, :end]

    def advance(self, new: int) -> None:
        self.length += new


# --- what a pass keeps ------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class DecoderTrace:
    """One pass of a prompt through the model; pages read these and never recompute.

    Attributes
    ----------
    text : str                  the prompt as given
    ids : (T,) int              token ids (no BOS: the file says add_bos = false)
    tokens : tuple of T str     each token's label (" cat", "\\n"; a piece of a character
                                shows the whole character: "爱…", "…爱", see ``token_labels``)
    logits : (T, vocab)         row t scores the token after token t
    attentions : (n_layers, n_heads, T, T)   the 9 query heads' weights; rows sum to 1 over
                                keys 0..t, and are 0 right of the diagonal (the causal mask)
    queries : (n_layers, n_heads, T, head_dim)     after RoPE
    keys, values : (n_layers, n_kv_heads, T, head_dim)   keys after RoPE: what a cache stores
    queries_unrotated, keys_unrotated : the same before RoPE (for the RoPE page)
    hidden_states : (n_layers + 1, T, d_model)     [0] the embeddings, [l + 1] block l's output
    """

    text: str
    ids: np.ndarray
    tokens: tuple[str, ...]
    logits: np.ndarray
    attentions: np.ndarray
    queries: np.ndarray
    keys: np.ndarray
    values: np.ndarray
    queries_unrotated: np.ndarray
    keys_unrotated: np.ndarray
    hidden_states: np.ndarray

    @property
    def n_tokens(self) -> int:
        return len(self.ids)

    def next_token_probabilities(self) -> np.ndarray:
        """softmax of the last row of logits: the model's distribution for the next token."""
        return _softmax64(self.logits[-1])


@dataclass(frozen=True, eq=False)
class Step:
    """One token written by ``generate``.

    id, token : the token chosen
    position : its position in the whole sequence (prompt tokens are 0..P-1)
    attention : (n_layers, n_heads, position) the weights of the query row that chose it:
                the row of the token before, over keys 0..position-1
    top_ids, top_probs : the five likeliest next tokens at that step and their probabilities
                (after the temperature; greedy uses temperature 1 for these)
    prompt_rows : on the first step only, when asked for (``SmolLM.start``): (n_layers,
                n_heads, P - 1, P - 1) the prompt's own attention rows but the last (that
                one is this step's `attention`), from the same pass; else None
    """

    id: int
    token: str
    position: int
    attention: np.ndarray
    top_ids: np.ndarray
    top_probs: np.ndarray
    prompt_rows: np.ndarray | None = None


@dataclass(frozen=True, eq=False)
class Generation:
    """A prompt and what the model wrote after it.

    ids, tokens : the whole sequence, prompt then new tokens (as ``transformers``' generate)
    prompt_ids : the prompt's ids;  new_ids : the new ones (``ids[len(prompt_ids):]``)
    text : the text written (the new tokens decoded);  prompt : the prompt as given
    steps : one ``Step`` per new token
    stopped : "eos" if the model wrote its end token (kept in ids, not in text), else "length"
    cache_bytes : what the KV cache held at the end
    """

    prompt: str
    ids: np.ndarray
    tokens: tuple[str, ...]
    prompt_ids: np.ndarray
    new_ids: np.ndarray
    text: str
    steps: tuple[Step, ...]
    stopped: str
    cache_bytes: int = 0

    @property
    def new_tokens(self) -> tuple[str, ...]:
        return self.tokens[len(self.prompt_ids) :]


@dataclass(eq=False)
class Writing:
    """A generation under way (``SmolLM.start``): its KV cache, its random generator and
    temperature, how many tokens it may still write, and the step it wrote last."""

    cache: KVCache
    rng: np.random.Generator
    temperature: float
    left: int  # tokens still to write, the last one included until it is chosen
    last: Step | None

    @property
    def done(self) -> bool:
        """The end token written, or as many tokens as asked."""
        return self.left == 0


def choose(
    logits: np.ndarray, temperature: float, rng: np.random.Generator
) -> tuple[int, np.ndarray, np.ndarray]:
    """The next token from one row of logits: the likeliest (temperature 0), or drawn from
    softmax(logits / temperature) with `rng`. Returns (token id, the five likeliest ids,
    their probabilities after the temperature; greedy reports temperature 1's)."""
    probs = _softmax64(logits / (temperature or 1.0))
    greedy = temperature == 0.0
    choice = int(np.argmax(logits)) if greedy else int(rng.choice(len(probs), p=probs))
    return choice, *top_five(probs)


def top_five(probs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The five likeliest ids, likeliest first (ties: the lower id first), and their
    probabilities: ``np.argsort(-probs, kind="stable")[:5]`` without sorting all 49,152
    (the sort took 4 ms of a 42 ms token). Every id at least as likely as the fifth is a
    candidate, and the candidates are sorted the same way."""
    k = min(5, len(probs))
    fifth = np.partition(probs, len(probs) - k)[len(probs) - k]
    candidates = np.flatnonzero(probs >= fifth)
    top = candidates[np.argsort(-probs[candidates], kind="stable")[:k]]
    return top, probs[top]


def _softmax64(logits: np.ndarray) -> np.ndarray:
    z = logits.astype(np.float64)
    e = np.exp(z - z.max())
    return e / e.sum()


# --- the model --------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class SmolLM:
    """SmolLM2-135M-Instruct: config (from the GGUF metadata), weights (read-only float32 memory
    maps by name: ``embed``, ``norm``, ``{layer}.w_q`` ...), and its byte-level BPE tokenizer."""

    config: dict[str, Any]
    weights: dict[str, np.ndarray]
    tokenizer: Tokenizer
    max_prompt_tokens: int = 512  # what the app allows; the model itself reads 8,192
    special_ids: frozenset[int] = field(default_factory=frozenset)

    # sizes, by their names in the lesson
    @property
    def n_layers(self) -> int:
        return self.config["n_layers"]

    @property
    def n_heads(self) -> int:
        return self.config["n_heads"]

    @property
    def n_kv_heads(self) -> int:
        return self.config["n_kv_heads"]

    @property
    def head_dim(self) -> int:
        return self.config["head_dim"]

    @property
    def group(self) -> int:
        """Query heads per K/V head (9 / 3 = 3)."""
        return self.n_heads // self.n_kv_heads

    @property
    def eos_id(self) -> int:
        return self.config["eos_id"]

    # text <-> ids

    def chat_prompt(self, question: str, system: str | None = SYSTEM_PROMPT) -> str:
        """The model's chat template around one user message, ready for the answer."""
        head = f"<|im_start|>system\n{system}<|im_end|>\n" if system else ""
        return f"{head}<|im_start|>user\n{question}<|im_end|>\n<|im_start|>assistant\n"

    def token_text(self, i: int) -> str:
        """One token's own text (" cat"; a special token as itself)."""
        return self.tokenizer.decode([int(i)], skip_special_tokens=False)

    def token_bytes(self, i: int) -> bytes:
        """The UTF-8 bytes token `i` adds to the text: b" cat", or a piece of a character
        (b"\\xe7" of "爱"); a special token's own text."""
        if int(i) not in self.special_ids:
            piece = vocab_bytes(self.tokenizer.id_to_token(int(i)))
            if piece is not None:
                return piece
        return self.token_text(i).encode("utf-8")

    def token_labels(self, ids) -> tuple[str, ...]:
        """A label per token of `ids`, read in order: its text (" cat"), or for a piece of a
        character that character with "…" where its other pieces lie ("爱…", "…爱…", "…爱"),
        where `token_text` would show "\\ufffd" (``byte_tokens``)."""
        return tuple(piece_labels([self.token_bytes(i) for i in ids]))

    def next_labels(self, ids, candidates) -> tuple[str, ...]:
        """The label of each candidate token as read right after `ids` (its last three tokens
        suffice: a character is at most four bytes)."""
        tail = [self.token_bytes(i) for i in list(ids)[-3:]]
        return tuple(piece_labels([*tail, self.token_bytes(c)])[-1] for c in candidates)

    def decode(self, ids) -> str:
        return self.tokenizer.decode([int(i) for i in ids], skip_special_tokens=False)

    def encode(self, text: str, *, limit: int | None = None) -> np.ndarray:
        """The prompt's ids, after the checks a learner's input needs (clear messages)."""
        limit = self.max_prompt_tokens if limit is None else limit
        if not isinstance(text, str) or not text.strip():
            raise PromptError.said("Type a prompt: there is nothing to continue.")
        bad = sorted({c for c in text if _is_control(c)})
        if bad:
            names = ", ".join(f"U+{ord(c):04X}" for c in bad[:5])
            raise PromptError.said(
                "The prompt has control characters ({names}); remove them. Line breaks and "
                "tabs are fine.",
                names=names,
            )
        ids = np.array(self.tokenizer.encode(text).ids, dtype=np.int64)
        if len(ids) > limit:
            raise PromptError.said(
                "The prompt is {tokens} tokens; at most {limit} are allowed here. Shorten it.",
                tokens=len(ids),
                limit=limit,
            )
        if ids.size and all(int(i) in self.special_ids for i in ids):
            raise PromptError.said(
                "The prompt is only special tokens (such as <|im_start|>); add some words "
                "for the model to read."
            )
        return ids

    # the forward pass

    def forward(
        self, ids: np.ndarray, cache: KVCache, *, keep: bool = False, last_logits: bool = False
    ):
        """Read `ids` after the ``cache.length`` tokens already in `cache`; fill the cache.

        Returns (logits (T_new, vocab), kept) where `kept` is a dict of per-layer arrays if
        `keep` (attentions, queries, keys, values, unrotated, hidden states), else None.
        `last_logits` scores only the last row (logits (1, vocab)): all a generation needs
        from its prompt, and the output head is the largest matrix (49,152 x 576).
        """
        w, c = self.weights, self.config
        past, new = cache.length, len(ids)
        positions = np.arange(past, past + new)
        # the causal mask's rows for the new tokens: query at position p sees keys 0..p
        mask = causal_mask(past + new)[past:]  # (T_new, T_total)
        x = np.asarray(w["embed"][ids], dtype=np.float32)  # (T_new, d_model)
        kept = {k: [] for k in ("att", "q", "k", "v", "q0", "k0", "h")} if keep else None
        if keep:
            kept["h"].append(x)
        for layer in range(self.n_layers):
            p = f"{layer}."
            # attention half
            h = rms_norm(x, w[p + "attn_norm"], c["rms_eps"])
            q0 = split_heads(h @ w[p + "w_q"], self.n_heads)  # (9, T_new, 64)
            k0 = split_heads(h @ w[p + "w_k"], self.n_kv_heads)  # (3, T_new, 64)
            v = split_heads(h @ w[p + "w_v"], self.n_kv_heads)  # (3, T_new, 64)
            q = rope(q0, positions, c["rope_base"])
            k = rope(k0, positions, c["rope_base"])
            keys, values = cache.store(layer, k, v)  # (3, T_total, 64): the past and the new
            t = attend(
                q,
                repeat_kv(keys, self.group),  # (9, T_total, 64)
                repeat_kv(values, self.group),
                mask=mask,
            )
            z = merge_heads(t.output)  # (9, T_new, 64) -> (T_new, 9 * 64)
            x = x + z @ w[p + "w_o"]
            # feed-forward half
            h = rms_norm(x, w[p + "ffn_norm"], c["rms_eps"])
            x = x + (silu(h @ w[p + "w_gate"]) * (h @ w[p + "w_up"])) @ w[p + "w_down"]
            if keep:
                for key, value in (("att", t.weights), ("q", q), ("k", k), ("v", v)):
                    kept[key].append(value)
                kept["q0"].append(q0)
                kept["k0"].append(k0)
                kept["h"].append(x)
        cache.advance(new)
        if last_logits:
            x = x[-1:]
        logits = rms_norm(x, w["norm"], c["rms_eps"]) @ w["embed"].T  # (T_new, vocab)
        return logits, kept

    def run(self, text: str, *, limit: int | None = None) -> DecoderTrace:
        """The whole prompt in one pass, every intermediate kept.

        `limit` caps the prompt's tokens (default ``max_prompt_tokens``): the attentions alone
        take 30 x 9 x T x T x 4 bytes, 18 MB at 128 tokens and 283 MB at 512.
        """
        ids = self.encode(text, limit=limit)
        cache = KVCache.empty(self.config, len(ids))
        logits, kept = self.forward(ids, cache, keep=True)
        return DecoderTrace(
            text=text,
            ids=ids,
            tokens=self.token_labels(ids),
            logits=logits,
            attentions=np.stack(kept["att"]),
            queries=np.stack(kept["q"]),
            keys=np.stack(kept["k"]),
            values=np.stack(kept["v"]),
            queries_unrotated=np.stack(kept["q0"]),
            keys_unrotated=np.stack(kept["k0"]),
            hidden_states=np.stack(kept["h"]),
        )

    def start(
        self,
        text: str,
        max_new_tokens: int,
        temperature: float = 0.0,
        seed: int = 0,
        keep_prompt_rows: int = 0,
    ) -> Writing:
        """A generation's checks and its prompt's pass: the prompt read into a new cache, and
        the first new token chosen from its last row (``Writing.last``). A prompt of 2 to
        `keep_prompt_rows` tokens keeps its other rows in that first step (``Step.prompt_rows``:
        the numbers ``run`` gives, without a second pass)."""
        max_new = whole_number(max_new_tokens, "max_new_tokens", 1, error=PromptError)
        temperature = _temperature(temperature)
        prompt = self.encode(text)
        cache = KVCache.empty(self.config, len(prompt) + max_new)
        w = Writing(cache, np.random.default_rng(seed), temperature, max_new, None)
        logits, kept = self.forward(prompt, cache, keep=True, last_logits=True)  # the prompt
        att = np.stack(kept["att"])  # (L, 9, P, P)
        rows = att[:, :, :-1, :-1].copy() if 2 <= len(prompt) <= keep_prompt_rows else None
        self.write(w, logits[-1], att[:, :, -1, :], rows)  # its last row chose
        return w

    def next_step(self, w: Writing) -> Step:
        """One more token for `w`: its last token read through its cache, the next chosen."""
        logits, kept = self.forward(np.array([w.last.id]), w.cache, keep=True)  # one row
        return self.write(w, logits[-1], np.stack(kept["att"])[:, :, -1, :])

    def write(
        self,
        w: Writing,
        logits: np.ndarray,
        attention: np.ndarray,
        prompt_rows: np.ndarray | None = None,
    ) -> Step:
        """Choose `w`'s next token from its row of `logits` (the row's `attention`, (L, 9,
        length)), and make it `w.last`. ``next_step`` and a batched step both end here."""
        choice, top, top_probs = choose(logits, w.temperature, w.rng)
        token = self.token_text(choice)
        w.last = Step(choice, token, w.cache.length, attention, top, top_probs, prompt_rows)
        w.left = 0 if choice == self.eos_id else w.left - 1
        return w.last

    def generate_steps(
        self,
        text: str,
        max_new_tokens: int,
        temperature: float = 0.0,
        seed: int = 0,
        keep_prompt_rows: int = 0,
    ) -> Iterator[Step]:
        """``generate``, one ``Step`` at a time, as each token is written (for streaming);
        `keep_prompt_rows` as in ``start``."""
        w = self.start(text, max_new_tokens, temperature, seed, keep_prompt_rows)
        yield w.last
        while not w.done:
            yield self.next_step(w)

    def generate(
        self,
        text: str,
        max_new_tokens: int,
        temperature: float = 0.0,
        seed: int = 0,
    ) -> Generation:
        """Write up to `max_new_tokens` after `text`, one token per pass through the KV cache.

        temperature 0 is greedy (the likeliest token each time); above 0, tokens are drawn
        from softmax(logits / temperature) with a generator seeded by `seed`. Stops early at
        the end token ``<|im_end|>``.
        """
        prompt = self.encode(text)
        steps = tuple(self.generate_steps(text, max_new_tokens, temperature, seed))
        new = np.array([s.id for s in steps], dtype=np.int64)
        ids = np.concatenate([prompt, new])
        stopped = "eos" if len(new) and new[-1] == self.eos_id else "length"
        written = new[:-1] if stopped == "eos" else new
        return Generation(
            prompt=text,
            ids=ids,
            tokens=self.token_labels(ids),
            prompt_ids=prompt,
            new_ids=new,
            text=self.tokenizer.decode([int(i) for i in written], skip_special_tokens=False),
            steps=steps,
            stopped=stopped,
            cache_bytes=self.kv_cache_bytes(len(ids) - 1),  # the last token is never read
        )

    def kv_cache_bytes(self, n_tokens: int, *, kv_heads: int | None = None) -> int:
        """Bytes of float32 K and V for `n_tokens` tokens: 2 x layers x heads x T x head_dim x 4."""
        heads = self.n_kv_heads if kv_heads is None else kv_heads
        return 2 * self.n_layers * heads * int(n_tokens) * self.head_dim * 4


def _is_control(c: str) -> bool:
    """A control character (a bell, an escape, a NUL) or a lone surrogate; line breaks and
    tabs are text, and so are format characters such as the zero-width joiner of emoji."""
    return c not in "\n\t\r" and unicodedata.category(c) in ("Cc", "Cs")


def _temperature(t) -> float:
    try:
        t = float(t)
    except (TypeError, ValueError):
        raise PromptError.said(
            "temperature must be a number; got {temperature}.", temperature=repr(t)
        ) from None
    if not math.isfinite(t) or t < 0:
        raise PromptError.said(
            "temperature must be 0 (greedy) or more; got {temperature}.", temperature=repr(t)
        )
    return t


@lru_cache(maxsize=2)
def _load(cache: Path) -> SmolLM:
    config, weights, tokenizer = smollm_files.load_cache(cache)
    added = tokenizer.get_added_tokens_decoder()  # {id: AddedToken}
    specials = frozenset(i for i, t in added.items() if t.special)
    return SmolLM(config, weights, tokenizer, special_ids=specials)


def load_smollm(cache_dir: str | Path | None = None) -> SmolLM:
    """SmolLM2-135M-Instruct, memory-mapped from its converted cache (made by ``make``; made
    here from the installed GGUF file if missing, which takes a few seconds once).

    Nothing is downloaded. The model is immutable: one copy per cache folder is kept.
    """
    cache = smollm_files.ensure_cache(Path(cache_dir) if cache_dir else None)
    return _load(cache.resolve())
