"""Word order: attention alone does not see it; position vectors added to x do.

With no mask, self-attention is permutation-equivariant: shuffle the token rows of x and
the output rows come out shuffled the same way, every number otherwise unchanged,

    attention(x[order]) = attention(x)[order]

because every query meets every key whatever their places. "dog bites man" and "man bites
dog" give the same three output rows. Adding a position vector p_i to row i before the
projections breaks the symmetry (the original Transformer's sine and cosine waves):

    x_i + p_i,    p[i, 2j] = sin(i / base^(2j/d)),    p[i, 2j + 1] = cos(i / base^(2j/d))
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attn_core.attention import Trace, self_attention
from attn_core.errors import AttentionInputError, as_matrix, positive_number, whole_number


def sinusoidal_positions(n_positions: int, d: int, base: float = 10000.0) -> np.ndarray:
    """The original Transformer's position vectors, one row per position.

    p[i, 2j] = sin(i / base^(2j/d)),  p[i, 2j + 1] = cos(i / base^(2j/d))

    Parameters
    ----------
    n_positions : int   T, at least 1
    d : int             features per row (d_model), at least 1; an odd d ends on a sine
    base : float        the longest wavelength's scale (10000 in the paper)

    Returns
    -------
    p : (T, d) float64, entries in [-1, 1]
    """
    for name, n in (("n_positions", n_positions), ("d", d)):
        whole_number(n, name, 1)
    base = positive_number(base, "base")
    i = np.arange(n_positions)[:, None]  # (T, 1): the positions
    pair = np.arange(d) // 2  # (d,): features 2j and 2j + 1 share frequency j
    angle = i / base ** (2 * pair / d)  # (T, 1) / (d,) -> (T, d)
    return np.where(np.arange(d) % 2 == 0, np.sin(angle), np.cos(angle))


@dataclass(frozen=True, eq=False)
class OrderTrace:
    """One sentence and the same tokens in another order, with and without positions.

    Attributes
    ----------
    order : (T,) int     row i of the reordered sentence is token order[i] of the original
    positions : (T, d_model)  the p added in the `*_pos` traces
    plain, reordered : Trace          attention on x and on x[order]
    plain_pos, reordered_pos : Trace  attention on x + p and on x[order] + p
    """

    order: np.ndarray
    positions: np.ndarray
    plain: Trace
    reordered: Trace
    plain_pos: Trace
    reordered_pos: Trace

    @property
    def gap(self) -> float:
        """max |attention(x[order]) - attention(x)[order]|: 0 up to rounding."""
        return float(np.abs(self.reordered.output - self.plain.output[self.order]).max())

    @property
    def gap_pos(self) -> float:
        """The same with positions added: no longer 0, the order now shows."""
        return float(np.abs(self.reordered_pos.output - self.plain_pos.output[self.order]).max())


def reorder_test(x, w_q, w_k, w_v, order) -> OrderTrace:
    """Attend over x and over its rows in `order`, each without and with sinusoidal positions.

    Parameters
    ----------
    x : (T, d_model)
    w_q, w_k : (d_model, d_k)    w_v : (d_model, d_v)
    order : (T,) a permutation of 0 .. T-1

    Returns
    -------
    OrderTrace
    """
    x = as_matrix(x, "x")
    order = np.asarray(order)
    if order.shape != (x.shape[0],) or not np.array_equal(np.sort(order), np.arange(x.shape[0])):
        raise AttentionInputError.said(
            "order must list each of the {count} positions 0 to {last} once.",
            count=x.shape[0],
            last=x.shape[0] - 1,
        )
    p = sinusoidal_positions(*x.shape)  # (T, d_model)
    return OrderTrace(
        order=order,
        positions=p,
        plain=self_attention(x, w_q, w_k, w_v),
        reordered=self_attention(x[order], w_q, w_k, w_v),
        plain_pos=self_attention(x + p, w_q, w_k, w_v),
        reordered_pos=self_attention(x[order] + p, w_q, w_k, w_v),
    )
