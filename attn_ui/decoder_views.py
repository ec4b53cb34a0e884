"""What the decoder pages (causal mask, grouped-query attention, RoPE) share: the learner's
words run through SmolLM2, and the tables of numbers they show. No maths here: the numbers
come from ``attn_core.labs`` (decoder_heads, grouped_query, rope) and the model's trace.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import streamlit as st

from attn_core.labs import decoder_heads, grouped_query, rope
from attn_core.pretrained import DecoderTrace
from attn_ui import controls, formats, frame
from attn_ui.compute import decoder

PROMPT_HELP = (
    f"Your own words. SmolLM2 reads at most {decoder.RUN_TOKENS} of its tokens here; "
    "the sentence is shared with the other pages."
)


def prompt_run() -> DecoderTrace:
    """The sentence box, then SmolLM2 on its words (cached); a prompt the model cannot read
    stops the page with the core's sentence."""
    s = controls.sentence_box(help=PROMPT_HELP)
    with frame.stop_on_error():
        run = decoder.decoder_run(s.sentence)
    if run.n_tokens == 1:
        st.warning(
            "Your sentence is a single token for SmolLM2. Its one row can only attend to "
            "itself (weight 1). Type a few more words to see a causal triangle.",
            icon=":material/info:",
        )
    return run


def tokens_table(smol: Sequence[str], mini: Sequence[str]) -> pd.DataFrame:
    """The two tokenizations side by side, position by position ('' where one is shorter)."""
    n = max(len(smol), len(mini))
    pad = [""] * n
    return pd.DataFrame(
        {
            "position": range(n),
            "SmolLM2 token": [formats.token(t) for t in smol] + pad[len(smol) :],
            "MiniLM token": list(mini) + pad[len(mini) :],
        }
    )


def head_types_table(previous: np.ndarray, first: np.ndarray, labels: np.ndarray) -> pd.DataFrame:
    """The heads given a type (not OTHER): layer, head, type and both scores, strongest first."""
    layer, head = np.nonzero(labels != decoder_heads.OTHER)
    df = pd.DataFrame(
        {
            "layer": layer,
            "head": head,
            "type": labels[layer, head].astype(str),
            "previous-token score": previous[layer, head],
            "first-token score": first[layer, head],
        }
    )
    df["best"] = df[["previous-token score", "first-token score"]].max(axis=1)
    df = df.sort_values(["type", "best"], ascending=[False, False], kind="stable")
    return df.drop(columns="best").reset_index(drop=True)


def gaps_table(gaps: np.ndarray, heads: Sequence[int]) -> pd.DataFrame:
    """The (h, h) largest differences between heads' weights, labelled by head."""
    names = [f"head {h}" for h in heads]
    return pd.DataFrame(gaps, index=pd.Index(names, name="head"), columns=names)


def cache_table(config: dict, prompt_tokens: int, context: int) -> pd.DataFrame:
    """MHA, GQA (the model) and MQA: K/V heads, group size, and the float32 cache per token,
    for the prompt and for `context` tokens (``formats.size``, as the KV cache page writes it)."""
    rows = []
    for v in grouped_query.variants(config["n_heads"], config["n_kv_heads"]):
        per = grouped_query.cache_bytes(config["n_layers"], v.n_kv_heads, config["head_dim"], 1)
        rows.append(
            {
                "sharing": v.name + (" (SmolLM2)" if v.n_kv_heads == config["n_kv_heads"] else ""),
                "K/V heads": v.n_kv_heads,
                "query heads per K/V head": v.group(config["n_heads"]),
                "bytes per token": per,
                f"your {prompt_tokens} tokens": formats.size(per * prompt_tokens),
                f"{context} tokens": formats.size(per * context),
            }
        )
    return pd.DataFrame(rows)


def pairs_table(head_dim: int, base: float, position: int) -> pd.DataFrame:
    """Each pair's speed and its angle at `position`."""
    angles = rope.angles_at(position, head_dim, base)
    return pd.DataFrame(
        {
            "pair i": range(head_dim // 2),
            "features": [f"{2 * i}, {2 * i + 1}" for i in range(head_dim // 2)],
            "radians per position": rope.pair_frequencies(head_dim, base),
            "positions per turn": rope.wavelengths(head_dim, base),
            f"angle at {position} (rad)": angles,
            f"angle at {position}, mod 360°": np.degrees(angles) % 360,
        }
    )


def minilm_head(model, id_q: int, id_k: int, head: int) -> rope.AbsoluteHead:
    """MiniLM's first layer, head `head`, for two word-piece ids: what ``rope.AbsoluteHead``
    needs (word + token type vectors, the position table, the embedding norm, the head's
    projections and biases)."""
    w = model.layers[0].w_qkv  # (d_model, 3 d_model): q, k, v columns
    d, d_k = model.d_model, model.d_k
    cols = slice(head * d_k, (head + 1) * d_k)
    b_q, b_k, _ = model.head_bias(0, head)
    return rope.AbsoluteHead(
        word_q=model.word[id_q] + model.token_type[0],
        word_k=model.word[id_k] + model.token_type[0],
        table=model.position,
        norm=(*model.ln_emb, model.eps),
        w_q=w[:, cols],
        b_q=b_q,
        w_k=w[:, d:][:, cols],
        b_k=b_k,
    )
