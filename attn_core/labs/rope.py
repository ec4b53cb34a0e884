"""Rotary positions (RoPE), taken apart: the angle of each pair, one pair turning, and the
reason it works, shown on any query and key.

RoPE adds nothing to x. Pair i of a head vector, (x_2i, x_2i+1), is rotated at position m by

    theta_i(m) = m * base^(-2i / d)                 (pair 0 fastest: 1 radian per position)

so with R(a) the rotation by angle a, pair by pair,

    (R(m) q) . (R(n) k) = q . R(n - m) k            (R(m)^T R(n) = R(n - m))

depends on m and n only through the distance m - n: shifting both positions by s leaves the
score unchanged. A learned absolute position table (BERT, MiniLM) adds p_m to the word's
vector instead, and the same two words at (m + s, n + s) score differently.

The rotation itself is the model's own: ``attn_core.pretrained.smollm.rope`` (adjacent pairs,
as this model's weights are stored) and ``rope_angles``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attn_core.errors import AttentionInputError, whole_number
from attn_core.pretrained.bert_layer import layer_norm
from attn_core.pretrained.smollm import rope, rope_angles


def _vector(x, name: str) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 1 or x.size % 2 or x.size == 0:
        raise AttentionInputError.said(
            "{name} must be one vector of even length; got {shape}.", name=name, shape=x.shape
        )
    if not np.isfinite(x).all():
        raise AttentionInputError.said("{name} has a NaN or infinite entry.", name=name)
    return x


def pair_frequencies(head_dim: int, base: float) -> np.ndarray:
    """base^(-2i / head_dim) for each pair i: radians per position. (head_dim / 2,)"""
    return rope_angles(np.array([1]), head_dim, base)[0]


def wavelengths(head_dim: int, base: float) -> np.ndarray:
    """Positions a pair needs to turn a full circle, 2 pi / frequency. (head_dim / 2,)"""
    return 2 * np.pi / pair_frequencies(head_dim, base)


def angles_at(position: int, head_dim: int, base: float) -> np.ndarray:
    """theta_i(position) of every pair, in radians (not reduced modulo 2 pi)."""
    return rope_angles(np.array([whole_number(position, "position", 0)]), head_dim, base)[0]


def rotate(x: np.ndarray, position: int, base: float) -> np.ndarray:
    """One head vector (d,) rotated to `position`, pair by pair: the model's own ``rope``."""
    x = _vector(x, "x")
    pos = np.array([whole_number(position, "position", 0)])
    return rope(x[None, None, :], pos, base)[0, 0]  # (1, 1, d) -> (d,)


def score(q: np.ndarray, k: np.ndarray, m: int, n: int, base: float) -> float:
    """q at position m against k at position n: (R(m) q) . (R(n) k)."""
    return float(rotate(q, m, base) @ rotate(k, n, base))


@dataclass(frozen=True)
class ShiftTest:
    """q at m and k at n; the same two vectors at m + shift and n + shift."""

    m: int
    n: int
    shift: int
    score: float
    shifted: float

    @property
    def difference(self) -> float:
        return self.shifted - self.score


def shift_test(q: np.ndarray, k: np.ndarray, m: int, n: int, shift: int, base: float) -> ShiftTest:
    """The score at (m, n) and at (m + shift, n + shift): equal up to float rounding."""
    m, n, shift = whole_number(m, "m", 0), whole_number(n, "n", 0), whole_number(shift, "shift", 0)
    return ShiftTest(m, n, shift, score(q, k, m, n, base), score(q, k, m + shift, n + shift, base))


def scores_by_distance(q: np.ndarray, k: np.ndarray, distances, base: float) -> np.ndarray:
    """The score at each distance m - n (m = distance, n = 0; or m = 0, n = -distance for a
    negative one: any pair with that distance gives the same)."""
    return np.array([score(q, k, max(int(d), 0), max(-int(d), 0), base) for d in distances])


def pair_track(pair: np.ndarray, positions, frequency: float) -> np.ndarray:
    """One pair (x, y) rotated to each position: (P, 2), on a circle of radius |(x, y)|."""
    x, y = np.asarray(pair, dtype=np.float64)
    theta = np.asarray(positions, dtype=np.float64) * frequency  # (P,)
    return np.stack(
        [x * np.cos(theta) - y * np.sin(theta), x * np.sin(theta) + y * np.cos(theta)], 1
    )


# --- against learned absolute positions (MiniLM) ----------------------------------------------


def position_cosines(positions: np.ndarray) -> np.ndarray:
    """Cosine similarity of every pair of position vectors: (P, d) -> (P, P)."""
    p = np.asarray(positions, dtype=np.float64)
    unit = p / np.linalg.norm(p, axis=1, keepdims=True)
    return unit @ unit.T


@dataclass(frozen=True)
class AbsoluteHead:
    """What the first layer of an encoder with learned positions does with two words.

    word_q, word_k : (d_model,) the two tokens' vectors (word + token type)
    table : (P, d_model) the learned position vectors
    norm : (gain, bias, eps) of the embedding layer norm
    w_q, b_q, w_k, b_k : the head's projections (d_model, d_k) and biases (d_k,)
    """

    word_q: np.ndarray
    word_k: np.ndarray
    table: np.ndarray
    norm: tuple[np.ndarray, np.ndarray, float]
    w_q: np.ndarray
    b_q: np.ndarray
    w_k: np.ndarray
    b_k: np.ndarray

    def score(self, m: int, n: int) -> float:
        """q . k with word_q at position m and word_k at n:
        q = LN(word_q + p_m) w_q + b_q,  k = LN(word_k + p_n) w_k + b_k."""
        m, n = whole_number(m, "m", 0), whole_number(n, "n", 0)
        if max(m, n) >= len(self.table):
            raise AttentionInputError.said(
                "the model has position vectors 0..{last}.", last=len(self.table) - 1
            )
        x_q = layer_norm(self.word_q + self.table[m], *self.norm)  # (d_model,)
        x_k = layer_norm(self.word_k + self.table[n], *self.norm)
        q = x_q @ self.w_q + self.b_q  # (d_model,) x (d_model, d_k) -> (d_k,)
        k = x_k @ self.w_k + self.b_k
        return float(np.float64(q) @ np.float64(k))

    def shift_test(self, m: int, n: int, shift: int) -> ShiftTest:
        shift = whole_number(shift, "shift", 0)
        return ShiftTest(m, n, shift, self.score(m, n), self.score(m + shift, n + shift))
