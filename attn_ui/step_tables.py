"""Tables of the step pages: tokens, a score written out as its sum of products, the softmax
of one row, a weighted sum taken apart. Formatting only: every number comes from attn_core."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import streamlit as st

from attn_core.labs import softmax_facts, weighted_sum
from attn_core.labs.scaling import SoftmaxSummary
from attn_core.labs.similarity import dot_terms
from attn_core.text import Repeat
from attn_lessons.i18n import _
from attn_ui.tables import labels, table_height

SPECIAL = frozenset({"[CLS]", "[SEP]", "[UNK]", "[PAD]", "[MASK]"})
HOVER_FULL_TERMS = 16  # hover lists every product up to this d_k, else the first ...
HOVER_SOME_TERMS = 8  # ... this many, so a 64 x 64 grid stays light
TERMS_PER_LINE = 4


def factor(v: float, decimals: int = 2) -> str:
    """'0.50', '(−0.30)': a number as written inside a sum of products."""
    text = f"{v:.{decimals}f}"
    if float(text) == 0:
        return f"{0:.{decimals}f}"  # no '-0.00'
    return f"({text.replace('-', '−')})" if v < 0 else text


def total(v: float, decimals: int = 2) -> str:
    return factor(v, decimals).strip("()")


def dot_sum(q_row, k_row, score: float, *, max_terms: int | None = None, newline="\n") -> str:
    """'0.50×1.20 + (−0.30)×0.40 + … = 0.48', four products per line.

    The sum printed is the sum of the products as shown (of the rounded factors), so the line
    adds up; when the unrounded score rounds differently, it follows in brackets."""
    terms = [f"{factor(a)}×{factor(b)}" for a, b in zip(q_row, k_row, strict=True)]
    shown = sum(float(f"{a:.2f}") * float(f"{b:.2f}") for a, b in zip(q_row, k_row, strict=True))
    end = f" = {total(shown)}"
    if total(shown) != total(score):
        end += " " + _("({score} from the unrounded numbers)").format(score=total(score))
    if max_terms is not None and len(terms) > max_terms:
        more = _("… ({n} more products)").format(n=len(terms) - max_terms)
        terms = [*terms[:max_terms], more]
        end = f" = {total(score)}"  # not every product is shown: the score itself
    lines = [
        " + ".join(terms[i : i + TERMS_PER_LINE]) for i in range(0, len(terms), TERMS_PER_LINE)
    ]
    return f"{newline}+ ".join(lines) + end


def dot_hover(q: np.ndarray, k: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """(T_q, T_k) hover text for S = Q Kᵀ: each cell's sum of products, four to a line."""
    d_k = q.shape[1]
    short = None if d_k <= HOVER_FULL_TERMS else HOVER_SOME_TERMS
    out = np.empty(scores.shape, dtype=object)
    for i in range(q.shape[0]):
        for j in range(k.shape[0]):
            out[i, j] = f"q{i}·k{j} = " + dot_sum(q[i], k[j], scores[i, j], max_terms=short)
    return out


def dot_table(q: np.ndarray, k: np.ndarray, i: int, j: int) -> pd.DataFrame:
    """One score worked out: a row per feature with q_i, k_j and their product."""
    products = dot_terms(q[i : i + 1], k[j : j + 1])[0, 0]  # (d_k,)
    return pd.DataFrame(
        {f"q{i}": q[i], f"k{j}": k[j], f"q{i} × k{j}": products},
        index=pd.Index([f"f{f}" for f in range(q.shape[1])], name=_("feature")),
    )


def token_kind(token: str) -> str:
    if token in SPECIAL:
        return _("special token")
    if token.startswith("##") and len(token) > 2:
        return _("piece: continues the word before")
    return _("a word, or the first piece of one")


def token_table(tokens: Sequence[str]) -> pd.DataFrame:
    """Row number, token and what kind of token it is; the text is data, never markup."""
    return pd.DataFrame(
        {_("token"): list(tokens), _("kind"): [token_kind(t) for t in tokens]},
        index=pd.RangeIndex(len(tokens), name=_("row")),
    )


def repeats_table(repeats: Sequence[Repeat]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            _("token"): [r.token for r in repeats],
            _("rows of X"): [", ".join(map(str, r.positions)) for r in repeats],
            _("identical rows"): [_("yes") if r.identical else _("no") for r in repeats],
        }
    )


def summary_table(unscaled: SoftmaxSummary, scaled: SoftmaxSummary, t_k: int) -> pd.DataFrame:
    """The learner's head without and with 1/sqrt(d_k), side by side."""
    names = {
        "spread": _("score spread (std)"),
        "max_weight": _("largest weight"),
        "entropy": _("entropy (max {max})").format(max=f"{np.log(t_k):.2f}"),
        "grad": _("gradient size"),
    }
    return pd.DataFrame(
        {
            _("unscaled"): [getattr(unscaled, n) for n in names],
            "÷ √d_k": [getattr(scaled, n) for n in names],
        },
        index=pd.Index(list(names.values()), name=_("measure")),
    )


def head_features(n_heads: int, d_v: int) -> list[str]:
    """Column names of the concatenated heads: h0·v0, h0·v1, ..., h1·v0, ..."""
    return [f"h{h}·v{j}" for h in range(n_heads) for j in range(d_v)]


def sums_table(sums: dict[str, np.ndarray], tokens: Sequence[str], *, key: str) -> None:
    """Sums side by side, one row per token, to 4 decimals."""
    df = pd.DataFrame(sums, index=pd.Index(labels(tokens), name=_("token"))).round(4)
    st.dataframe(df, key=key, height=table_height(len(df)))


def softmax_table(steps: softmax_facts.SoftmaxSteps, tokens: Sequence[str], *, key: str) -> None:
    """The softmax of one row, one line per key, -inf spelled out as masked."""
    cols = {
        _("score s"): steps.scores,
        "s/τ": steps.divided,
        "s/τ − max": steps.shifted,
        "exp(s/τ − max)": steps.exps,
        _("weight"): steps.weights,
    }
    df = pd.DataFrame(cols, index=pd.Index(labels(tokens), name=_("key"))).round(4)
    st.dataframe(df.replace(-np.inf, _("−∞ (masked)")), key=key, height=table_height(len(df)))


def parts_table(
    parts: np.ndarray, weights_row: np.ndarray, z_row: np.ndarray, tokens, features, *, key: str
) -> None:
    """Rows a_j v_j per key (the weight in the label), then their sum and the row of Z = A V."""
    names = [f"{n}   (a = {a:.3f})" for n, a in zip(labels(tokens), weights_row, strict=True)]
    df = pd.DataFrame(parts, index=pd.Index(names, name=_("key")), columns=list(features))
    df.loc[_("sum of the rows above")] = weighted_sum.row_sums(parts.T)  # sum over the keys
    df.loc[_("that row of Z = A V")] = z_row
    st.dataframe(df.round(4), key=key, height=table_height(len(df)))
