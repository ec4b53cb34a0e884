"""What the three chart pages (canvas.py, vega.py, plotly_page.py) draw: the same numbers,
from the same sentence, for bench/bench_charts.py.

`bars`: as Softmax's "one query up close", row 1's scores and their softmax weights, one bar
per token. `lines`: as the labs' curves against d, three series over 12 values of d
(1 .. 2048, a log axis) and a dotted mark at the learner's d, whose text names the
sentence's first word (the benchmark's way to tell the new chart from the old one).
"""

from __future__ import annotations

import zlib

import numpy as np

DEFAULT = "the cat sat on the mat because it was warm"
D = 2.0 ** np.arange(12)  # 1 .. 2048
D_TICKS = [1, 4, 16, 64, 256, 1024]
SERIES = ("q·k", "q·k / √d", "q·k / d")
COLOURS = ("#d62728", "#1f77b4", "#2ca02c")
BAR_TITLES = ("Scores of row 1, ÷ τ", "Weights of row 1")
BAR_Y = ("s / τ", "weight")
LINE_TITLES = ("Largest weight in a row", "Share of the row's top two weights")
LINE_Y = ("largest weight", "top two")


def words(sentence: str) -> list[str]:
    return sentence.split() or ["(empty)"]


def _rng(sentence: str, salt: int = 0) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(sentence.encode()) + salt)


def row(sentence: str) -> tuple[list[str], np.ndarray, np.ndarray]:
    """tokens, row 1's scores (T,) and their softmax weights (T,)."""
    tokens = words(sentence)
    scores = _rng(sentence).normal(0.0, 2.0, len(tokens))
    weights = np.exp(scores - scores.max())
    return tokens, scores, weights / weights.sum()


def curves(sentence: str, salt: int) -> list[np.ndarray]:
    """Three curves in [0, 1] against D, one per SERIES, that the sentence changes."""
    noise = _rng(sentence, salt).normal(0.0, 0.03, (len(SERIES), len(D)))
    scale = np.array([1.0, 0.5, 0.25])[:, None] * (1 + salt)
    return list(np.clip(1 - np.exp(-np.sqrt(D) / (4 * scale)) + noise, 0.0, 1.0))


def mark(sentence: str) -> tuple[float, str]:
    """The learner's d (a power of 2 set by the sentence's length) and the mark's text."""
    tokens = words(sentence)
    d = float(D[len(tokens) % len(D)])
    return d, f"your d = {d:g} ({tokens[0]})"


def stamp(sentence: str, kind: str) -> str:
    """What every chart of `kind` shows that names `sentence`: the first bar's label, or the
    mark's text."""
    return words(sentence)[0] if kind == "bars" else mark(sentence)[1]
