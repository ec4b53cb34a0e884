"""Attention in tiles: the online softmax behind FlashAttention, one block of keys at a time.

The keys and values are read `block` at a time. Each query row i keeps three running things:

m_i  the largest score seen so far                        (starts at -inf)
l_i  sum of exp(s_ij - m_i) over the keys seen so far     (starts at 0)
u_i  sum of exp(s_ij - m_i) v_j over the same keys        (starts at 0; unnormalised)

For the next tile of scores s (keys j in the block):

m_new   = max(m, max_j s_ij)
c       = exp(m - m_new)                   rescale: the earlier terms were taken against m
l       = c l + sum_j exp(s_ij - m_new)
u       = c u + sum_j exp(s_ij - m_new) v_j
output  = u / l                            after the last block: exactly softmax(s) v

Only a (T_q, block) tile of scores exists at any time, never the (T_q, T_k) matrix: the
extra memory grows like T, not T^2 (``memory_bytes``). Keys masked out have s = -inf and
add exp(-inf) = 0. A row whose keys so far are all masked still has m = -inf; there
``m - m_new`` would be -inf - (-inf) = NaN, so those rows are handled on their own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from attn_core.attention import _check_qkv
from attn_core.errors import AttentionInputError, ShapeError, positive_number, whole_number
from attn_core.masks import check_mask


@dataclass(frozen=True, eq=False)
class TileStep:
    """What one block of keys changes. Rows are queries; b is the number of keys in the block.

    Attributes
    ----------
    start, stop : int      the block holds keys start .. stop - 1
    scores : (T_q, b)      the tile: scaled scores q k^T * scale, -inf where the mask forbids
    m : (T_q,)             running row maximum after this block (-inf: no allowed key yet)
    rescale : (T_q,)       exp(m_before - m), what l and u from earlier blocks were multiplied
                           by; 0 on the first block (nothing before), 1 where m did not move
    l : (T_q,)             running sum of exp(s - m) over every key so far
    unnormalised : (T_q, d_v)   u, running sum of exp(s - m) v over every key so far
    output : (T_q, d_v)    u / l: attention over the keys seen so far, already a weighted
                           average of their values (rows with no allowed key yet: 0)
    """

    start: int
    stop: int
    scores: np.ndarray
    m: np.ndarray
    rescale: np.ndarray
    l: np.ndarray
    unnormalised: np.ndarray
    output: np.ndarray


@dataclass(frozen=True, eq=False)
class TiledTrace:
    """Attention computed block by block, every step kept.

    Attributes
    ----------
    q : (T_q, d_k)    k : (T_k, d_k)    v : (T_k, d_v)
    block : int                  keys per block (the last block may be shorter)
    scale : float                the factor applied to the scores
    mask : (T_q, T_k) bool or None, True where query i may attend to key j
    steps : tuple of TileStep    one per block, ceil(T_k / block) of them
    output : (T_q, d_v)          the last step's output: equals ``attention(q, k, v).output``
    """

    q: np.ndarray
    k: np.ndarray
    v: np.ndarray
    block: int
    scale: float
    mask: np.ndarray | None
    steps: tuple[TileStep, ...]
    output: np.ndarray

    @property
    def m(self) -> np.ndarray:
        """(T_q,) every row's largest scaled score."""
        return self.steps[-1].m

    @property
    def l(self) -> np.ndarray:
        """(T_q,) every row's softmax denominator, sum_j exp(s_ij - m_i)."""
        return self.steps[-1].l


def _check_block(block) -> int:
    block = whole_number(block, "block")
    if block < 1:
        raise AttentionInputError.said("block must hold at least 1 key, got {block}.", block=block)
    return block


def _checked(q, k, v, block, mask, scale):
    """The inputs checked as ``attention`` checks them, plus the block; one head only."""
    q, k, v = _check_qkv(q, k, v)
    if q.ndim != 2:
        raise ShapeError.said(
            "tiled_attention takes one head: q, k and v must be 2-D (tokens as rows); "
            "got shapes {q_shape}, {k_shape}, {v_shape}.",
            q_shape=q.shape,
            k_shape=k.shape,
            v_shape=v.shape,
        )
    block = _check_block(block)
    scale = 1.0 / math.sqrt(q.shape[-1]) if scale is None else positive_number(scale, "scale")
    if mask is not None:
        mask = check_mask(mask, q.shape[0], k.shape[0])
    return q, k, v, block, scale, mask


def _rescale(m_old: np.ndarray, m_new: np.ndarray) -> np.ndarray:
    """exp(m_old - m_new) by row; 1 where no allowed key has been seen (both -inf).

    -inf - (-inf) is NaN in floating point, so those rows skip the subtraction. Where only
    m_old is -inf (the first allowed key), exp(-inf) = 0 wipes the empty sums, as it should.
    """
    seen = np.isfinite(m_new)  # (T_q,)
    shift = np.zeros_like(m_new)  # (T_q,)
    shift[seen] = m_old[seen] - m_new[seen]
    return np.exp(shift)


def _exp_shifted(tile: np.ndarray, m: np.ndarray) -> np.ndarray:
    """exp(s_ij - m_i) for a (T_q, b) tile; 0 in rows where m is still -inf (all masked)."""
    m_safe = np.where(np.isfinite(m), m, 0.0)  # (T_q,): -inf - 0 = -inf, and exp(-inf) = 0
    return np.exp(tile - m_safe[:, None])  # (T_q, b)


def tiled_attention(q, k, v, *, block: int, mask=None, scale=None) -> TiledTrace:
    """Scaled dot-product attention, softmax(q k^T * scale + M) v, read `block` keys at a time.

    Parameters
    ----------
    q : (T_q, d_k)
    k : (T_k, d_k)
    v : (T_k, d_v)
        One head: 2-D arrays, tokens as rows. T_q and T_k may differ (cross-attention).
    block : int >= 1
        Keys (and values) per block. Any size: the last block takes what is left.
    mask : (T_q, T_k) bool, optional
        True where query i may attend to key j. A row with no True raises
        ``FullyMaskedRowError``, as in ``attention``.
    scale : float, optional
        Factor for the scores; default ``1 / sqrt(d_k)``.

    Returns
    -------
    TiledTrace, whose ``output`` equals ``attention(q, k, v, mask=mask, scale=scale).output``
    up to rounding.
    """
    q, k, v, block, scale, mask = _checked(q, k, v, block, mask, scale)
    m, l, u = start_state(q.shape[0], v.shape[1])
    steps = []
    for start, stop, tile in tiles(q, k, block, mask, scale):
        m, c, l, u = update(m, l, u, tile, v[start:stop])
        output = u / np.where(l > 0, l, 1.0)[:, None]  # (T_q, d_v); 0 where l is still 0
        steps.append(TileStep(start, stop, tile, m, c, l, u, output))
    return TiledTrace(q, k, v, block, float(scale), mask, tuple(steps), steps[-1].output)


def tiled_output(q, k, v, *, block: int, mask=None, scale=None) -> np.ndarray:
    """The output of `tiled_attention` (T_q, d_v), keeping nothing but the running m, l, u.

    `tiled_attention` keeps every tile for the page, so together they hold the whole
    T_q x T_k matrix again; this is the algorithm's real memory: one tile at a time
    (``bench/bench_tiled.py`` measures both).
    """
    q, k, v, block, scale, mask = _checked(q, k, v, block, mask, scale)
    m, l, u = start_state(q.shape[0], v.shape[1])
    for start, stop, tile in tiles(q, k, block, mask, scale):
        m, _, l, u = update(m, l, u, tile, v[start:stop])
    return u / l[:, None]  # (T_q, d_v); l > 0 in every row: check_mask refuses empty rows


def start_state(t_q: int, d_v: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """m = -inf, l = 0, u = 0: no key read yet.  (T_q,), (T_q,), (T_q, d_v)"""
    return np.full(t_q, -np.inf), np.zeros(t_q), np.zeros((t_q, d_v))


def tiles(q, k, block: int, mask, scale: float):
    """(start, stop, tile) for each block of keys; tile (T_q, b) = q k_block^T * scale, -inf
    where the mask forbids. One tile exists at a time."""
    for start in range(0, k.shape[0], block):
        stop = min(start + block, k.shape[0])
        tile = (q @ k[start:stop].T) * scale  # (T_q, d_k) x (d_k, b) -> (T_q, b)
        if mask is not None:
            tile = np.where(mask[:, start:stop], tile, -np.inf)
        yield start, stop, tile


def update(m, l, u, tile, v_block):
    """One block of the online softmax: the running (m, l, u) and a tile -> (m, c, l, u).

    m_new = max(m, row max of the tile)       (T_q,)
    c     = exp(m - m_new)                    (T_q,)
    l     = c l + row sums of exp(tile - m_new)
    u     = c u + exp(tile - m_new) v_block   (T_q, b) x (b, d_v) -> (T_q, d_v)
    """
    m_new = np.maximum(m, tile.max(axis=1))  # (T_q,)
    c = _rescale(m, m_new)  # (T_q,)
    p = _exp_shifted(tile, m_new)  # (T_q, b)
    l = c * l + p.sum(axis=1)  # (T_q,)
    u = c[:, None] * u + p @ v_block  # (T_q, b) x (b, d_v) -> (T_q, d_v)
    return m_new, c, l, u


def memory_bytes(t: int, block: int, d_v: int, itemsize: int = 8) -> tuple[int, int]:
    """Bytes of the scores one head holds at once: (full, tiled).

    full  = T x T scores                                  (what ``attention`` keeps)
    tiled = T x block tile + m and l (T each) + u (T x d_v)   (what ``tiled_attention`` needs)
    """
    full = t * t * itemsize
    tiled = (t * min(block, t) + 2 * t + t * d_v) * itemsize
    return full, tiled


def distance_per_step(t: TiledTrace, z: np.ndarray) -> np.ndarray:
    """(n_blocks,) max |output after each block - z|: how far each row still is from `z`
    (full attention's output), step by step. After the last block only rounding is left."""
    return np.array([np.abs(s.output - z).max() for s in t.steps])
