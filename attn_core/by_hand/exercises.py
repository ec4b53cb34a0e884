"""Seeded by-hand exercises: small integer givens whose answers stay friendly to work by hand.

Entries are small integers with many zeros; a draw is rejected and redrawn until every
scaled score s satisfies |s| <= 2 (easy) or 3 (medium, hard), so 3^s is one of 1/27 .. 27,
until at least half the columns of weights are not uniform, and until no weight has a
denominator above 40 (easy), 100 (medium) or 250 (hard). A "tiles" sheet (the online
softmax, ``attn_core.by_hand.tiles``) has 4 tokens unless told otherwise, and a later block
raises some column's maximum, so that one rescale factor is not 1. The same seed and
settings always give the same sheet: all randomness comes from ``np.random.default_rng(seed)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from attn_core.by_hand.backward import HandGrads, hand_backward, max_denominator
from attn_core.by_hand.rules import scale_scores
from attn_core.by_hand.tiles import HandTile, hand_tiles
from attn_core.by_hand.trace import HandTrace, concat_z, hand_heads
from attn_core.errors import AttentionInputError, whole_number

DIFFICULTIES = ("easy", "medium", "hard")
VARIANTS = ("plain", "causal", "two_heads", "tiles", "backward")
TILE_BLOCK = 2  # the "tiles" sheet reads the keys two at a time: 4 tokens are two blocks
DZ_TRIES = 40  # backward: upstream gradients drawn, the one with the smallest fractions kept
TOKENS, FEATURES, D_K = (3, 6), (4, 8), (2, 4)  # allowed ranges, inclusive
MAX_TRIES, HEAD_TRIES = 200, 500


@dataclass(frozen=True)
class _Spec:
    x_max: int  # x entries in -x_max..x_max
    p_zero: float  # extra chance that an entry of x is 0
    w_zero: float  # the same for the weights, whose entries are -1..1
    max_scaled: int  # largest |scaled score| accepted
    tokens: tuple[int, int]  # default ranges when a size is not given
    features: tuple[int, int]
    d_k: tuple[int, int]
    negative_odd: bool  # demand a score like -3, where floor and trunc differ
    max_den: int  # largest denominator accepted in the weights (and so in z)


SPECS = {
    "easy": _Spec(1, 0.3, 0.5, 2, (3, 4), (4, 5), (2, 2), False, 40),
    "medium": _Spec(1, 0.25, 0.45, 3, (4, 5), (5, 6), (2, 3), False, 100),
    "hard": _Spec(2, 0.4, 0.55, 3, (5, 6), (6, 8), (3, 4), True, 250),
}


@dataclass(frozen=True, eq=False)
class Exercise:
    """One worksheet: the givens and the answer key. Tokens are columns.

    Attributes
    ----------
    seed, difficulty, variant, scale_rule : the settings that reproduce the sheet
    x : (features, tokens) int
    w_q, w_k, w_v : (n_heads * d_k, features) int; head h uses rows h*d_k:(h+1)*d_k
    heads : tuple of n_heads HandTrace, the answers (one for "plain" and "causal")
    d_z : (d_v, tokens) int or None    the given upstream gradient ("backward" only)
    grads : HandGrads or None          the backward pass's answers ("backward" only)
    """

    seed: int
    difficulty: str
    variant: str
    scale_rule: str
    x: np.ndarray
    w_q: np.ndarray
    w_k: np.ndarray
    w_v: np.ndarray
    heads: tuple[HandTrace, ...]
    d_z: np.ndarray | None = None
    grads: HandGrads | None = None

    @property
    def tokens(self) -> int:
        return self.x.shape[1]

    @property
    def features(self) -> int:
        return self.x.shape[0]

    @property
    def n_heads(self) -> int:
        return len(self.heads)

    @property
    def d_k(self) -> int:
        """Rows per head."""
        return self.heads[0].d_k

    @property
    def causal(self) -> bool:
        return self.variant == "causal"

    @property
    def z(self) -> np.ndarray:
        """(n_heads * d_k, tokens): every head's z, head 1 on top."""
        return concat_z(self.heads)

    @property
    def tiles(self) -> tuple[HandTile, ...]:
        """The "tiles" sheet's online softmax, two keys per block; () for other variants."""
        return hand_tiles(self.heads[0], TILE_BLOCK) if self.variant == "tiles" else ()

    @property
    def settings(self) -> dict:
        return {
            "seed": self.seed,
            "tokens": self.tokens,
            "features": self.features,
            "d_k": self.d_k,
            "difficulty": self.difficulty,
            "variant": self.variant,
            "scale_rule": self.scale_rule,
        }


def _size(rng: np.random.Generator, value, name: str, allowed, default) -> int:
    if value is None:
        return int(rng.integers(default[0], default[1] + 1))
    if not allowed[0] <= whole_number(value, name) <= allowed[1]:
        raise AttentionInputError.said(
            "{name} must be between {low} and {high} for a sheet done by hand, got {value}.",
            name=name,
            low=allowed[0],
            high=allowed[1],
            value=value,
        )
    return int(value)


def _entries(rng: np.random.Generator, shape, top: int, p_zero: float) -> np.ndarray:
    """Integers in -top..top, with an extra p_zero chance of 0 so the sums stay short."""
    values = rng.integers(-top, top + 1, size=shape)
    return np.where(rng.random(shape) < p_zero, 0, values)


def _friendly(
    x, w_q, w_k, spec: _Spec, scale_rule: str, causal: bool, rescaled: bool = False
) -> bool:
    """True when one head's scaled scores are small and its weights are not mostly uniform;
    `rescaled`: also a later block of keys raises some column's maximum (a tiles sheet)."""
    scores = (w_k @ x).T @ (w_q @ x)  # (T, d_k) x (d_k, T) -> (T, T)
    scaled = scale_scores(scores, scale_rule)
    if np.abs(scaled).max() > spec.max_scaled:
        return False
    seen = np.triu(np.ones(scores.shape, dtype=bool)) if causal else np.ones(scores.shape, bool)
    if spec.negative_odd and not np.any((scores < 0) & (scores % 2 == 1) & seen):
        return False
    varied = [np.ptp(scaled[seen[:, j], j]) > 0 for j in range(scores.shape[1])]
    if sum(varied) < (len(varied) + 1) // 2:  # at least half the columns are not uniform
        return False
    if rescaled and not _rescales(scaled):
        return False
    return _max_denominator(scaled, seen) <= spec.max_den


def _rescales(scaled: np.ndarray) -> bool:
    """True when some block after the first raises some column's running maximum."""
    running = scaled[:TILE_BLOCK].max(axis=0)  # (T,)
    for start in range(TILE_BLOCK, scaled.shape[0], TILE_BLOCK):
        block_max = scaled[start : start + TILE_BLOCK].max(axis=0)
        if np.any(block_max > running):
            return True
        running = np.maximum(running, block_max)
    return False


def _max_denominator(scaled: np.ndarray, seen: np.ndarray) -> int:
    """The largest denominator of the weights 3^s / column sum, in whole numbers only."""
    low, worst = int(scaled.min()), 1
    for j in range(scaled.shape[1]):
        nums = [3 ** (int(s) - low) for s in scaled[seen[:, j], j]]  # 3^s times 3^-low
        total = sum(nums)
        worst = max(worst, *(total // math.gcd(total, n) for n in nums))
    return worst


def _draw_x(rng: np.random.Generator, spec: _Spec, f: int, t: int) -> np.ndarray:
    """(f, t) with no all-zero token column and no all-zero feature row."""
    while True:
        x = _entries(rng, (f, t), spec.x_max, spec.p_zero)
        if x.any(axis=0).all() and x.any(axis=1).all():
            return x


def _draw_head(rng, x, spec: _Spec, d: int, rules: dict, rescaled: bool) -> list[np.ndarray] | None:
    """w_q, w_k, w_v (d, f) with no all-zero row that make a friendly head on x, or None."""
    for _ in range(HEAD_TRIES):
        ws = [_entries(rng, (d, x.shape[0]), 1, spec.w_zero) for _ in range(3)]
        friendly = _friendly(x, ws[0], ws[1], spec, **rules, rescaled=rescaled)
        if all(w.any(axis=1).all() for w in ws) and friendly:
            return ws
    return None  # this x makes friendly heads too rare: the caller draws another


def make_exercise(
    seed: int,
    *,
    tokens: int | None = None,
    features: int | None = None,
    d_k: int | None = None,
    difficulty: str = "easy",
    variant: str = "plain",
    scale_rule: str = "floor",
) -> Exercise:
    """A seeded worksheet: x (features, tokens), w_q, w_k, w_v (n_heads * d_k, features).

    Parameters
    ----------
    seed : int >= 0; the same seed and settings give the same sheet
    tokens : 3..6, features : 4..8, d_k : 2..4 (per head); drawn from the difficulty when None
    difficulty : "easy" (entries -1..1, |scaled| <= 2), "medium" (-1..1, |scaled| <= 3) or
        "hard" (x in -2..2, |scaled| <= 3, at least one negative odd score)
    variant : "plain", "causal" (query j sees keys i <= j), "two_heads" (w rows split in two)
        or "tiles" (one head, also worked two keys at a time: ``Exercise.tiles``; 4 tokens
        unless `tokens` says otherwise)
        or "backward" (one head, then its backward pass from a given dz; 3 tokens and
        d_k = 2 unless given)
    scale_rule : "floor" (default) or "trunc"

    Returns
    -------
    Exercise, with the answers from ``hand_heads``.
    """
    _check_choice(difficulty, "difficulty", DIFFICULTIES)
    _check_choice(variant, "variant", VARIANTS)
    _check_choice(scale_rule, "scale_rule", ("floor", "trunc"))
    whole_number(seed, "seed", 0)
    spec, rng = SPECS[difficulty], np.random.default_rng(seed)
    back = variant == "backward"
    default_t = (4, 4) if variant == "tiles" else (3, 3) if back else spec.tokens
    t = _size(rng, tokens, "tokens", TOKENS, default_t)
    f = _size(rng, features, "features", FEATURES, spec.features)
    d = _size(rng, d_k, "d_k", D_K, (2, 2) if back else spec.d_k)
    rules = {"scale_rule": scale_rule, "causal": variant == "causal"}
    n_heads = 2 if variant == "two_heads" else 1
    for _ in range(MAX_TRIES):
        x = _draw_x(rng, spec, f, t)
        heads = [_draw_head(rng, x, spec, d, rules, variant == "tiles") for _ in range(n_heads)]
        if None not in heads:
            w_q, w_k, w_v = (np.concatenate(ws) for ws in zip(*heads, strict=True))
            answers = hand_heads(x, w_q, w_k, w_v, n_heads, **rules)
            for a in (x, w_q, w_k, w_v):
                a.flags.writeable = False
            d_z, grads = _draw_backward(rng, answers[0]) if back else (None, None)
            return Exercise(
                seed, difficulty, variant, scale_rule, x, w_q, w_k, w_v, answers, d_z, grads
            )
    raise AttentionInputError.said(  # not seen in tests; a guard against an endless loop
        "No sheet with small enough scores was found for these settings; "
        "try another seed, fewer features or an easier difficulty."
    )


def _draw_backward(rng: np.random.Generator, head: HandTrace) -> tuple[np.ndarray, HandGrads]:
    """dz (d_v, T) in -1..1, not all 0, whose backward pass has the smallest fractions of
    DZ_TRIES draws, and that pass."""
    best = None
    for _ in range(DZ_TRIES):
        d_z = rng.integers(-1, 2, size=head.z.shape)
        if not d_z.any():
            continue
        grads = hand_backward(head, d_z)
        worst = max_denominator(grads)
        if best is None or worst < best[0]:
            best = (worst, d_z, grads)
    best[1].flags.writeable = False
    return best[1], best[2]


def _check_choice(value, name: str, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise AttentionInputError.said(
            "{name} must be one of {choices}; got {value}.",
            name=name,
            choices=", ".join(choices),
            value=repr(value),
        )
