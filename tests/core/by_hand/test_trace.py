"""attn_core.by_hand.trace and .rules: worked examples, exact fractions, rows, bad input."""

import math
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import attn_core
from attn_core.by_hand.rules import (
    NotWholeNumberError,
    as_float,
    decimal_str,
    frac_str,
    scale_scores,
)
from attn_core.by_hand.trace import concat_z, hand_attention, hand_heads, to_rows
from attn_core.errors import AttentionInputError, NonFiniteError, ShapeError

SETTINGS = settings(max_examples=60, deadline=None)

# Example A, worked by hand. Tokens are columns: t1 = (1, 2), t2 = (1, -1).
X_A = [[1, 1], [2, -1]]
WQ_A = [[1, 0], [0, 1]]  # q = x:                 q1 = (1, 2),  q2 = (1, -1)
WK_A = [[1, 0], [0, -1]]  # flips feature 2:      k1 = (1, -2), k2 = (1, 1)
WV_A = [[1, 1], [0, 1]]  # (f1 + f2, f2):         v1 = (3, 2),  v2 = (0, -1)
# scores[i][j] = k_i . q_j:
#   k1.q1 = 1 - 4 = -3    k1.q2 = 1 + 2 = 3
#   k2.q1 = 1 + 2 = 3     k2.q2 = 1 - 1 = 0
# floor(s/2): floor(-1.5) = -2, floor(1.5) = 1, floor(0) = 0
# 3^x: [[1/9, 3], [3, 1]]; column sums 1/9 + 3 = 28/9 and 3 + 1 = 4
# A: col 1 = (1/9 / (28/9), 3 / (28/9)) = (1/28, 27/28); col 2 = (3/4, 1/4)
# z col 1 = 1/28 (3, 2) + 27/28 (0, -1) = (3/28, 2/28 - 27/28) = (3/28, -25/28)
# z col 2 = 3/4 (3, 2) + 1/4 (0, -1) = (9/4, 6/4 - 1/4) = (9/4, 5/4)


def test_example_a_floor_every_step():
    t = hand_attention(X_A, WQ_A, WK_A, WV_A)
    assert t.q.tolist() == [[1, 1], [2, -1]]
    assert t.k.tolist() == [[1, 1], [-2, 1]]
    assert t.k_t.tolist() == [[1, -2], [1, 1]]
    assert t.v.tolist() == [[3, 0], [2, -1]]
    assert t.scores.tolist() == [[-3, 3], [3, 0]]
    assert t.scaled.tolist() == [[-2, 1], [1, 0]]
    assert t.powers.tolist() == [[F(1, 9), 3], [3, 1]]
    assert t.col_sums.tolist() == [F(28, 9), 4]
    assert t.weights.tolist() == [[F(1, 28), F(3, 4)], [F(27, 28), F(1, 4)]]
    assert t.z.tolist() == [[F(3, 28), F(9, 4)], [F(-25, 28), F(5, 4)]]
    assert (t.scale_rule, t.base, t.mask, t.d_k, t.tokens) == ("floor", 3, None, 2, 2)


def test_example_a_trunc():
    # trunc(-1.5) = -1, so 3^x = [[1/3, 3], [3, 1]]; column 1 sums to 10/3
    # A col 1 = (1/10, 9/10); z col 1 = 1/10 (3, 2) + 9/10 (0, -1) = (3/10, -7/10)
    t = hand_attention(X_A, WQ_A, WK_A, WV_A, scale_rule="trunc")
    assert t.scaled.tolist() == [[-1, 1], [1, 0]]
    assert t.weights.tolist() == [[F(1, 10), F(3, 4)], [F(9, 10), F(1, 4)]]
    assert t.z.tolist() == [[F(3, 10), F(9, 4)], [F(-7, 10), F(5, 4)]]


def test_example_a_causal():
    # query 1 (column 1) may see key 1 only: powers [[1/9, 3], [0, 1]], A col 1 = (1, 0)
    # z col 1 = v1 = (3, 2); column 2 is unchanged
    t = hand_attention(X_A, WQ_A, WK_A, WV_A, causal=True)
    assert t.mask.tolist() == [[True, True], [False, True]]
    assert t.powers.tolist() == [[F(1, 9), 3], [0, 1]]
    assert t.weights.tolist() == [[1, F(3, 4)], [0, F(1, 4)]]
    assert t.z.tolist() == [[3, F(9, 4)], [2, F(5, 4)]]


def test_example_a_base_two():
    # 2^x = [[1/4, 2], [2, 1]]; sums 9/4 and 3; A col 1 = (1/9, 8/9), col 2 = (2/3, 1/3)
    t = hand_attention(X_A, WQ_A, WK_A, WV_A, base=2)
    assert t.weights.tolist() == [[F(1, 9), F(2, 3)], [F(8, 9), F(1, 3)]]


# Example B: a score of -1, where floor(-0.5) = -1 but trunc(-0.5) = 0.
# x = I, so q = w_q = I and k = w_k: k1 = (0, 1), k2 = (-1, 0); v = w_v: v1 = (2, 0), v2 = (0, 4)
# scores[i][j] = k_i[j] = [[0, 1], [-1, 0]]
# floor: [[0, 0], [-1, 0]] -> 3^x = [[1, 1], [1/3, 1]], sums 4/3 and 2
#        A = [[3/4, 1/2], [1/4, 1/2]]; z col 1 = 3/4 (2, 0) + 1/4 (0, 4) = (3/2, 1), col 2 = (1, 2)
# trunc: all zeros -> A = 1/2 everywhere; z = [[1, 1], [2, 2]]
X_B, WQ_B, WK_B, WV_B = [[1, 0], [0, 1]], [[1, 0], [0, 1]], [[0, -1], [1, 0]], [[2, 0], [0, 4]]


def test_example_b_floor_of_minus_one_half():
    t = hand_attention(X_B, WQ_B, WK_B, WV_B)
    assert t.scores.tolist() == [[0, 1], [-1, 0]]
    assert t.scaled.tolist() == [[0, 0], [-1, 0]]
    assert t.weights.tolist() == [[F(3, 4), F(1, 2)], [F(1, 4), F(1, 2)]]
    assert t.z.tolist() == [[F(3, 2), 1], [1, 2]]


def test_example_b_trunc_of_minus_one_half():
    t = hand_attention(X_B, WQ_B, WK_B, WV_B, scale_rule="trunc")
    assert t.scaled.tolist() == [[0, 0], [0, 0]]
    assert t.weights.tolist() == [[F(1, 2)] * 2] * 2
    assert t.z.tolist() == [[1, 1], [2, 2]]


def test_scale_rules_on_negatives():
    s = np.array([-5, -4, -3, -2, -1, 0, 1, 2, 3])
    assert scale_scores(s, "floor").tolist() == [-3, -2, -2, -1, -1, 0, 0, 1, 1]
    assert scale_scores(s, "trunc").tolist() == [-2, -2, -1, -1, 0, 0, 0, 1, 1]
    assert scale_scores(s, "exact", d_k=4).tolist() == (s / 2).tolist()


def test_two_heads_by_hand():
    # Head 2 uses w = I: q = k = v = x. scores = x^T x = [[5, -1], [-1, 2]]
    # floor: [[2, -1], [-1, 1]] -> 3^x = [[9, 1/3], [1/3, 3]], sums 28/3 and 10/3
    # A = [[27/28, 1/10], [1/28, 9/10]]
    # z col 1 = 27/28 (1, 2) + 1/28 (1, -1) = (1, 53/28)
    # z col 2 = 1/10 (1, 2) + 9/10 (1, -1) = (1, -7/10)
    eye = [[1, 0], [0, 1]]
    heads = hand_heads(X_A, WQ_A + eye, WK_A + eye, WV_A + eye, n_heads=2)
    assert len(heads) == 2
    assert heads[0].weights.tolist() == [[F(1, 28), F(3, 4)], [F(27, 28), F(1, 4)]]
    assert heads[1].weights.tolist() == [[F(27, 28), F(1, 10)], [F(1, 28), F(9, 10)]]
    assert concat_z(heads).tolist() == [
        [F(3, 28), F(9, 4)],
        [F(-25, 28), F(5, 4)],
        [1, 1],
        [F(53, 28), F(-7, 10)],
    ]


def test_trace_is_read_only():
    x = np.array(X_A)
    t = hand_attention(x, WQ_A, WK_A, WV_A)
    x[0, 0] = 5  # the caller's array is copied, not kept
    assert t.x[0, 0] == 1
    for name in ("x", "q", "k_t", "scores", "weights", "z"):
        with pytest.raises(ValueError, match="read-only"):
            getattr(t, name)[0, 0] = 0


def test_to_rows_is_the_transpose():
    t = hand_attention(X_A, WQ_A, WK_A, WV_A)
    rows = to_rows(t)
    assert rows["x"].tolist() == [[1, 2], [1, -1]]  # tokens are rows now
    assert rows["weights"].tolist() == [[F(1, 28), F(27, 28)], [F(3, 4), F(1, 4)]]
    assert rows["output"].tolist() == [[F(3, 28), F(-25, 28)], [F(9, 4), F(5, 4)]]
    assert rows["mask"] is None
    assert all(sum(r) == 1 for r in rows["weights"].tolist())


def test_formatting():
    assert frac_str(F(9, 28)) == "9/28"
    assert frac_str(F(-25, 28)) == "-25/28"
    assert frac_str(F(6, 2)) == "3"
    assert frac_str(np.int64(-2)) == "-2"
    assert frac_str(0.5) == "0.500"
    assert decimal_str(F(9, 28)) == "0.321"
    assert decimal_str(F(1, 3), digits=2) == "0.33"
    assert decimal_str(F(5, 16)) == "0.313"  # 0.3125: halves round away from 0, as by hand
    assert decimal_str(F(-5, 16)) == "-0.313"
    assert decimal_str(F(-1, 3000)) == "0.000"
    assert as_float(np.array([F(1, 4), F(3, 4)], dtype=object)).tolist() == [0.25, 0.75]


def test_whole_floats_are_accepted():
    t = hand_attention(np.array(X_A, dtype=float), WQ_A, WK_A, WV_A)
    assert t.x.dtype == np.int64
    assert t.weights.tolist() == [[F(1, 28), F(3, 4)], [F(27, 28), F(1, 4)]]


# -- bad input ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "x, error, words",
    [
        ([[1, 0.5], [2, -1]], NotWholeNumberError, "row 1, column 2"),
        ([[1, float("nan")], [2, -1]], NonFiniteError, "NaN"),
        ([[True, False], [False, True]], AttentionInputError, "True/False"),
        ([["a", "b"], ["c", "d"]], AttentionInputError, "whole numbers"),
        ([[1, 2], [3]], ShapeError, "same length"),
        ([1, 2], ShapeError, "2-D"),
        ([[1, 2], [100, 0]], AttentionInputError, "99"),
    ],
)
def test_bad_x_says_what_to_change(x, error, words):
    with pytest.raises(error, match=words):
        hand_attention(x, WQ_A, WK_A, WV_A)


def test_non_integer_weights_rejected():
    with pytest.raises(NotWholeNumberError, match="w_k row 2, column 1 is 0.25"):
        hand_attention(X_A, WQ_A, [[1, 0], [0.25, 1]], WV_A)


def test_shape_errors():
    with pytest.raises(ShapeError, match="w_q has 3 columns but x has d_model = 2"):
        hand_attention(X_A, [[1, 0, 0]], WK_A, WV_A)
    with pytest.raises(ShapeError, match="same number of rows"):
        hand_attention(X_A, [[1, 0]], WK_A, WV_A)
    with pytest.raises(ShapeError, match="multiple of 2"):
        hand_heads(X_A, [[1, 0]] * 3, [[1, 0]] * 3, [[1, 0]] * 3, n_heads=2)


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"scale_rule": "round"}, "scale_rule"),
        ({"base": 1}, "base"),
        ({"base": True}, "base"),
        ({"base": 2.5}, "base"),
    ],
)
def test_bad_rules(kwargs, words):
    with pytest.raises(AttentionInputError, match=words):
        hand_attention(X_A, WQ_A, WK_A, WV_A, **kwargs)


def test_huge_exponent_is_refused():
    big = [[99, 99], [99, 99]]
    with pytest.raises(AttentionInputError, match="too large"):
        hand_attention(big, big, big, big)


# -- properties ----------------------------------------------------------------------------


@st.composite
def problems(draw, max_t=4, max_d=4):
    t, d_model = draw(st.integers(1, max_t)), draw(st.integers(1, max_d))
    d_k, d_v = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    ints = st.integers(-2, 2)

    def mat(rows, cols):
        return draw(
            st.lists(st.lists(ints, min_size=cols, max_size=cols), min_size=rows, max_size=rows)
        )

    return mat(d_model, t), mat(d_k, d_model), mat(d_k, d_model), mat(d_v, d_model)


def naive_hand(x, w_q, w_k, w_v, floor=True, base=3):
    """Loops and Fractions only: the oracle for hand_attention."""
    t, d_k = len(x[0]), len(w_q)

    def col(w, j):
        return [sum(w[r][f] * x[f][j] for f in range(len(x))) for r in range(len(w))]

    q, k, v = ([col(w, j) for j in range(t)] for w in (w_q, w_k, w_v))  # token-major
    scaled = [[0] * t for _ in range(t)]
    for i in range(t):
        for j in range(t):
            s = sum(k[i][d] * q[j][d] for d in range(d_k))
            scaled[i][j] = math.floor(s / 2) if floor else int(s / 2)
    a = [[F(base) ** scaled[i][j] for j in range(t)] for i in range(t)]
    for j in range(t):
        total = sum(a[i][j] for i in range(t))
        for i in range(t):
            a[i][j] /= total
    z = [[sum(a[i][j] * v[i][r] for i in range(t)) for j in range(t)] for r in range(len(w_v))]
    return a, z


@SETTINGS
@given(problems(), st.sampled_from(["floor", "trunc"]))
def test_matches_naive_loops(p, rule):
    t = hand_attention(*p, scale_rule=rule)
    a, z = naive_hand(*p, floor=rule == "floor")
    assert t.weights.tolist() == a
    assert t.z.tolist() == z


@SETTINGS
@given(problems(), st.booleans(), st.sampled_from(["floor", "trunc"]))
def test_columns_sum_to_exactly_one(p, causal, rule):
    t = hand_attention(*p, causal=causal, scale_rule=rule)
    assert all(s == F(1) for s in t.weights.sum(axis=0))
    assert all(isinstance(a, F) for a in t.weights.ravel())
    assert all(a >= 0 for a in t.weights.ravel())
    assert (t.v.astype(object) @ t.weights).tolist() == t.z.tolist()


@SETTINGS
@given(problems())
def test_floor_and_trunc_differ_only_on_negative_odd_scores(p):
    fl, tr = hand_attention(*p), hand_attention(*p, scale_rule="trunc")
    odd_negative = (fl.scores < 0) & (fl.scores % 2 == 1)
    assert np.array_equal(tr.scaled - fl.scaled, odd_negative.astype(int))


@SETTINGS
@given(problems())
def test_causal_masks_future_keys(p):
    t = hand_attention(*p, causal=True)
    n = t.tokens
    below = np.tril(np.ones((n, n), dtype=bool), k=-1)  # key i > query j
    assert all(w == 0 for w in t.weights[below])
    assert all(w > 0 for w in t.weights[~below])
    assert t.weights[0, 0] == 1  # the first token can only look at itself


@SETTINGS
@given(problems(), st.randoms(use_true_random=False))
def test_permuting_tokens_permutes_weights(p, rnd):
    x = np.array(p[0])
    perm = list(range(x.shape[1]))
    rnd.shuffle(perm)
    t, tp = hand_attention(*p), hand_attention(x[:, perm], *p[1:])
    assert tp.weights.tolist() == t.weights[np.ix_(perm, perm)].tolist()
    assert tp.z.tolist() == t.z[:, perm].tolist()


@SETTINGS
@given(problems(max_t=5, max_d=5))
def test_exact_rule_is_the_row_convention_transposed(p):
    x, w_q, w_k, w_v = (np.array(a, dtype=float) for a in p)
    hand = hand_attention(*p, scale_rule="exact")
    ref = attn_core.self_attention(x.T, w_q.T, w_k.T, w_v.T)  # tokens as rows, scale 1/sqrt(d_k)
    rows = to_rows(hand)
    np.testing.assert_allclose(rows["scores"], ref.scores, rtol=0, atol=1e-12)
    np.testing.assert_allclose(rows["weights"], ref.weights, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(rows["output"], ref.output, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(hand.weights.sum(axis=0), 1.0)
    assert hand.base == math.e


def test_exact_causal_matches_the_row_causal_mask():
    x, w_q, w_k, w_v = (np.array(a, dtype=float) for a in (X_A, WQ_A, WK_A, WV_A))
    hand = hand_attention(X_A, WQ_A, WK_A, WV_A, scale_rule="exact", causal=True)
    ref = attn_core.self_attention(x.T, w_q.T, w_k.T, w_v.T, mask=attn_core.causal_mask(2))
    np.testing.assert_array_equal(hand.mask.T, ref.mask)
    np.testing.assert_allclose(hand.weights.T, ref.weights, rtol=1e-12)
    np.testing.assert_allclose(hand.z.T, ref.output, rtol=1e-12)


@SETTINGS
@given(problems(), st.integers(1, 3))
def test_heads_are_independent_single_heads(p, n_heads):
    x, w_q, w_k, w_v = (np.array(a) for a in p)
    w_q, w_k, w_v = (np.tile(w, (n_heads, 1)) for w in (w_q, w_k, w_v))
    w_v[-1] = 0  # make the last head's values differ
    heads = hand_heads(x, w_q, w_k, w_v, n_heads=n_heads)
    d_k, d_v = len(p[1]), len(p[3])
    for h, tr in enumerate(heads):
        one = hand_attention(
            x,
            w_q[h * d_k : (h + 1) * d_k],
            w_k[h * d_k : (h + 1) * d_k],
            w_v[h * d_v : (h + 1) * d_v],
        )
        assert tr.z.tolist() == one.z.tolist()
    assert concat_z(heads).shape == (n_heads * d_v, x.shape[1])
