"""The practice page: seeded givens, a grid typed in, checked, diagnosed and revealed."""

import math

import numpy as np
import pytest

from attn_core.by_hand.checking import expected
from attn_core.by_hand.exercises import make_exercise
from attn_core.by_hand.mistakes import downstream
from attn_core.by_hand.rules import frac_str
from attn_ui.by_hand.grids import axes
from tests.support.apptest import (
    load,
    rerun,
)
from tests.support.hand_grids import exact_grid, grid, has, type_cells

PAGE = "pages/21_Practice.py"


def open_step(step: str, **settings):
    """The page on exercise `settings` (seed 7, easy, plain by default), at `step`."""
    at = load(PAGE)
    for name, value in settings.items():
        widget = at.selectbox if name in ("difficulty", "variant") else at.number_input
        widget(key=f"practice_{name}").set_value(value)
    at.selectbox(key="practice_step").select(step)
    return rerun(at)


def sheet(**settings):
    return make_exercise(**{"seed": 7, "difficulty": "easy", "variant": "plain", **settings})


def fill(at, t, step, cells) -> None:
    """Type `cells` (R, C) into the step's editor, then press Check."""
    _, cols = axes(step, t)
    key = at.data_editor[0].key
    type_cells(at, key, {(i, cols[j]): v for (i, j), v in np.ndenumerate(np.array(cells, object))})
    rerun(at)
    at.button(key="practice_check").click()
    rerun(at)


def text(a) -> list[list[str]]:
    return [[frac_str(v) for v in row] for row in np.asarray(a, dtype=object).reshape(len(a), -1)]


def mistakes(at) -> list[str]:
    return [w.value for w in at.warning if "Likely mistake" in w.value]


def test_givens_come_from_the_seed():
    at = load(PAGE)
    ex = sheet()
    assert exact_grid(at, "practice_given_x").tolist() == ex.x.tolist()
    assert exact_grid(at, "practice_given_w_k").tolist() == ex.w_k.tolist()
    at.button(key="practice_new").click()
    rerun(at)
    assert at.number_input(key="practice_seed").value == 8
    assert exact_grid(at, "practice_given_x").tolist() == sheet(seed=8).x.tolist()


def test_right_answers_as_fractions_and_decimals():
    at = open_step("weights")
    t = sheet().heads[0]
    decimals = [[f"{float(v):.2f}" for v in row] for row in t.weights]
    fill(at, t, "weights", decimals)
    assert [s.value for s in at.success] == [f"All {t.weights.size} cells are right."]
    assert not at.error and not mistakes(at)


def test_a_wrong_cell_is_marked():
    at = open_step("scores")
    t = sheet().heads[0]
    cells = text(t.scores)
    cells[1][2] = str(int(t.scores[1, 2]) + 5)
    fill(at, t, "scores", cells)
    assert at.error[0].value.startswith(f"1 of {t.scores.size} cells are wrong")
    marked = grid(at, "practice_marked")
    assert marked[1, 2].startswith("✗") and marked[0, 0].startswith("✓")
    assert (np.char.startswith(marked, "✗")).sum() == 1


def test_blank_cells_are_not_wrong():
    at = open_step("q")
    t = sheet().heads[0]
    cells = text(t.q)
    cells[0][0] = ""
    fill(at, t, "q", cells)
    assert not at.error and at.info[0].value.startswith("No mistakes so far")
    assert grid(at, "practice_marked")[0, 0] == "·"


def test_transposed_scores_are_diagnosed():
    at = open_step("scores")
    t = sheet().heads[0]
    fill(at, t, "scores", text(t.scores.T))
    assert at.error and "Transpose mix" in mistakes(at)[0]


def test_row_wise_softmax_is_diagnosed():
    at = open_step("weights")
    t = sheet().heads[0]
    p = t.powers
    fill(at, t, "weights", text(p / p.sum(axis=1)[:, None]))
    assert "Row-wise instead of column-wise softmax" in mistakes(at)[0]


def test_truncate_instead_of_floor_is_diagnosed():
    at = open_step("scaled", difficulty="hard")
    t = sheet(difficulty="hard").heads[0]
    trunc = np.where(t.scores < 0, -(-t.scores // 2), t.scores // 2)  # hard sheets have one
    fill(at, t, "scaled", text(trunc))
    assert len(mistakes(at)) == 1 and "Floor versus truncate" in mistakes(at)[0]


def test_e_instead_of_3_and_no_scaling_are_diagnosed():
    at = open_step("powers")
    t = sheet().heads[0]
    fill(at, t, "powers", [[f"{math.exp(s):.3f}" for s in row] for row in t.scaled])
    assert "e^x instead of 3^x" in mistakes(at)[0]
    at = open_step("scaled")
    fill(at, t, "scaled", text(t.scores))
    assert "Forgot to scale" in mistakes(at)[0]


def test_forgot_to_scale_at_the_weights_step_says_where_the_numbers_come_from():
    """Step 9 (weights) from unscaled scores: the hint names the unscaled scores, not "the
    scores themselves" (the grid holds weights)."""
    at = open_step("weights")
    t = sheet().heads[0]
    fill(at, t, "weights", text(downstream(t, t.scores)["weights"]))
    (found,) = [m for m in mistakes(at) if "Forgot to scale" in m]
    assert "unscaled scores" in found and "scores themselves" not in found


def test_forgotten_causal_mask_is_diagnosed():
    at = open_step("weights", variant="causal")
    t = sheet(variant="causal").heads[0]
    assert t.mask is not None and not t.mask.all()
    unmasked = np.array([[3 ** int(s) for s in row] for row in t.scaled], dtype=object)
    fill(at, t, "weights", text(unmasked / unmasked.sum(axis=0)))
    assert "Forgot the mask" in mistakes(at)[0]


def test_bad_text_names_the_cell():
    at = open_step("scores")
    t = sheet().heads[0]
    cells = text(t.scores)
    cells[0][1] = "two"
    fill(at, t, "scores", cells)
    message = at.error[0].value.replace("\\", "")
    assert "row key t1, column query t2 holds 'two', which is not a number" in message
    assert not has(at, "practice_marked")


def test_reveal_shows_the_answer():
    at = open_step("z")
    t = sheet().heads[0]
    assert not has(at, "practice_answer")
    at.button(key="practice_reveal").click()
    rerun(at)
    assert exact_grid(at, "practice_answer").tolist() == t.z.tolist()
    at.selectbox(key="practice_step").select("q")  # another grid: the answer goes away
    rerun(at)
    assert not has(at, "practice_answer")


@pytest.mark.parametrize("head", [0, 1])
def test_two_heads_check_the_chosen_head(head):
    at = open_step("k", variant="two_heads")
    at.radio(key="practice_head").set_value(head)
    rerun(at)
    ex = sheet(variant="two_heads")
    t = ex.heads[head]
    fill(at, t, "k", text(t.k))
    assert at.success and not at.error
    other = ex.heads[1 - head]
    assert other.k.tolist() != t.k.tolist()  # seed 7's two heads differ, so this can fail
    fill(at, t, "k", text(other.k))
    assert at.error and not at.success


def test_column_sums_grid_is_one_row():
    at = open_step("col_sums")
    t = sheet().heads[0]
    assert at.data_editor[0].value.shape == (1, t.tokens)
    fill(at, t, "col_sums", text(expected(t, "col_sums")))
    assert at.success
