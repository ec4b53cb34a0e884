"""attn_core.by_hand.checking: answers read, grids marked, and deliberately wrong grids diagnosed.

Every wrong grid below was worked out by hand from Example C (or Example A of
test_pencil.py, whose d_k equals its number of tokens), not taken from the code.
"""

import math
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest

from attn_core.by_hand.answers import (
    Answer,
    AnswerError,
    close,
    parse_answer,
    parse_grid,
    whole_grid,
)
from attn_core.by_hand.checking import STEPS, check_grid, expected
from attn_core.by_hand.compare import compare_exact, rule_cells, top_keys
from attn_core.by_hand.exercises import make_exercise
from attn_core.by_hand.mistakes import variants
from attn_core.by_hand.rules import decimal_str, frac_str
from attn_core.by_hand.trace import hand_attention
from attn_core.errors import AttentionInputError, ShapeError

# Example C. Tokens are columns: t1 = (1, 0), t2 = (0, 1), t3 = (1, 1).
X_C = [[1, 0, 1], [0, 1, 1]]
WQ_C = [[1, 0], [0, 1]]  # q = x:             q1 = (1, 0), q2 = (0, 1), q3 = (1, 1)
WK_C = [[1, 1], [0, -1]]  # (f1 + f2, -f2):   k1 = (1, 0), k2 = (1, -1), k3 = (2, -1)
WV_C = [[1, 0], [1, 1]]  # (f1, f1 + f2):     v1 = (1, 1), v2 = (0, 1),  v3 = (1, 2)
# S[i][j] = k_i . q_j = [[1, 0, 1], [1, -1, 0], [2, -1, 1]]   (not symmetric)
# floor(S / 2) = [[0, 0, 0], [0, -1, 0], [1, -1, 0]]; trunc gives 0 for both -1 scores
# 3^x = [[1, 1, 1], [1, 1/3, 1], [3, 1/3, 1]]; column sums 5, 5/3, 3
# A = [[1/5, 3/5, 1/3], [1/5, 1/5, 1/3], [3/5, 1/5, 1/3]]
# Z = V A: col 1 = 1/5 (1,1) + 1/5 (0,1) + 3/5 (1,2) = (4/5, 8/5); col 2 = (4/5, 6/5);
#          col 3 = 1/3 (2, 4) = (2/3, 4/3)
S_C = [[1, 0, 1], [1, -1, 0], [2, -1, 1]]
A_C = [[F(1, 5), F(3, 5), F(1, 3)], [F(1, 5), F(1, 5), F(1, 3)], [F(3, 5), F(1, 5), F(1, 3)]]
Z_C = [[F(4, 5), F(4, 5), F(2, 3)], [F(8, 5), F(6, 5), F(4, 3)]]

X_A, WQ_A, WK_A, WV_A = [[1, 1], [2, -1]], [[1, 0], [0, 1]], [[1, 0], [0, -1]], [[1, 1], [0, 1]]


@pytest.fixture(scope="module")
def c():
    return hand_attention(X_C, WQ_C, WK_C, WV_C)


@pytest.fixture(scope="module")
def c_causal():
    return hand_attention(X_C, WQ_C, WK_C, WV_C, causal=True)


def strings(grid) -> list[list[str]]:
    return [[str(v) for v in row] for row in grid]


def keys(check) -> list[str]:
    return [m.key for m in check.diagnoses]


# -- reading answers ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "cell, value, exact",
    [
        ("4", 4, True),
        (" -2 ", -2, True),
        ("\u22122", -2, True),
        ("9/28", F(9, 28), True),
        ("-1 / 3", F(-1, 3), True),
        ("18/56", F(9, 28), True),
        ("0.32", F(8, 25), False),
        (".5", F(1, 2), False),
        ("0,5", F(1, 2), False),
        ("3.0", 3, False),
        (7, 7, True),
        (np.int64(-3), -3, True),
        (2.0, 2, True),
        (0.25, F(1, 4), False),
        (F(2, 3), F(2, 3), True),
    ],
)
def test_parse_answer(cell, value, exact):
    assert parse_answer(cell) == Answer(F(value), exact)


@pytest.mark.parametrize("cell", [None, "", "   ", float("nan"), np.nan])
def test_blank_cells_are_unanswered(cell):
    assert parse_answer(cell) is None


@pytest.mark.parametrize(
    "cell, words",
    [
        ("abc", "'abc', which is not a number"),
        ("1/0", "cannot have 0 below"),
        ("2/3/4", "not a number"),
        ("1e3", "not a number"),
        ("3^2", "not a number"),
        (True, "not a number"),
        (float("inf"), "not a number"),
        ("1" * 40, "40 characters"),
    ],
)
def test_bad_cells_are_named(cell, words):
    with pytest.raises(AnswerError, match="Q, row 2, column t3") as err:
        parse_answer(cell, "Q, row 2, column t3")
    assert words in str(err.value) and "fraction (9/28)" in str(err.value)


def test_parse_grid_names_several_bad_cells():
    with pytest.raises(AnswerError) as err:
        parse_grid([["1", "x"], ["y", "2"]], "K", ["1", "2"], ["t1", "t2"])
    assert "K, row 1, column t2" in str(err.value) and "K, row 2, column t1" in str(err.value)
    assert issubclass(AnswerError, AttentionInputError)


def test_whole_grid():
    assert whole_grid([["1", "-2"], [0, "3"]], "X").tolist() == [[1, -2], [0, 3]]
    assert whole_grid([[1.0, 2.0]], "X").dtype == np.int64
    for cells, words in (
        ([["1", "1.5"]], "X, row 1, column 2 is 1.5, not a whole number"),
        ([["1", "1/2"]], "not a whole number"),
        ([["1", ""]], "X, row 1, column 2 is empty"),
        ([["1", "12"]], "between -9 and 9"),
        ([["1", float("nan")]], "is empty"),
        ([["1", "abc"]], "not a number"),
    ):
        with pytest.raises(AnswerError, match=words):
            whole_grid(cells, "X")
    with pytest.raises(ShapeError, match="rectangular"):
        whole_grid([["1", "2"], ["3"]], "X")


def test_tolerance():
    third = F(1, 3)
    assert close(parse_answer("0.33"), third) and close(parse_answer("0.34"), third)
    assert not close(parse_answer("0.3"), third) and not close(parse_answer("0.35"), third)
    assert close(parse_answer("2/6"), third) and not close(parse_answer("1/4"), third)
    assert close(parse_answer("0.3"), third, tol=0.05)
    assert close(parse_answer("1"), 1.0004)  # an exact answer against a float: tolerance


# -- marking grids -------------------------------------------------------------------------


def test_example_c_is_what_the_trace_says(c):
    assert c.scores.tolist() == S_C
    assert c.weights.tolist() == A_C and c.z.tolist() == Z_C
    assert c.col_sums.tolist() == [5, F(5, 3), 3]


def test_right_answers_in_every_form(c):
    check = check_grid(
        c, "weights", [["1/5", "0.6", "2/6"], ["0.2", "1/5", ".333"], ["3/5", "0.20", "1/3"]]
    )
    assert check.all_right and check.n_right == 9 and not check.diagnoses


def test_wrong_and_blank_cells_are_located(c):
    check = check_grid(c, "scores", [[1, 0, 1], [1, None, 0], ["2", "-1", "5"]])
    assert check.wrong == [(2, 2)] and check.blank == [(1, 1)] and check.n_right == 7
    assert not check.all_right and check.status[2, 2] == "wrong"
    assert check.diagnoses == ()  # a slip no known mistake explains


def test_blanks_alone_are_not_wrong(c):
    check = check_grid(c, "z", [[None] * 3, [None] * 3])
    assert check.wrong == [] and len(check.blank) == 6 and not check.diagnoses


def test_shape_and_step_errors(c):
    with pytest.raises(ShapeError, match="needs 2 rows and 3 columns.*looks transposed"):
        check_grid(c, "q", [[1, 0], [0, 1], [1, 1]])
    with pytest.raises(AttentionInputError, match="step must be one of"):
        check_grid(c, "softmax", [[1]])
    assert expected(c, "col_sums").shape == (1, 3)


# -- diagnoses: one deliberately wrong grid per known mistake ---------------------------------


def test_q_transpose_k_instead_of_k_transpose_q(c):
    # S^T = Q^T K: [[1, 1, 2], [0, -1, -1], [1, 0, 1]]
    check = check_grid(c, "scores", [[1, 1, 2], [0, -1, -1], [1, 0, 1]])
    assert keys(check) == ["transpose"] and "Q^T K" in check.diagnoses[0].detail


def test_forgot_to_transpose_k():
    a = hand_attention(X_A, WQ_A, WK_A, WV_A)  # k = [[1, 1], [-2, 1]], q = [[1, 1], [2, -1]]
    assert keys(check_grid(a, "k_t", [[1, 1], [-2, 1]])) == ["transpose"]  # K copied as is
    kq = check_grid(a, "scores", [[3, 0], [0, -3]])  # K Q = [[1+2, 1-1], [-2+2, -2-1]]
    assert keys(kq) == ["transpose"] and "without transposing" in kq.diagnoses[0].detail
    kqt = check_grid(a, "scores", [[2, 1], [-1, -5]])  # K Q^T = [[1+1, 2-1], [-2+1, -4-1]]
    assert keys(kqt) == ["transpose"] and "K Q^T" in kqt.diagnoses[0].detail


def test_forgot_to_scale(c):
    check = check_grid(c, "scaled", S_C)
    assert keys(check) == ["no_scale"]
    # carried on: 3^S = [[3, 1, 3], [3, 1/3, 1], [9, 1/3, 3]], column 3 = (3, 1, 3) / 7
    a = check_grid(
        c, "weights", [["1/5", "3/5", "3/7"], ["1/5", "1/5", "1/7"], ["3/5", "1/5", "3/7"]]
    )
    assert a.wrong == [(0, 2), (1, 2), (2, 2)] and keys(a) == ["no_scale"]


def test_truncate_instead_of_floor(c):
    check = check_grid(c, "scaled", [[0, 0, 0], [0, 0, 0], [1, 0, 0]])
    assert check.wrong == [(1, 1), (2, 1)]
    assert keys(check) == ["floor_trunc"]  # not "round_up": cell (1, 3) says 0, not 1
    assert "floor(-1.5) = -2" in check.diagnoses[0].detail
    # trunc all the way: column 2 of 3^x is (1, 1, 1), so z column 2 = (2/3, 4/3)
    z = check_grid(c, "z", [["4/5", "2/3", "2/3"], ["8/5", "4/3", "4/3"]])
    assert keys(z) == ["floor_trunc"]


def test_floor_instead_of_truncate():
    t = hand_attention(X_C, WQ_C, WK_C, WV_C, scale_rule="trunc")
    check = check_grid(t, "scaled", [[0, 0, 0], [0, -1, 0], [1, -1, 0]])
    assert keys(check) == ["floor_trunc"] and "uses floor(s / 2)" in check.diagnoses[0].detail


def test_rounded_up(c):
    # ceil(S / 2) = [[1, 0, 1], [1, 0, 0], [1, 0, 1]]
    assert keys(check_grid(c, "scaled", [[1, 0, 1], [1, 0, 0], [1, 0, 1]])) == ["round_up"]


def test_divided_by_square_root(c):
    r = 1 / math.sqrt(2)  # d_k = 2: S / 1.414
    grid = [[f"{v * r:.3f}" for v in row] for row in S_C]
    assert keys(check_grid(c, "scaled", grid)) == ["sqrt"]


def test_e_instead_of_3(c):
    # e^x of floor(S / 2): [[1, 1, 1], [1, 0.368, 1], [2.718, 0.368, 1]]
    p = check_grid(c, "powers", [["1", "1", "1"], ["1", "0.37", "1"], ["2.72", "0.37", "1"]])
    assert keys(p) == ["e_base"]
    # column 1: (1, 1, e) / (2 + e) = (0.212, 0.212, 0.576); column 2: (1, 1/e, 1/e) / (1 + 2/e)
    a = check_grid(
        c,
        "weights",
        [["0.212", "0.576", "1/3"], ["0.212", "0.212", "1/3"], ["0.576", "0.212", "1/3"]],
    )
    assert keys(a) == ["e_base"]


def test_cubed_instead_of_powers_of_3(c):
    # scaled^3 = [[0, 0, 0], [0, -1, 0], [1, -1, 0]]
    assert keys(check_grid(c, "powers", [[0, 0, 0], [0, -1, 0], [1, -1, 0]])) == ["cube"]


def test_row_wise_softmax(c):
    # row sums of 3^x: 1 + 1 + 1 = 3, 1 + 1/3 + 1 = 7/3, 3 + 1/3 + 1 = 13/3
    sums = check_grid(c, "col_sums", [["3", "7/3", "13/3"]])
    assert keys(sums) == ["row_softmax"]
    a = check_grid(
        c, "weights", [["1/3", "1/3", "1/3"], ["3/7", "1/7", "3/7"], ["9/13", "1/13", "3/13"]]
    )
    assert keys(a) == ["row_softmax"] and "column" in a.diagnoses[0].detail


def test_forgot_to_divide(c):
    powers = strings(c.powers)  # [[1, 1, 1], [1, 1/3, 1], [3, 1/3, 1]]
    assert powers == [["1", "1", "1"], ["1", "1/3", "1"], ["3", "1/3", "1"]]
    assert keys(check_grid(c, "weights", powers)) == ["no_divide"]


def test_v_times_a_transposed(c):
    # V A^T: col 1 = 1/5 v1 + 3/5 v2 + 1/3 v3 = (8/15, 22/15); col 2 = (8/15, 16/15);
    # col 3 = 3/5 v1 + 1/5 v2 + 1/3 v3 = (14/15, 22/15)
    z = check_grid(c, "z", [["8/15", "8/15", "14/15"], ["22/15", "16/15", "22/15"]])
    assert keys(z) == ["transpose"] and "V A^T" in z.diagnoses[0].detail


def test_wrong_weight_matrix(c):
    # W_K X instead of W_Q X: k = [[1, 1, 2], [0, -1, -1]]
    check = check_grid(c, "q", [[1, 1, 2], [0, -1, -1]])
    assert keys(check) == ["wrong_weight"] and "W_K X" in check.diagnoses[0].detail


def test_causal_mask_mistakes(c_causal):
    # right: 3^x masked = [[1, 1, 1], [0, 1/3, 1], [0, 0, 1]]; A = col 1 (1, 0, 0),
    # col 2 (3/4, 1/4, 0), col 3 (1/3, 1/3, 1/3)
    assert c_causal.weights.tolist() == [
        [1, F(3, 4), F(1, 3)],
        [0, F(1, 4), F(1, 3)],
        [0, 0, F(1, 3)],
    ]
    no_mask = check_grid(c_causal, "weights", strings(A_C))
    assert keys(no_mask) == ["no_mask"]
    # zeroing the unmasked A below the diagonal: columns no longer sum to 1
    after = check_grid(
        c_causal, "weights", [["1/5", "3/5", "1/3"], ["0", "1/5", "1/3"], ["0", "0", "1/3"]]
    )
    assert keys(after) == ["mask_after"]
    # masking above the diagonal: 3^x = [[1, 0, 0], [1, 1/3, 0], [3, 1/3, 1]]
    side = check_grid(
        c_causal, "weights", [["1/5", "0", "0"], ["1/5", "1/2", "0"], ["3/5", "1/2", "1"]]
    )
    assert keys(side) == ["mask_side"]


def test_exact_softmax_instead_of_the_rules(c):
    scaled = np.array(S_C) / math.sqrt(2)
    e = np.exp(scaled)
    a = e / e.sum(axis=0)  # column-wise, written out with NumPy rather than the library
    assert keys(check_grid(c, "weights", [[f"{v:.3f}" for v in row] for row in a])) == ["exact"]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("variant", ["plain", "causal", "two_heads"])
def test_every_mistake_is_recognised_on_generated_sheets(seed, variant):
    """Each known mistake's own grid is diagnosed as that mistake, wherever it is wrong."""
    t = make_exercise(seed, difficulty="hard", variant=variant).heads[-1]
    seen = 0
    for m in variants(t):
        for step, alt in m.steps.items():
            grid = alt.reshape(1, -1) if step == "col_sums" else alt
            cells = [
                [f"{v:.4f}" if isinstance(v, float) else frac_str(v) for v in row] for row in grid
            ]
            check = check_grid(t, step, cells)
            if check.wrong:
                seen += 1
                assert m.key in keys(check), (m.key, step, keys(check))
    assert seen >= 15


@pytest.mark.parametrize("seed", range(5))
def test_the_answer_key_is_all_right(seed):
    t = make_exercise(seed, difficulty="medium", variant="causal").heads[0]
    for step in STEPS:
        cells = [[frac_str(v) for v in row] for row in expected(t, step)]
        assert check_grid(t, step, cells).all_right
        decimals = [[decimal_str(v) for v in row] for row in expected(t, step)]
        assert check_grid(t, step, decimals).all_right  # 3 decimals are within 0.01


# -- by hand against exact -----------------------------------------------------------------


def test_rule_cells(c):
    # the two -1 scores: floor(-0.5) = -1, trunc(-0.5) = 0
    assert rule_cells(c.scores) == [(1, 1, -1, -1, 0), (2, 1, -1, -1, 0)]
    assert rule_cells(np.array([[2, 3], [0, 4]])) == []


def test_compare_exact_flags_a_changed_top_key(c):
    cmp = compare_exact(c)
    # by hand: column 1 -> key 3, column 2 -> key 1, column 3 -> a three-way tie (1/3 each)
    assert cmp.top_hand == ((2,), (0,), (0, 1, 2))
    # exact: S / sqrt(2); column 3 has scores (1, 0, 1): keys 1 and 3 tie, key 2 is lower
    assert cmp.top_exact == ((2,), (0,), (0, 2))
    assert cmp.changed == (2,)
    w_exact = np.exp(np.array(S_C) / math.sqrt(2))
    w_exact /= w_exact.sum(axis=0)
    np.testing.assert_allclose(cmp.diff("weights"), np.array(A_C, dtype=float) - w_exact)
    assert cmp.diff("scaled").shape == (3, 3)


def test_top_keys_keeps_ties():
    assert top_keys(np.array([[0.5, 0.2], [0.5, 0.8]])) == ((0, 1), (1,))


def test_decimal_str_of_numpy_integers():
    # a trace's integer grids hold np.int64, which Decimal refuses unless made an int first
    assert decimal_str(np.int64(1)) == "1.000" and decimal_str(np.int64(-3)) == "-3.000"


def test_checker_modules_stay_free_of_the_ui_stack():
    code = (
        "import sys, attn_core.by_hand.answers, attn_core.by_hand.checking, "
        "attn_core.by_hand.mistakes, attn_core.by_hand.compare; "
        "bad = [m for m in ('streamlit', 'plotly', 'pandas', 'attn_ui') if m in sys.modules]; "
        "print(bad); sys.exit(bool(bad))"
    )
    root = Path(__file__).resolve().parents[3]
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
