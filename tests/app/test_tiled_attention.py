"""Attention in tiles: the page shows the core's blocks, m and l, the output converging to full
attention, the memory figures, and the by-hand sheet in two blocks of two keys."""

from fractions import Fraction

import numpy as np

import attn_core
from attn_core.by_hand.tiles import hand_tiles
from attn_core.by_hand.trace import hand_attention
from attn_core.tiled import memory_bytes
from attn_ui.by_hand.inputs import EXAMPLE
from tests.support.apptest import (
    canvas_chart,
    chart_values,
    frame,
    load,
    rerun,
    table,
    type_sentence,
)
from tests.support.apptest import lesson as lesson_at
from tests.support.hand_grids import exact_grid, grid

PAGE = "pages/50_Tiled_attention.py"

# These tests read the seeded random weights (d_model, d_k, seed): the lessons open on a real
# head, and a link with weights=random gives the random ones (tests/app/test_default_weights.py).
RANDOM = {"weights": "random"}


def lesson(**changes):
    return lesson_at(**(RANDOM | changes))


def engine(block, **changes):
    t = lesson(**changes).trace
    tiled = attn_core.tiled_attention(
        t.q, t.k, t.v, block=block, mask=t.mask, scale=t.scale / t.temperature
    )
    return t, tiled


def metric(at, label_part: str) -> str:
    return next(m.value for m in at.metric if label_part in m.label)


def set_slider(at, label: str, value: int):
    next(s for s in at.slider if s.label == label).set_value(value)
    return rerun(at)


def running_column(at, name: str) -> np.ndarray:
    col = frame(at, "m (row max so far)")[name]
    return np.array([-np.inf if v == "−∞" else float(v) for v in col])


def test_defaults_show_the_first_of_three_blocks(loaded):
    at = load(PAGE, query=RANDOM)
    t, tiled = engine(4)
    first = tiled.steps[0]
    assert at.subheader[0].value == "1. Block 1 of 3: keys 0 to 3"
    np.testing.assert_allclose(table(at, "Tile 1: S / √d_k + M"), first.scores, atol=5e-13)
    np.testing.assert_allclose(table(at, "Tile 1: S / √d_k + M"), t.masked[:, :4], atol=5e-13)
    np.testing.assert_allclose(running_column(at, "m (row max so far)"), first.m, atol=1e-4)
    np.testing.assert_allclose(running_column(at, "l (sum so far)"), first.l, atol=1e-4)
    assert set(frame(at, "m (row max so far)")["m before"]) == {"−∞"}
    assert set(frame(at, "m (row max so far)")["rescale exp(m before − m)"]) == {"—"}
    np.testing.assert_allclose(table(at, "Z after block 1 = u / l"), first.output, atol=1e-12)
    gap = first.output - t.output
    np.testing.assert_allclose(table(at, "Z after block 1 − Z of full"), gap, atol=1e-12)
    # three significant digits, so that the fall from block to block shows (1.50, 1.42, ...)
    assert metric(at, "max |Z so far") == f"{np.abs(gap).max():#.3g}"
    np.testing.assert_allclose(float(metric(at, "max |Z so far")), np.abs(gap).max(), rtol=5e-3)
    last = metric(at, "after the last block")
    assert float(last) < 1e-12 and last == f"{np.abs(tiled.output - t.output).max():#.3g}"


def test_memory_figures_are_the_core_sizes(loaded):
    at = load(PAGE, query=RANDOM)
    mem = frame(at, "T × T scores (bytes)")
    for t_, full, tile in mem.itertuples(index=False):
        assert (full, tile) == memory_bytes(t_, 4, 4)
    assert 12 in set(mem["T"]) and 16_384 in set(mem["T"])
    fig = canvas_chart(at, "Memory of one head's scores, block = 4")
    np.testing.assert_array_equal(chart_values(fig, "T × T scores"), mem["T × T scores (bytes)"])
    distance = canvas_chart(at, "Distance from full attention")
    _, tiled = engine(4)
    assert len(chart_values(distance, "max |Z so far − Z|")) == len(tiled.steps) == 3


def test_stepping_to_the_last_block_gives_full_attention():
    at = load(PAGE, query=RANDOM)
    set_slider(at, "Keys per block", 5)
    assert next(s for s in at.slider if s.label == "Blocks read so far").max == 3
    set_slider(at, "Blocks read so far", 2)
    t, tiled = engine(5)
    second = tiled.steps[1]
    np.testing.assert_allclose(table(at, "Tile 2: S / √d_k + M"), second.scores, atol=5e-13)
    np.testing.assert_allclose(running_column(at, "m before"), tiled.steps[0].m, atol=1e-4)
    np.testing.assert_allclose(
        running_column(at, "rescale exp(m before − m)"), second.rescale, atol=1e-4
    )
    assert metric(at, "Rows whose m rose") == str(int(np.sum(second.rescale < 1)))
    set_slider(at, "Blocks read so far", 3)
    assert at.subheader[0].value == "1. Block 3 of 3: keys 10 to 11"
    z = table(at, "Z after block 3 = u / l")
    np.testing.assert_allclose(z, t.output, atol=1e-12)
    assert float(metric(at, "max |Z so far")) < 1e-12


def test_a_larger_block_pulls_the_step_back_into_range():
    at = load(PAGE, query=RANDOM)
    set_slider(at, "Keys per block", 1)
    set_slider(at, "Blocks read so far", 12)
    set_slider(at, "Keys per block", 6)
    assert at.subheader[0].value == "1. Block 2 of 2: keys 6 to 11"
    set_slider(at, "Keys per block", 12)
    assert "Blocks read so far" not in [s.label for s in at.slider]
    assert any("One block holds all 12 keys" in c.value for c in at.caption)
    np.testing.assert_allclose(
        table(at, "Z after block 1 = u / l"), lesson().trace.output, atol=1e-12
    )


def test_causal_mask_a_block_fully_masked_for_early_rows():
    at = load(PAGE, query=RANDOM | {"mask": "causal"})
    set_slider(at, "Keys per block", 2)
    set_slider(at, "Blocks read so far", 2)
    t, tiled = engine(2, mask="causal")
    assert any("exp(−∞ − (−∞))" in i.value for i in at.info)
    np.testing.assert_allclose(running_column(at, "rescale exp(m before − m)")[:2], [1, 1])
    z = table(at, "Z after block 2 = u / l")
    assert np.isfinite(z).all()
    np.testing.assert_allclose(z, tiled.steps[1].output, atol=1e-12)
    np.testing.assert_allclose(z[:2], tiled.steps[0].output[:2], atol=1e-12)  # rows 0, 1: done
    set_slider(at, "Blocks read so far", 6)
    np.testing.assert_allclose(table(at, "Z after block 6"), t.output, atol=1e-12)


def test_bad_input_gets_a_message():
    at = load(PAGE, query=RANDOM)
    type_sentence(at, "")
    assert any("empty" in e.value for e in at.error) and not at.metric
    type_sentence(at, "cat")
    assert any("single token" in w.value for w in at.warning)
    assert "Keys per block" not in [s.label for s in at.slider]
    np.testing.assert_allclose(
        table(at, "Z after block 1 = u / l"), lesson(sentence="cat").trace.output
    )
    type_sentence(at, "the cat sat")
    assert next(s for s in at.slider if s.label == "Keys per block").value == 3  # clamped from 4


def test_by_hand_section_is_the_sheet_in_two_blocks(loaded):
    at = load(PAGE, query=RANDOM)
    t = hand_attention(**EXAMPLE)
    first, second = hand_tiles(t, 2)
    assert grid(at, "tiles_hand_scaled").astype(int).tolist() == t.scaled.tolist()
    assert exact_grid(at, "tiles_hand_p0").tolist() == first.powers.tolist()
    running = exact_grid(at, "tiles_hand_ml1")
    assert running[0].tolist() == second.m.tolist()
    assert running[1].tolist() == [1, 1, 1, Fraction(1, 9)]
    assert running[2].tolist() == second.l.tolist()
    assert grid(at, "tiles_hand_ml0")[1].tolist() == ["—"] * 4
    assert exact_grid(at, "tiles_hand_u1").tolist() == second.u.tolist()
    assert exact_grid(at, "tiles_hand_z1").tolist() == exact_grid(at, "tiles_hand_zf").tolist()
    assert exact_grid(at, "tiles_hand_zf").tolist() == t.z.tolist()
    assert any("fraction for fraction" in s.value for s in at.success)
