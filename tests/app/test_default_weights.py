"""The lessons open on a real head whose weights visibly choose; the seeded random weights
are one click (or one link) away, and each choice says what the learner is looking at."""

import numpy as np
import pytest

import attn_core
from attn_ui.settings import LessonSettings
from tests.support.apptest import lesson, load, rerun, table

# step pages that show the lesson's A at their defaults: page -> the table's title
STEP_WEIGHTS = {
    "pages/00_Overview.py": "A = softmax",
    "pages/05_Softmax.py": "A = softmax",
    "pages/06_Weighted_sum.py": "A (rows sum to 1)",
}


def test_default_settings_are_a_real_head_that_chooses():
    s = LessonSettings()
    assert s.weights == "pretrained"
    a = lesson().trace.weights
    assert a.max(axis=1).max() >= 0.4  # some row puts most of its attention on one key
    np.testing.assert_allclose(a.sum(axis=1), 1.0, atol=1e-6)  # MiniLM computes in float32


@pytest.mark.parametrize("page", list(STEP_WEIGHTS), ids=lambda p: p.split("_", 1)[1])
def test_step_pages_show_the_default_head_and_say_whose_it_is(loaded, page):
    at = loaded(page)
    a = table(at, STEP_WEIGHTS[page])
    np.testing.assert_allclose(a, lesson().trace.weights, atol=1e-12)
    assert a.max(axis=1).max() >= 0.4
    s = LessonSettings()
    notes = [c.value for c in at.caption if "MiniLM" in c.value]
    line = next(n for n in notes if f"layer {s.layer}, head {s.head} of MiniLM" in n)
    assert "one token ahead" in line and "Random, seeded" not in line  # one short line
    (more,) = [e for e in at.expander if e.label == "More on these weights"]  # the rest folds
    assert "Random, seeded" in more.caption[0].value  # the other choice, explained


def test_random_weights_are_one_click_away_and_explained():
    at = load("pages/05_Softmax.py")
    at.radio(key="lesson_w_weights").set_value("random")
    rerun(at)
    a = table(at, "A = softmax")
    np.testing.assert_allclose(a, lesson(weights="random").trace.weights, atol=1e-12)
    assert any("nearly uniform" in c.value for c in at.caption)
    assert at.query_params["weights"] == "random"  # a link that keeps them


def test_an_explicit_random_link_still_gives_the_random_weights():
    at = load("pages/00_Overview.py", query={"weights": "random"})
    np.testing.assert_allclose(
        table(at, "A = softmax"), lesson(weights="random").trace.weights, atol=1e-12
    )


def test_an_old_link_for_the_toy_weights_keeps_its_meaning():
    """Made when random weights were the default: d_model (or d_k, seed, heads) without
    `weights` means random; weights=pretrained without layer/head means layer 0, head 0."""
    at = load("pages/00_Overview.py", query={"d_model": "16"})
    assert at.radio(key="lesson_w_weights").value == "random"
    assert table(at, "X").shape[1] == 16
    at = load("pages/00_Overview.py", query={"weights": "pretrained"})
    assert (at.slider(key="lesson_w_layer").value, at.slider(key="lesson_w_head").value) == (0, 0)


def test_d_k_above_d_model_is_explained():
    at = load("pages/02_Projection.py", query={"weights": "random", "d_model": "4", "d_k": "8"})
    notes = [c.value for c in at.sidebar.caption if "d_k = 8 is more than d_model = 4" in c.value]
    assert notes and "rank at most 4" in notes[0]
    at = load("pages/02_Projection.py", query={"weights": "random", "d_model": "8", "d_k": "4"})
    assert not any("is more than d_model" in c.value for c in at.sidebar.caption)


def test_multi_head_opens_on_random_heads_without_changing_the_other_pages():
    at = load("pages/08_Multi-head.py")
    assert at.radio(key="lesson_w_weights").value == "random"
    assert not at.warning  # no "choose random weights" dead end on a first visit
    at.switch_page("pages/05_Softmax.py")
    rerun(at)
    assert at.radio(key="lesson_w_weights").value == "pretrained"


@pytest.mark.parametrize(
    "sentence",
    [LessonSettings.sentence, "The driver could not drive the car because it had a problem."],
)
def test_the_default_head_does_what_its_note_says(sentence):
    """lessons/weights.md says it looks one token ahead: most word rows put their largest
    weight on the next token, the others on [CLS]; and the causal mask takes most of it away."""
    a = lesson(sentence=sentence).trace.weights
    words = range(1, len(a) - 1)  # rows between [CLS] and [SEP]
    ahead = [i for i in words if a[i].argmax() == i + 1]
    assert len(ahead) >= 0.6 * len(words)
    assert all(a[i].argmax() in (i + 1, 0) for i in words)
    assert max(a[i, i + 1] for i in ahead) >= 0.4
    allowed = attn_core.causal_mask(len(a))
    assert np.mean(np.where(allowed, a, 0).sum(axis=1)) < 0.6  # the mask removes most of it


def test_multi_head_says_once_why_its_heads_are_near_uniform():
    at = load("pages/08_Multi-head.py")
    notes = [
        c.value for c in at.caption if "drawn at random" in c.value or "nearly uniform" in c.value
    ]
    assert len(notes) == 1 and "Model explorer" in notes[0]
