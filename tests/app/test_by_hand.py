"""The by-hand page: the stepper, the trace's numbers, the exact twin, the learner's input."""

import numpy as np
import pytest

from attn_core.by_hand.compare import compare_exact, rule_cells
from attn_core.by_hand.trace import hand_attention
from attn_ui.by_hand.inputs import EXAMPLE, editor_key
from tests.support.apptest import (
    load,
    rerun,
)
from tests.support.hand_grids import exact_grid, floats, grid, has, labels, type_cells

PAGE = "pages/20_By_hand.py"
X_KEY = editor_key("x", (6, 4))


def trace(**rules):
    return hand_attention(EXAMPLE["x"], EXAMPLE["w_q"], EXAMPLE["w_k"], EXAMPLE["w_v"], **rules)


def show_all(at):
    at.button(key="hand_all").click()
    return rerun(at)


def test_next_and_previous_step_reveal_one_grid_at_a_time():
    at = load(PAGE)
    assert has(at, "hand_grid_x") and not has(at, "hand_grid_q")
    at.button(key="hand_next").click()
    rerun(at)
    assert has(at, "hand_grid_q") and not has(at, "hand_grid_k")
    at.button(key="hand_next").click()
    rerun(at)
    assert has(at, "hand_grid_k")
    at.button(key="hand_prev").click()
    rerun(at)
    assert has(at, "hand_grid_q") and not has(at, "hand_grid_k")
    show_all(at)
    assert has(at, "hand_grid_z") and at.button(key="hand_next").disabled
    assert [s.value for s in at.subheader][-1] == "Step 9. Z = V A"


def test_every_grid_equals_the_pencil_trace():
    at = show_all(load(PAGE))
    t = trace()
    for step in ("q", "k", "v", "k_t", "scores", "scaled", "weights", "z"):
        assert exact_grid(at, f"hand_grid_{step}").tolist() == getattr(t, step).tolist(), step
    powers = exact_grid(at, "hand_grid_powers")
    assert powers[:-1].tolist() == t.powers.tolist() and powers[-1].tolist() == t.col_sums.tolist()
    assert grid(at, "hand_grid_weights")[0, 0] == "3/4 ≈ 0.750"  # fraction, decimal beside
    assert labels(at, "hand_grid_scores") == (
        [f"key t{i}" for i in range(1, 5)],
        [f"query t{i}" for i in range(1, 5)],
    )


def test_the_worked_cell_follows_the_chosen_token():
    at = show_all(load(PAGE))
    at.selectbox(key="hand_follow").select(2)
    rerun(at)
    captions = [c.value for c in at.caption]
    # column t3 of floor(S / 2) is (0, -1, 0, 0): 1 + 1/3 + 1 + 1 = 10/3
    assert "Column t3: 3^0 + 3^(-1) + 3^0 + 3^0 = 1 + 1/3 + 1 + 1 = 10/3" in captions
    score = [c for c in captions if c.startswith("S[key t1, query t3]")]
    assert score and score[0].endswith(f"= {trace().scores[0, 2]}")


def test_trunc_changes_only_the_negative_odd_scores():
    at = show_all(load(PAGE))
    floor = floats(at, "hand_grid_scaled")
    at.radio(key="hand_rule").set_value("trunc")
    rerun(at)
    trunc = floats(at, "hand_grid_scaled")
    assert trunc.tolist() == trace(scale_rule="trunc").scaled.tolist()
    changed = {(int(i), int(j)) for i, j in np.argwhere(floor != trunc)}
    assert changed == {(i, j) for i, j, *_ in rule_cells(trace().scores)} and len(changed) == 3
    rule_table = [m.value for m in at.markdown if "Where the rule matters" in m.value]
    assert rule_table and "| key t1, query t4 | -3 | -1.5 | -2 | -1 |" in rule_table[0]


def test_exact_twin_differences_and_flag():
    at = show_all(load(PAGE))
    cmp = compare_exact(trace())
    np.testing.assert_allclose(floats(at, "hand_exact_weights"), cmp.exact.weights, atol=5e-4)
    np.testing.assert_allclose(floats(at, "hand_diff_weights"), cmp.diff("weights"), atol=5e-4)
    np.testing.assert_allclose(floats(at, "hand_exact_z"), cmp.exact.z, atol=5e-4)
    assert cmp.changed == (2,)
    assert labels(at, "hand_grid_weights")[1][2] == "query t3 ⚑"
    flags = [w.value for w in at.warning if "⚑" in w.value]
    assert len(flags) == 1 and flags[0].startswith(
        "⚑ Query t3: by hand the most attention goes to keys t1, t3 and t4 (a tie); "
        "exactly, to key t4."
    )


def test_causal_mask_zeroes_the_keys_after_each_query():
    at = load(PAGE)
    at.toggle(key="hand_causal").set_value(True)
    show_all(at)
    a = exact_grid(at, "hand_grid_weights")
    assert a.tolist() == trace(causal=True).weights.tolist()
    assert all(a[i, j] == 0 for i in range(4) for j in range(i))
    assert [sum(a[:, j]) for j in range(4)] == [1, 1, 1, 1]


def test_row_convention_is_the_transpose():
    at = show_all(load(PAGE))
    t = trace()
    assert exact_grid(at, "hand_rows_weights").tolist() == t.weights.T.tolist()
    assert exact_grid(at, "hand_rows_output").tolist() == t.z.T.tolist()
    check = [c.value for c in at.caption if c.value.startswith("Check: the row engine")]
    assert check and float(check[0].split("difference ")[1].rstrip(").")) < 1e-12


def test_typed_numbers_are_used():
    at = load(PAGE)
    type_cells(at, X_KEY, {(0, "t2"): "2", (3, "t4"): " -2 "})
    show_all(at)
    x = np.array(EXAMPLE["x"])
    x[0, 1], x[3, 3] = 2, -2
    t = hand_attention(x, EXAMPLE["w_q"], EXAMPLE["w_k"], EXAMPLE["w_v"])
    assert exact_grid(at, "hand_grid_x").tolist() == x.tolist()
    assert exact_grid(at, "hand_grid_weights").tolist() == t.weights.tolist()


@pytest.mark.parametrize(
    "value, words",
    [
        ("abc", "X, row f1, column t2 holds 'abc', which is not a number"),
        ("1.5", "X, row f1, column t2 is 1.5, not a whole number"),
        ("1/2", "not a whole number"),
        (None, "X, row f1, column t2 is empty"),
        ("99", "keep every given between -9 and 9"),
        ("1e9", "not a number"),
    ],
)
def test_bad_editor_input_gets_a_message(value, words):
    at = load(PAGE)
    type_cells(at, X_KEY, {(0, "t2"): value})
    rerun(at)
    assert at.error and words in at.error[0].value.replace("\\", "")
    assert not has(at, "hand_grid_x")  # the page stops instead of showing stale numbers


def test_learner_text_is_not_rendered_as_markdown():
    at = load(PAGE)
    type_cells(at, X_KEY, {(0, "t1"): "**big** [link](http://x)"})
    rerun(at)
    message = at.error[0].value
    assert "\\*\\*big\\*\\*" in message and "\\[link\\]" in message
    assert all(not m.proto.allow_html for m in at.markdown)


def test_numbers_too_big_for_paper_are_refused():
    at = load(PAGE)
    type_cells(at, X_KEY, {(i, f"t{j}"): "9" for i in range(6) for j in range(1, 5)})
    rerun(at)
    assert at.error and "far too large" in at.error[0].value


def test_sizes_reshape_the_editors():
    at = load(PAGE)
    at.number_input(key="hand_tokens").set_value(3)
    at.number_input(key="hand_d_k").set_value(2)
    show_all(at)
    assert grid(at, "hand_grid_x").shape == (6, 3)
    assert grid(at, "hand_grid_q").shape == (2, 3) and grid(at, "hand_grid_weights").shape == (3, 3)
    at.button(key="hand_reset").click()
    rerun(at)
    assert grid(at, "hand_grid_x").shape == (6, 4)


def test_a_grid_names_itself_in_its_corner_cell():
    """Every by-hand grid's corner header holds text (a screen reader reads an empty header
    as nothing: axe-core's empty-table-header): the grid's name, or "grid"."""
    from attn_ui.by_hand.grids import corner

    assert corner("X (features × tokens)") == "X"
    assert corner("P = 3^(s − m)") == "P"
    assert corner("floor(Kᵀ Q / 2): one row per key") == "grid"  # never half a formula
