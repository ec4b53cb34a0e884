"""Cross-attention: the queries come from one sequence, the keys and values from another.

q = x w_q           (T_q, d_k)   the sequence that asks (a decoder, a translation)
k = memory w_k      (T_k, d_k)   the sequence that is read (the encoder's output)
v = memory w_v      (T_k, d_v)
weights = softmax(q k^T / sqrt(d_k)) by row   (T_q, T_k): a row per query, a column per key

Self-attention is the special case ``memory = x``: then T_q = T_k and the weights are square.
"""

from __future__ import annotations

from dataclasses import replace

from attn_core.attention import Trace, attention
from attn_core.errors import ShapeError, as_matrix


def cross_attention(
    x, memory, w_q, w_k, w_v, *, mask=None, scale=None, temperature: float = 1.0
) -> Trace:
    """Attend from the rows of `x` to the rows of `memory`.

    q = x w_q,  k = memory w_k,  v = memory w_v,  output = softmax(q k^T / sqrt(d_k)) v

    Parameters
    ----------
    x : (T_q, d_model)        one row per query token
    memory : (T_k, d_model)   one row per key/value token; T_k may differ from T_q
    w_q, w_k : (d_model, d_k)
    w_v : (d_model, d_v)
    mask : (T_q, T_k) bool, optional    True where query i may attend to key j

    Returns
    -------
    Trace with ``weights`` (T_q, T_k) and ``output`` (T_q, d_v); ``x, w_q, w_k, w_v`` are
    recorded (``x`` is the query side; ``k`` and ``v`` hold the projected memory).
    """
    x, memory = as_matrix(x, "x"), as_matrix(memory, "memory")
    if x.shape[1] != memory.shape[1]:
        raise ShapeError.said(
            "x has {x_features} features per token but memory has {memory_features}; both "
            "sequences must be embedded with the same d_model.",
            x_features=x.shape[1],
            memory_features=memory.shape[1],
        )
    ws = [as_matrix(w, n) for w, n in ((w_q, "w_q"), (w_k, "w_k"), (w_v, "w_v"))]
    for w, n in zip(ws, ("w_q", "w_k", "w_v"), strict=True):
        if w.shape[0] != x.shape[1]:
            raise ShapeError.said(
                "{name} has {rows} rows but d_model = {d_model}; {name} must be (d_model, d).",
                name=n,
                rows=w.shape[0],
                d_model=x.shape[1],
            )
    w_q, w_k, w_v = ws
    q = x @ w_q  # (T_q, d_model) x (d_model, d_k) -> (T_q, d_k)
    k, v = memory @ w_k, memory @ w_v  # (T_k, d_model) x (d_model, d) -> (T_k, d)
    t = attention(q, k, v, mask=mask, scale=scale, temperature=temperature)
    return replace(t, x=x, w_q=w_q, w_k=w_k, w_v=w_v)
