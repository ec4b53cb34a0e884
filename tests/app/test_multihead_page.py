"""The multi-head page: each head's weights, their mean, the concatenation, W_O and the output."""

import numpy as np

from attn_core.labs import weighted_sum
from attn_lessons.text import lesson
from attn_ui.compute import lesson_run
from attn_ui.settings import LessonSettings
from tests.support.apptest import (
    heatmaps,
    load,
    rerun,
    table,
)

PAGE = "pages/08_Multi-head.py"

# These tests read the seeded random weights (d_model, d_k, seed): the lessons open on a real
# head, and a link with weights=random gives the random ones (tests/app/test_default_weights.py).
RANDOM = {"weights": "random"}


def expected(**changes):
    return lesson_run(LessonSettings(**(RANDOM | changes)), multi=True).multi


def head_tables(at):
    """The heads' heatmaps (one component draws them all, with one "Numbers" box)."""
    return [f for f in heatmaps(at) if f["title"].startswith("head ")]


def test_every_head_concat_w_o_and_output_equal_the_engine(loaded):
    at = load(PAGE, query=RANDOM)
    mh = expected()
    assert len(head_tables(at)) == mh.n_heads == 2
    for h in range(mh.n_heads):
        np.testing.assert_allclose(table(at, f"head {h}: A_{h}"), mh.heads[h].weights)
    np.testing.assert_allclose(table(at, "concat(Z_0 … Z_1)"), mh.concat, atol=1e-12)
    np.testing.assert_allclose(table(at, "W_O"), mh.w_o)
    np.testing.assert_allclose(table(at, "output = concat W_O"), mh.output, atol=1e-12)
    assert not np.allclose(mh.heads[0].weights, mh.heads[1].weights)  # two different heads


def test_heads_slider_adds_heads_and_widens_the_concat():
    at = load(PAGE, query=RANDOM)
    at.slider(key="lesson_w_n_heads").set_value(5)
    rerun(at)
    mh = expected(n_heads=5)
    assert len(head_tables(at)) == 5
    concat = table(at, "concat(Z_0 … Z_4)")
    assert concat.shape == (len(mh.x), 5 * mh.heads[0].d_v)
    np.testing.assert_allclose(concat, mh.concat, atol=1e-12)
    np.testing.assert_allclose(table(at, "head 4: A_4"), mh.heads[4].weights)
    t = len(mh.x)
    # the rule is shown in letters; this sentence's count is the check's question, not given
    assert any("N positions × M heads = N × M context vectors" in m.value for m in at.markdown)
    assert not any(f"{t * 5} context vectors" in m.value for m in at.markdown)
    [count] = [n for n in at.number_input if n.key.startswith("chk_multihead_context_vectors")]
    assert f"{t} tokens and there are 5 heads" in count.label


def test_mean_over_heads_view():
    at = load(PAGE, query=RANDOM)
    at.slider(key="lesson_w_n_heads").set_value(4)
    rerun(at)
    at.radio(key="mh_view").set_value("Mean over heads")
    rerun(at)
    assert head_tables(at) == []
    mean = table(at, "mean of the heads' A")
    np.testing.assert_allclose(mean, weighted_sum.mean_over_heads(expected(n_heads=4).weights))
    np.testing.assert_allclose(mean.sum(axis=1), 1.0)


def test_causal_mask_is_shared_by_every_head():
    at = load(PAGE, query=RANDOM)
    at.selectbox(key="lesson_w_mask").select("causal")
    rerun(at)
    for h in range(2):
        w = table(at, f"head {h}: A_{h}")
        assert np.all(w[np.triu_indices_from(w, 1)] == 0.0)
        np.testing.assert_allclose(w.sum(axis=1), 1.0)


def test_similarity_heads_must_divide_d_model():
    at = load(PAGE, query=RANDOM)
    at.radio(key="lesson_w_weights").set_value("similarity")
    rerun(at)
    at.slider(key="lesson_w_n_heads").set_value(3)
    rerun(at)
    assert at.error and "do not split into 3 heads" in at.error[0].value
    at.slider(key="lesson_w_n_heads").set_value(4)
    rerun(at)
    assert not at.error and len(head_tables(at)) == 4


def test_temperature_is_explained_not_applied():
    at = load(PAGE, query=RANDOM)
    before = table(at, "head 0: A_0")
    at.slider(key="lesson_w_temperature").set_value(0.3)
    rerun(at)
    assert any("single-head pages" in i.value for i in at.info)
    np.testing.assert_allclose(table(at, "head 0: A_0"), before)


def test_pretrained_weights_offer_a_way_back():
    at = load(PAGE, query=RANDOM)
    at.radio(key="lesson_w_weights").set_value("pretrained")
    rerun(at)
    assert at.warning and "toy weights" in at.warning[0].value
    assert head_tables(at) == []
    assert lesson("multihead")["The idea"] in [m.value for m in at.markdown]  # no figure
    at.button(key="mh_random").click()
    rerun(at)
    assert len(head_tables(at)) == 2 and not at.warning
