"""What the decoder pages (causal mask, grouped-query attention, RoPE) share: the learner's
words run through SmolLM2, what the causal-mask page counts of its heads and its gallery, and
the tables of numbers they show. No maths here: the numbers come from ``attn_core.labs``
(decoder_heads, grouped_query, rope) and the model's trace.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from attn_core.labs import decoder_heads, grouped_query, rope
from attn_core.pretrained import DecoderTrace
from attn_lessons import i18n
from attn_lessons.i18n import N_, _
from attn_ui import controls, formats, frame, tables
from attn_ui.compute import decoder
from attn_ui.figures import canvas_grid, heatmap

PROMPT_HELP = N_(
    "Your own words. SmolLM2 reads at most {tokens} of its tokens here; "
    "the sentence is shared with the other pages."
)
# a head type (attn_core's value) as the page names it
KINDS = {
    decoder_heads.PREVIOUS: N_("previous token"),
    decoder_heads.FIRST: N_("first token"),
    decoder_heads.OTHER: N_("other"),
}
# a gallery heatmap's title, by head type: one whole message each
GALLERY_TITLES = {
    decoder_heads.PREVIOUS: N_("layer {layer}, head {head}: previous token score {score}"),
    decoder_heads.FIRST: N_("layer {layer}, head {head}: first token score {score}"),
}


# What SmolLM2 does with a language other than English, said on every decoder page in it
LANGUAGE_NOTES = {
    "es": N_(
        "SmolLM2 was trained mostly on English: its Spanish is weak, and it often switches "
        "to English. Every number here is still the real model's, on your words; the "
        "starting prompt was chosen so that the model still does what the page shows."
    ),
    "zh": N_(
        "SmolLM2 was trained mostly on English: its Chinese is weak, and it often switches "
        "to English or writes characters that make no sense. Every number here is still the "
        "real model's, on your words; the starting prompt was chosen so that the model still "
        "does what the page shows. SmolLM2 reads text as bytes, so a Chinese character is "
        "often two or three tokens: each piece shows its character, with “…” on the side "
        "where its other pieces are (爱…, …爱…, …爱)."
    ),
}


def language_note() -> None:
    """A decoder page in Spanish or Chinese says what SmolLM2 does with the language."""
    note = LANGUAGE_NOTES.get(i18n.current())
    if note:
        st.info(_(note), icon=":material/translate:")


def kind_words(kind: str) -> str:
    """A head type in the page's language."""
    return _(KINDS[kind]) if kind in KINDS else kind


def prompt_run() -> DecoderTrace:
    """The sentence box, then SmolLM2 on its words (cached); a prompt the model cannot read
    stops the page with the core's sentence."""
    s = controls.sentence_box(help=_(PROMPT_HELP).format(tokens=decoder.RUN_TOKENS))
    with frame.stop_on_error():
        run = decoder.decoder_run(s.sentence)
    if run.n_tokens == 1:
        st.warning(
            _(
                "Your sentence is a single token for SmolLM2. Its one row can only attend to "
                "itself (weight 1). Type a few more words to see a causal triangle."
            ),
            icon=":material/info:",
        )
    return run


def head_scores(attentions: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Every head's previous-token and first-token scores, each (layers, heads); None under
    ``decoder_heads.MIN_TOKENS`` tokens (the core's sentence says why, where types are read)."""
    if attentions.shape[-1] < decoder_heads.MIN_TOKENS:
        return None
    return decoder_heads.previous_token_scores(attentions), decoder_heads.first_token_scores(
        attentions
    )


@dataclass(frozen=True)
class AboveDiagonal:
    """What a model's heads (layers, heads, T, T) put on later tokens.

    n_heads : layers x heads
    weights : how many weights sit above the diagonal, over every head; 0 for one token
    nonzero : how many of them are not 0
    largest : the largest of them (0 when there are none)
    future : the mean weight a row gives to later tokens, over every head
    """

    n_heads: int
    weights: int
    nonzero: int
    largest: float
    future: float


def above_diagonal(attentions: np.ndarray) -> AboveDiagonal:
    upper = decoder_heads.upper_triangle(attentions)
    return AboveDiagonal(
        n_heads=attentions.shape[0] * attentions.shape[1],
        weights=upper.size,
        nonzero=int(np.count_nonzero(upper)),
        largest=float(upper.max()) if upper.size else 0.0,
        future=float(decoder_heads.future_weight(attentions).mean()),
    )


def type_counts(labels: np.ndarray) -> dict[str, int]:
    """How many heads have each type (PREVIOUS, FIRST, OTHER)."""
    kinds = (decoder_heads.PREVIOUS, decoder_heads.FIRST, decoder_heads.OTHER)
    return {kind: int((labels == kind).sum()) for kind in kinds}


def gallery(
    attentions: np.ndarray, tokens: Sequence[str], previous: np.ndarray, first: np.ndarray, n: int
) -> None:
    """The `n` strongest previous-token heads and first-token heads (scores (layers, heads)) as
    small heatmaps, a row of each, with their numbers in one table box."""
    scores = {decoder_heads.PREVIOUS: previous, decoder_heads.FIRST: first}
    best = {kind: decoder_heads.top_heads(s, n) for kind, s in scores.items()}
    items = [
        heatmap.small(
            attentions[i, h],
            tokens,
            tokens,
            title=_(GALLERY_TITLES[kind]).format(
                layer=i, head=h, score=f"{scores[kind][i, h]:.2f}"
            ),
        )
        for kind in best
        for i, h in best[kind]
    ]
    st.caption(
        "  ·  ".join(
            f"{kind_words(kind)}: " + ", ".join(f"L{i} H{h}" for i, h in best[kind])
            for kind in best
        )
    )
    canvas_grid.show(
        [
            canvas_grid.small_multiples(
                items,
                row_labels=[_("previous"), _("first")],
                col_labels=[f"#{k + 1}" for k in range(n)],
                bar=heatmap.colour_bar("weights", _("weight")),
                name="decoder_head_types",
            )
        ],
        key="causal_gallery",
    )
    tables.numbers_of(
        _("Numbers of the gallery's heads (table, CSV download)"),
        {
            _("layer {layer}, head {head}").format(layer=i, head=h): lambda i=i, h=h: tables.table(
                attentions[i, h], tokens, tokens
            )
            for kind in best
            for i, h in best[kind]
        },
        key="causal_gallery",
    )


def tokens_table(smol: Sequence[str], mini: Sequence[str]) -> pd.DataFrame:
    """The two tokenizations side by side, position by position ('' where one is shorter)."""
    n = max(len(smol), len(mini))
    pad = [""] * n
    return pd.DataFrame(
        {
            _("position"): range(n),
            _("SmolLM2 token"): [formats.token(t) for t in smol] + pad[len(smol) :],
            _("MiniLM token"): list(mini) + pad[len(mini) :],
        }
    )


def head_types_table(previous: np.ndarray, first: np.ndarray, labels: np.ndarray) -> pd.DataFrame:
    """The heads given a type (not OTHER): layer, head, type and both scores, strongest first.
    Sorted on the English names (the core's types), then shown in the page's language."""
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
    df = df.drop(columns="best").reset_index(drop=True)
    df["type"] = df["type"].map(kind_words)
    shown = {
        "layer": _("layer"),
        "head": _("head"),
        "type": _("type"),
        "previous-token score": _("previous-token score"),
        "first-token score": _("first-token score"),
    }
    return df.rename(columns=shown)


def gaps_table(gaps: np.ndarray, heads: Sequence[int]) -> pd.DataFrame:
    """The (h, h) largest differences between heads' weights, labelled by head."""
    names = [_("head {head}").format(head=h) for h in heads]
    return pd.DataFrame(gaps, index=pd.Index(names, name=_("head")), columns=names)


def cache_table(config: dict, prompt_tokens: int, context: int) -> pd.DataFrame:
    """MHA, GQA (the model) and MQA: K/V heads, group size, and the float32 cache per token,
    for the prompt and for `context` tokens (``formats.size``, as the KV cache page writes it)."""
    rows = []
    for v in grouped_query.variants(config["n_heads"], config["n_kv_heads"]):
        per = grouped_query.cache_bytes(config["n_layers"], v.n_kv_heads, config["head_dim"], 1)
        rows.append(
            {
                _("sharing"): v.name
                + (" (SmolLM2)" if v.n_kv_heads == config["n_kv_heads"] else ""),
                _("K/V heads"): v.n_kv_heads,
                _("query heads per K/V head"): v.group(config["n_heads"]),
                _("bytes per token"): per,
                # i18n: one message for every count ("1 tokens" included), as the English has it
                _("your {n} tokens").format(n=prompt_tokens): formats.size(per * prompt_tokens),
                _("{n} tokens").format(n=context): formats.size(per * context),
            }
        )
    return pd.DataFrame(rows)


def pairs_table(head_dim: int, base: float, position: int) -> pd.DataFrame:
    """Each pair's speed and its angle at `position`. Its headings are English: the RoPE charts
    (figures/rope_charts.py) and the tests read the columns by name; `shown_pairs` translates
    them for the table."""
    angles = rope.angles_at(position, head_dim, base)
    # i18n: headings read back by name; translated where drawn (`shown_pairs`)
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


def shown_pairs(pairs: pd.DataFrame, position: int) -> pd.DataFrame:
    """`pairs_table` with its headings in the page's language, to draw it."""
    headings = {
        "pair i": _("pair i"),
        "features": _("features"),
        "radians per position": _("radians per position"),
        "positions per turn": _("positions per turn"),
        f"angle at {position} (rad)": _("angle at {position} (rad)").format(position=position),
        f"angle at {position}, mod 360°": _("angle at {position}, mod 360°").format(
            position=position
        ),
    }
    return pairs.rename(columns=headings)


def minilm_head(model, id_q: int, id_k: int, head: int) -> rope.AbsoluteHead:
    """MiniLM's first layer, head `head`, for two word-piece ids: what ``rope.AbsoluteHead``
    needs (word + token type vectors, the position table, the embedding norm, the head's
    projections and biases)."""
    w = model.layers[0].w_qkv  # (d_model, 3 d_model): q, k, v columns
    d, d_k = model.d_model, model.d_k
    cols = slice(head * d_k, (head + 1) * d_k)
    b_q, b_k, _b_v = model.head_bias(0, head)
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
