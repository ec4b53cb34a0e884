"""Boolean attention masks: True where query i may attend to key j.

The convention is PyTorch's boolean ``attn_mask``. Masks combine with ``&``:
``causal_mask(t) & padding_mask(n, t)``.
"""

from __future__ import annotations

import numpy as np

from attn_core.errors import AttentionInputError, FullyMaskedRowError, ShapeError, whole_number

MAX_LEN = 16_384  # a (T, T) boolean mask of this size is 268 MB already


def _check_len(t: int, name: str = "t") -> int:
    t = whole_number(t, name, 1)
    if t > MAX_LEN:
        raise AttentionInputError.said(
            "{name} = {t} is too long for a T x T mask; at most {max_len}.",
            name=name,
            t=t,
            max_len=MAX_LEN,
        )
    return t


def causal_mask(t: int) -> np.ndarray:
    """(T, T) lower triangle: position i sees positions j <= i, never the future."""
    t = _check_len(t)
    return np.tril(np.ones((t, t), dtype=bool))


def padding_mask(valid_len: int, t: int) -> np.ndarray:
    """(T, T): every query sees only the first `valid_len` keys; later keys are padding."""
    t = _check_len(t)
    valid_len = whole_number(valid_len, "valid_len")
    if not 0 <= valid_len <= t:
        raise AttentionInputError.said(
            "valid_len must be between 0 and {t}, got {valid_len}.", t=t, valid_len=valid_len
        )
    keys_ok = np.arange(t) < valid_len  # (T,)
    return np.broadcast_to(keys_ok, (t, t)).copy()


def window_mask(t: int, width: int) -> np.ndarray:
    """(T, T) band for local attention: i sees j when |i - j| <= width.

    ``width=0`` is the diagonal only; ``width >= T - 1`` is global attention.
    """
    t = _check_len(t)
    width = whole_number(width, "width", 0)
    i = np.arange(t)
    return np.abs(i[:, None] - i[None, :]) <= width


def check_mask(mask, t_q: int, t_k: int, batch: tuple[int, ...] = ()) -> np.ndarray:
    """Validate a mask for (*batch, T_q, T_k) scores; raise FullyMaskedRowError on an empty row.

    The mask may leave out leading batch dimensions (one mask shared by every head),
    but it may not add any: that would silently change the shape of the result.
    """
    mask = np.asarray(mask)
    if mask.dtype != bool:
        raise AttentionInputError.said(
            "mask must be boolean (True = may attend), got {dtype}. "
            "Build it with causal_mask, padding_mask or window_mask.",
            dtype=mask.dtype,
        )
    if mask.shape[-2:] != (t_q, t_k) or not _fits(mask.shape[:-2], batch):
        scores = " x ".join(str(n) for n in (*batch, t_q, t_k))
        raise ShapeError.said(
            "mask has shape {shape}, but the scores are {scores}.", shape=mask.shape, scores=scores
        )
    empty = ~mask.any(axis=-1)  # (..., T_q)
    if empty.any():
        rows = sorted({int(r) for r in np.nonzero(empty)[-1]})
        raise FullyMaskedRowError(rows)
    return mask


def _fits(lead: tuple[int, ...], batch: tuple[int, ...]) -> bool:
    """True when leading mask dimensions broadcast to `batch` without growing it."""
    if len(lead) > len(batch):
        return False
    return all(a in (1, b) for a, b in zip(reversed(lead), reversed(batch), strict=False))
