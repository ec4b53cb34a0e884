"""The one seeded source of weight matrices for lessons, notebooks and tests."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attn_core.errors import whole_number


@dataclass(frozen=True, eq=False)
class Weights:
    """Projection matrices, heads side by side in the columns.

    w_q, w_k : (d_model, n_heads*d_k)    w_v : (d_model, n_heads*d_v)
    w_o : (n_heads*d_v, d_model)
    """

    w_q: np.ndarray
    w_k: np.ndarray
    w_v: np.ndarray
    w_o: np.ndarray


def lesson_weights(
    d_model: int, d_k: int, d_v: int | None = None, *, n_heads: int = 1, seed: int = 0
) -> Weights:
    """Random projections with entries ~ N(0, 1/d_model).

    With that variance, unit-variance inputs give q, k, v entries of variance
    about 1, which is the setting in which the 1/sqrt(d_k) scaling is derived.
    The same arguments always give the same matrices, and head h's columns
    depend only on (seed, h): adding heads leaves the earlier heads unchanged.
    """
    d_v = d_k if d_v is None else d_v
    for name, n in (("d_model", d_model), ("d_k", d_k), ("d_v", d_v), ("n_heads", n_heads)):
        whole_number(n, name, 1)
    # not None, which would draw fresh entropy: the same arguments must give the same matrices
    whole_number(seed, "seed", 0)
    std = 1.0 / np.sqrt(d_model)
    heads = [np.random.default_rng([seed, h]) for h in range(n_heads)]
    w_q, w_k, w_v = (
        np.hstack([rng.normal(0.0, std, (d_model, d)) for rng in heads])  # head h: its columns
        for d in (d_k, d_k, d_v)
    )  # each head's generator draws its w_q block, then w_k, then w_v
    rng_o = np.random.default_rng([seed, n_heads, 2**31])  # w_o mixes all heads: its own stream
    w_o = rng_o.normal(0.0, 1.0 / np.sqrt(n_heads * d_v), (n_heads * d_v, d_model))
    return Weights(w_q, w_k, w_v, w_o)
