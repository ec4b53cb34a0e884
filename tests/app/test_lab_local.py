"""Local-attention lab: the window slider bands the weights; counts are T(2w+1) - w(w+1)."""

from dataclasses import replace

import numpy as np
import pytest

from attn_core.labs.local import local_attention, n_scores, score_counts
from attn_ui.compute import lesson_run
from attn_ui.settings import LessonSettings
from tests.support.apptest import (
    load,
    rerun,
    table,
)

PAGE = "pages/45_Local_attention.py"

# These tests read the seeded random weights (d_model, d_k, seed): the lessons open on a real
# head, and a link with weights=random gives the random ones (tests/app/test_default_weights.py).
RANDOM = {"weights": "random"}

T = 12  # tokens of the default sentence


def engine(width, **changes):
    g = lesson_run(replace(LessonSettings(**(RANDOM | changes)), mask="none")).trace
    return g, local_attention(g.q, g.k, g.v, width, scale=g.scale, temperature=g.temperature)


def counts(at):
    return next(df.value for df in at.dataframe if {"T", "global: T²"} <= set(df.value.columns))


def set_width(at, w):
    at.slider(key="local_width").set_value(w)
    return rerun(at)


def test_default_numbers_equal_the_engine(loaded):
    at = load(PAGE, query=RANDOM)
    g, t = engine(2)
    np.testing.assert_allclose(table(at, "Global"), g.weights, atol=1e-12)
    np.testing.assert_allclose(table(at, "Local, w = 2"), t.weights, atol=1e-12)
    band = np.abs(np.subtract.outer(range(T), range(T))) <= 2
    assert np.all(table(at, "Local, w = 2")[~band] == 0)
    values = [m.value for m in at.metric]
    assert values[:2] == [f"{T * T:,} scores", f"{n_scores(T, 2):,} scores"]


@pytest.mark.parametrize("w", [0, 1, 5])
def test_window_slider_changes_band_and_counts(w):
    at = set_width(load(PAGE, query=RANDOM), w)
    np.testing.assert_allclose(table(at, f"Local, w = {w}"), engine(w)[1].weights, atol=1e-12)
    assert at.metric[1].value == f"{T * (2 * w + 1) - w * (w + 1):,} scores"
    df = counts(at)
    full, band = score_counts(list(df["T"]), w)
    np.testing.assert_array_equal(df["global: T²"], full)
    np.testing.assert_array_equal(df[f"local, w = {w}"], band)
    assert T in set(df["T"])


def test_width_zero_puts_all_weight_on_the_diagonal():
    at = set_width(load(PAGE, query=RANDOM), 0)
    np.testing.assert_array_equal(table(at, "Local, w = 0"), np.eye(T))


def test_window_covering_the_sentence_is_global():
    at = set_width(load(PAGE, query=RANDOM), T - 1)
    assert at.info and "global attention" in at.info[0].value
    np.testing.assert_allclose(table(at, f"Local, w = {T - 1}"), table(at, "Global"), atol=1e-15)
    assert at.metric[2].value == "0%"


def test_shared_sidebar_settings_reach_the_band():
    at = load(PAGE, query=RANDOM)
    at.select_slider(key="lesson_w_d_k").set_value(8)
    rerun(at)
    np.testing.assert_allclose(table(at, "Local, w = 2"), engine(2, d_k=8)[1].weights, atol=1e-12)
