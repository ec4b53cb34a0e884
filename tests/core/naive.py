"""Naive loop implementations: the oracle the vectorised core is compared against.

Plain Python loops over indices and the ``math`` module only, no NumPy maths,
so a bug in a NumPy idiom (an axis, a transpose, a reshape) cannot hide in both.
Inputs are nested lists or arrays; outputs are lists of lists of floats.
"""

from __future__ import annotations

import math


def matmul_transposed(q, k):
    """scores[i][j] = sum_d q[i][d] * k[j][d]: one dot product per (query, key)."""
    t_q, t_k, d_k = len(q), len(k), len(q[0])
    scores = [[0.0] * t_k for _ in range(t_q)]
    for i in range(t_q):
        for j in range(t_k):
            s = 0.0
            for d in range(d_k):
                s += float(q[i][d]) * float(k[j][d])
            scores[i][j] = s
    return scores


def matmul(a, b):
    """out[i][c] = sum_j a[i][j] * b[j][c]."""
    rows, inner, cols = len(a), len(b), len(b[0])
    out = [[0.0] * cols for _ in range(rows)]
    for i in range(rows):
        for c in range(cols):
            s = 0.0
            for j in range(inner):
                s += float(a[i][j]) * float(b[j][c])
            out[i][c] = s
    return out


def softmax_row(row):
    """One distribution; -inf entries get exactly 0. Subtract the max first."""
    m = max(row)
    exps = [0.0 if x == -math.inf else math.exp(x - m) for x in row]
    total = sum(exps)
    return [e / total for e in exps]


def softmax_rows(rows):
    return [softmax_row(r) for r in rows]


def attention(q, k, v, mask=None, scale=None, temperature=1.0):
    """Returns (scores, weights, output) computed with loops."""
    d_k = len(q[0])
    scale = 1.0 / math.sqrt(d_k) if scale is None else scale
    scores = matmul_transposed(q, k)
    masked = []
    for i, row in enumerate(scores):
        masked_row = []
        for j, s in enumerate(row):
            allowed = True if mask is None else bool(mask[i][j])
            masked_row.append(s * scale / temperature if allowed else -math.inf)
        masked.append(masked_row)
    weights = softmax_rows(masked)
    return scores, weights, matmul(weights, v)


def columns(w, start, stop):
    """The sub-matrix w[:, start:stop] as lists."""
    return [[row[c] for c in range(start, stop)] for row in w]


def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads, mask=None):
    """Returns (per-head weights, concat, output): slice each head's columns, attend, concat."""
    d_k = len(w_q[0]) // n_heads
    d_v = len(w_v[0]) // n_heads
    all_weights, outputs = [], []
    for h in range(n_heads):
        q = matmul(x, columns(w_q, h * d_k, (h + 1) * d_k))
        k = matmul(x, columns(w_k, h * d_k, (h + 1) * d_k))
        v = matmul(x, columns(w_v, h * d_v, (h + 1) * d_v))
        _, weights, z = attention(q, k, v, mask=mask)
        all_weights.append(weights)
        outputs.append(z)
    concat = []
    for i in range(len(x)):
        row = []
        for h in range(n_heads):
            row.extend(outputs[h][i])
        concat.append(row)
    return all_weights, concat, matmul(concat, w_o)


def additive_attention(query, keys, values, w_1, w_2, v_a):
    """Returns (scores, weights, context): score_i = v_a . tanh(w_1 query + w_2 key_i)."""
    d_a = len(v_a)
    scores = []
    for key in keys:
        score = 0.0
        for a in range(d_a):
            pre = sum(float(w_1[a][c]) * float(query[c]) for c in range(len(query)))
            pre += sum(float(w_2[a][c]) * float(key[c]) for c in range(len(key)))
            score += float(v_a[a]) * math.tanh(pre)
        scores.append(score)
    weights = softmax_row(scores)
    context = [
        sum(weights[i] * float(values[i][c]) for i in range(len(values)))
        for c in range(len(values[0]))
    ]
    return scores, weights, context
