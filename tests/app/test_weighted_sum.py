"""The weighted-sum page: Z = A V, and one output row taken apart into its value rows."""

import numpy as np
import pytest

from attn_ui.tables import features
from tests.support.apptest import (
    canvas_chart,
    chart_values,
    frame,
    lesson,
    load,
    rerun,
    table,
)

PAGE = "pages/06_Weighted_sum.py"
SUM_ROW = "sum of the rows above"
ENGINE_ROW = "that row of Z = A V"


def expected(**changes):
    return lesson(**changes).trace


def sum_table(at):
    """The table whose last two rows are the sum of the shares and the engine's row of Z."""
    for df in at.dataframe:
        if ENGINE_ROW in df.value.index:
            return df.value
    raise AssertionError("no table of shares")


def test_matrices_equal_the_engine(loaded):
    at = loaded(PAGE)
    t = expected()
    np.testing.assert_allclose(table(at, "A (rows sum to 1)"), t.weights, atol=1e-12)
    np.testing.assert_allclose(table(at, "Numbers of V"), t.v, atol=1e-12)
    np.testing.assert_allclose(table(at, "Z = A V"), t.output, atol=1e-12)


@pytest.mark.parametrize("i", [1, 0, 6])
def test_shares_of_the_picked_row_add_up_to_its_output(i):
    at = load(PAGE)
    at.selectbox(key="ws_query").select(i)
    rerun(at)
    t = expected()
    parts = table(at, f"a_{i},j × v_j")
    np.testing.assert_allclose(parts, t.weights[i][:, None] * t.v, atol=1e-12)
    df = sum_table(at)
    np.testing.assert_allclose(df.loc[SUM_ROW], t.output[i].round(4), atol=1e-4)
    np.testing.assert_allclose(df.loc[ENGINE_ROW], t.output[i].round(4))
    assert len(df) == len(t.weights) + 2
    stack = canvas_chart(at, f"Row {i} of Z")
    np.testing.assert_allclose(chart_values(stack, "sum = output row"), t.output[i])  # diamonds
    for j, token in enumerate(lesson().tokens):  # each key's shares: a_ij v_j
        np.testing.assert_allclose(chart_values(stack, f"{j} {token}"), t.weights[i, j] * t.v[j])


def test_causal_first_token_output_is_its_own_value_row():
    at = load(PAGE)
    at.selectbox(key="lesson_w_mask").select("causal")
    rerun(at)
    at.selectbox(key="ws_query").select(0)
    rerun(at)
    t = expected(mask="causal")
    z = table(at, "Z = A V")
    np.testing.assert_allclose(z[0], t.v[0], atol=1e-12)
    np.testing.assert_allclose(sum_table(at).loc[ENGINE_ROW], t.v[0].round(4))


def test_temperature_changes_the_mix():
    at = load(PAGE)
    before = table(at, "Z = A V")
    at.slider(key="lesson_w_temperature").set_value(0.3)
    rerun(at)
    after = table(at, "Z = A V")
    np.testing.assert_allclose(after, expected(temperature=0.3).output, atol=1e-12)
    assert not np.allclose(after, before)


def test_stacked_bars_have_one_series_per_token(loaded):
    at = loaded(PAGE)
    stack = canvas_chart(at, "of Z: the value rows' shares")
    n = len(expected().weights)
    assert len(stack["series"]) == n + 1  # one per value row, plus the sum
    assert stack["stacked"] and stack["series"][-1]["style"] == "diamond"
    assert frame(at, "v0").shape[0] == n + 2


def test_stacked_bars_tell_every_key_apart(loaded):
    """The real head's 14 keys get 14 different colours (Plotly's 10 repeated: key 12 and
    key 2 were both red); every feature is a position on the axis (the browser labels as
    many as have room: tests/e2e/test_accessibility.py checks that they never overlap)."""
    at = loaded(PAGE)
    stack = canvas_chart(at, "of Z: the value rows' shares")
    colours = [s["colour"] for s in stack["series"][:-1]]
    assert len(set(colours)) == len(colours) == len(expected().weights)
    assert stack["x"]["labels"] == features(expected().d_v, "v")


def test_stacked_bars_name_their_keys_in_a_legend_only_up_to_ten_keys():
    """Up to ten keys the legend names each colour; beyond, the hover does (each series is
    named by its key), and the title says what the diamonds are."""
    short = load(PAGE, query={"sentence": "the cat sat on the mat"})
    assert canvas_chart(short, "of Z: the value rows' shares")["legend"] is True
    words = "apple bird cloud dream earth field glass house island jungle kettle lemon".split()
    long = load(PAGE, query={"sentence": " ".join(words), "weights": "random"})
    stack = canvas_chart(long, "of Z: the value rows' shares")
    assert stack["legend"] is False
    assert "◆ = their sum" in stack["title"]
    named = [s["name"] for s in stack["series"][:-1]]  # the last: the sum
    assert named == [f"{j} {w}" for j, w in enumerate(words)]  # each bar's hover names its key
