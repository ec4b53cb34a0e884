"""RoPE: the angles of the pairs, the score of the model's own q and k under a shift, and
MiniLM's learned positions under the same shift."""

import numpy as np
import pytest

from attn_core.labs import rope
from attn_core.pretrained import load_minilm, load_smollm
from attn_ui.decoder_views import minilm_head
from attn_ui.settings import DEFAULT_SENTENCE
from tests.support.apptest import canvas_chart, chart_values, chart_x, load, rerun, table

PAGE = "pages/64_RoPE.py"
BASE = 100_000.0


@pytest.fixture(scope="module")
def run():
    return load_smollm().run(DEFAULT_SENTENCE)


def metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def test_pairs_table_and_charts_equal_the_formula(loaded):
    at = loaded(PAGE)
    pairs = next(d.value for d in at.dataframe if "pair i" in d.value.columns)
    i = np.arange(32)
    np.testing.assert_allclose(pairs["radians per position"], BASE ** (-2 * i / 64))
    np.testing.assert_allclose(pairs["angle at 10 (rad)"], 10 * BASE ** (-2 * i / 64))
    np.testing.assert_allclose(pairs["positions per turn"][0], 2 * np.pi)
    np.testing.assert_allclose(
        chart_values(canvas_chart(at, "Angle of each pair at m = 10"), "degrees"),
        np.degrees(10 * BASE ** (-2 * i / 64)) % 360,
    )


def test_shift_keeps_the_score_of_the_models_own_vectors(loaded, run):
    at = loaded(PAGE)
    q = run.queries_unrotated[0, 0, 11]  # defaults: layer 0, head 0, query "." (11), key 0
    k = run.keys_unrotated[0, 0, 0]
    t = rope.shift_test(q, k, 5, 2, 100, BASE)
    shown = metrics(at)
    assert shown["SmolLM2: q_m · k_n at (m, n) = (5, 2)"] == f"{t.score:.6f}"
    assert shown["SmolLM2: at (m + s, n + s) = (105, 102)"] == f"{t.shifted:.6f}"
    assert (
        shown["SmolLM2: at (m + s, n + s) = (105, 102)"]
        == shown["SmolLM2: q_m · k_n at (m, n) = (5, 2)"]
    )
    assert abs(float(shown["SmolLM2: difference"])) < 1e-9
    own = float(run.queries[0, 0, 11] @ run.keys[0, 0, 0])
    assert any(f"its q · k there is {own:.4f}" in m.value for m in at.markdown)
    fig = canvas_chart(at, "Score against the distance m − n")
    d = chart_x(fig, "q_m · k_n")
    np.testing.assert_allclose(
        chart_values(fig, "q_m · k_n"), rope.scores_by_distance(q, k, d, BASE)
    )


def test_minilm_score_moves_with_the_shift(loaded):
    at = loaded(PAGE)
    model = load_minilm()
    enc = model.run(DEFAULT_SENTENCE)
    a = minilm_head(model, enc.ids[1], enc.ids[2], 0).shift_test(5, 2, 100)
    shown = metrics(at)
    assert shown["MiniLM: q · k at (m, n) = (5, 2)"] == f"{a.score:.4f}"
    assert shown["MiniLM: at (m + s, n + s) = (105, 102)"] == f"{a.shifted:.4f}"
    assert shown["MiniLM: difference"] == f"{a.difference:.1e}"
    assert abs(a.difference) > 0.1
    np.testing.assert_allclose(
        table(at, "Cosine of MiniLM's position vectors"), rope.position_cosines(model.position[:16])
    )


def test_minilm_head_at_the_words_own_places_is_the_models_first_layer():
    """The absolute-position head rebuilt from MiniLM's weights gives its layer-0 scores."""
    model = load_minilm()
    enc = model.run(DEFAULT_SENTENCE)
    trace = model.head_trace(enc, 0, 3)
    for i, j in ((1, 2), (5, 9), (0, 13)):
        head = minilm_head(model, enc.ids[i], enc.ids[j], 3)
        assert head.score(i, j) == pytest.approx(float(trace.scores[i, j]), rel=1e-4, abs=1e-4)


def test_moving_the_controls_recomputes(run):
    at = load(PAGE)
    at.selectbox(key="rope_layer").select(12)
    at.selectbox(key="rope_head").select(7)
    at.selectbox(key="rope_query").select(8)
    at.selectbox(key="rope_key").select(3)
    at.number_input(key="rope_m").set_value(40)
    at.number_input(key="rope_n").set_value(9)
    at.slider(key="rope_shift").set_value(350)
    rerun(at)
    q, k = run.queries_unrotated[12, 7, 8], run.keys_unrotated[12, 2, 3]  # head 7 reads K/V 2
    t = rope.shift_test(q, k, 40, 9, 350, BASE)
    shown = metrics(at)
    assert shown["SmolLM2: q_m · k_n at (m, n) = (40, 9)"] == f"{t.score:.6f}"
    assert shown["SmolLM2: at (m + s, n + s) = (390, 359)"] == f"{t.shifted:.6f}"
    other = rope.score(q, k, 41, 9, BASE)
    assert any(f"the score is {other:.6f}" in c.value for c in at.caption)
    assert abs(other - t.score) > 1e-3  # another distance, another score
