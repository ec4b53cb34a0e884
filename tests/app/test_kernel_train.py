"""Train-a-head page: Train, the run's numbers, scrubbing, the learner's sequence."""

import numpy as np
import pytest

from attn_core.training import parse_letters, right_keys, train_head
from tests.support.apptest import canvas_chart, chart_values, load, rerun, table


@pytest.fixture(scope="module")
def trained():
    at = load("pages/52_Train_a_head.py")
    assert at.metric  # a first visit opens on the head trained at the defaults
    at.button(key="train_go").click()  # Train again: the same settings, the same run
    return rerun(at)


@pytest.fixture(scope="module")
def run():
    return train_head("previous_token", seed=0)


def metrics(at) -> dict:
    return {m.label: m.value for m in at.metric}


def test_defaults_show_the_runs_numbers(trained, run):
    shown = metrics(trained)
    # three significant digits: the last loss (about 6e-4) would read 0.0006 to 4 decimals
    assert shown["Loss, first step"] == f"{run.losses[0]:#.3g}"
    assert shown["Loss, last step"] == f"{run.losses[-1]:#.3g}"
    weight = run.evaluate(seed=1000)
    assert shown["Weight on the right key, fresh sequences"] == f"{weight:.3f}"
    assert weight >= 0.9
    fig = canvas_chart(trained, "Loss and weight on the right key")
    np.testing.assert_allclose(chart_values(fig, "loss"), run.losses)
    np.testing.assert_allclose(table(trained, "A after 200 steps"), run.sample_weights[-1])


def test_the_slider_scrubs_back_to_the_start(trained, run):
    trained.slider(key="train_step_200").set_value(0)
    rerun(trained)
    first = table(trained, "A after 0 steps")
    np.testing.assert_allclose(first, run.sample_weights[0])
    assert first[1:].max() < 0.6  # almost uniform before training (row 0 sees only itself)


def test_your_sequence_is_attended_by_the_trained_head(trained, run):
    trained.text_input(key="train_typed").input("a b c d a").run()
    tokens = parse_letters("abcda")
    t = run.attend(tokens)
    np.testing.assert_allclose(table(trained, "A on your sequence"), t.weights)
    rows = np.arange(5)
    mean = t.weights[rows, right_keys("previous_token", tokens)][1:].mean()
    assert metrics(trained)["Mean weight on the right key (queries with one)"] == f"{mean:.3f}"


@pytest.mark.parametrize(
    "typed, words",
    [
        ("", "empty"),
        ("a b x", "letters a to p"),
        ("<b>hi</b>", "letters a to p"),
        ("a" * 17, "at most 16"),
    ],
)
def test_bad_sequences_get_a_message(trained, typed, words):
    trained.text_input(key="train_typed").input(typed).run()
    assert not trained.exception
    assert any(words in e.value for e in trained.error), [e.value for e in trained.error]
    assert "Loss, last step" in metrics(trained)  # the rest of the page still stands


def test_same_token_without_positions_is_reported_honestly():
    at = load("pages/52_Train_a_head.py")
    at.radio(key="train_task").set_value("same_token")
    at.toggle(key="train_positions").set_value(False)
    rerun(at)  # as in a browser: each change reruns the page before the click
    at.button(key="train_go").click()
    rerun(at)
    run = train_head("same_token", seed=0, positions=False)
    weight = run.evaluate(seed=1000)
    assert metrics(at)["Weight on the right key, fresh sequences"] == f"{weight:.3f}"
    assert weight < 0.6


def test_changing_a_setting_asks_for_training_again(trained):
    trained.select_slider(key="train_lr").set_value(5.0)
    rerun(trained)
    assert not trained.metric and "Press **Train**" in trained.info[0].value
