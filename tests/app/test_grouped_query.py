"""Grouped-query attention: the grouping, one group's heads as the model computes them, and
the cache of MHA, GQA and MQA."""

import numpy as np
import pytest

from attn_core.labs import grouped_query as gq
from attn_core.pretrained import load_smollm
from attn_ui import formats
from attn_ui.settings import DEFAULT_SENTENCE
from tests.support.apptest import canvas_chart, chart_values, chart_x, heatmap, load, rerun, table

PAGE = "pages/63_Grouped_query.py"


@pytest.fixture(scope="module")
def model():
    return load_smollm()


@pytest.fixture(scope="module")
def run(model):
    return model.run(DEFAULT_SENTENCE)


def frame_with(at, column: str):
    return next(d.value for d in at.dataframe if column in d.value.columns)


def test_the_grouping_matrix_is_the_models_repeat(loaded):
    at = loaded(PAGE)
    reads = table(at, "Which K/V head each query head reads")
    assert reads.shape == (9, 3)
    np.testing.assert_array_equal(reads.argmax(axis=1), [0, 0, 0, 1, 1, 1, 2, 2, 2])
    np.testing.assert_array_equal(reads.sum(axis=1), 1)
    boxes = " ".join(m.value for m in at.markdown)
    assert "query head 4 reads it" in boxes


def test_one_groups_heads_are_the_models_and_differ(loaded, run):
    at = loaded(PAGE)
    for h in range(3):
        np.testing.assert_array_equal(
            table(at, f"L0 query head {h} (K/V 0): A"), run.attentions[0, h]
        )
    np.testing.assert_array_equal(table(at, "L0 K of K/V head 0"), run.keys[0, 0])
    rows = heatmap(at, "L0 query head 0 (K/V 0): A")["rows"]
    assert rows == [formats.token(t) for t in run.tokens] and rows[1] == "␣cat"  # not " cat"
    gaps = frame_with(at, "head 0").to_numpy(dtype=float)
    np.testing.assert_allclose(gaps, gq.pattern_gaps(run.attentions[0, :3]))
    assert gaps[0, 2] > 0.5  # same keys, different patterns
    assert any("largest difference is 0.0e+00" in m.value for m in at.markdown)


def test_another_layer_and_group(run):
    at = load(PAGE)
    at.slider(key="gqa_layer").set_value(17)
    at.radio(key="gqa_group").set_value(2)
    rerun(at)
    for h in (6, 7, 8):
        np.testing.assert_array_equal(
            table(at, f"L17 query head {h} (K/V 2): A"), run.attentions[17, h]
        )
    np.testing.assert_array_equal(table(at, "L17 K of K/V head 2"), run.keys[17, 2])


def test_cache_table_and_chart_equal_the_formula(loaded, model):
    at = loaded(PAGE)
    cache = frame_with(at, "K/V heads")
    assert list(cache["sharing"]) == ["MHA", "GQA (SmolLM2)", "MQA"]
    assert list(cache["K/V heads"]) == [9, 3, 1]
    assert list(cache["query heads per K/V head"]) == [1, 3, 9]
    assert list(cache["bytes per token"]) == [138_240, 46_080, 15_360]
    assert cache["bytes per token"][1] == model.kv_cache_bytes(1)
    # decimal units, as on the KV cache page: 377.5 MB for SmolLM2 at 8,192 tokens, not 360.0
    assert list(cache["8192 tokens"]) == ["1,132.5 MB", "377.5 MB", "125.8 MB"]
    assert list(cache["8192 tokens"]) == [
        formats.size(model.kv_cache_bytes(8192, kv_heads=k)) for k in (9, 3, 1)
    ]
    assert cache["your 12 tokens"][1] == formats.size(model.kv_cache_bytes(12)) == "553.0 kB"
    assert any(c.value == formats.SIZE_NOTE for c in at.caption)
    fig = canvas_chart(at, "KV cache (float32) against the context")
    t = chart_x(fig, "GQA")
    np.testing.assert_allclose(
        chart_values(fig, "GQA"), [model.kv_cache_bytes(int(n)) / 1e6 for n in t]
    )
    np.testing.assert_allclose(chart_values(fig, "MHA"), 3 * chart_values(fig, "GQA"))


def test_a_shorter_context_changes_the_table():
    at = load(PAGE)
    at.select_slider(key="gqa_context").set_value(512)
    rerun(at)
    cache = frame_with(at, "K/V heads")
    assert list(cache["512 tokens"]) == ["70.8 MB", "23.6 MB", "7.9 MB"]
