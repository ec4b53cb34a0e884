"""train_head: a head learns previous_token and same_token with our backward pass."""

import numpy as np
import pytest

import attn_core
from attn_core import AttentionInputError
from attn_core.training import (
    D_MODEL,
    LETTERS,
    MAX_POSITIONS,
    causal_blocks,
    cross_entropy,
    head,
    inputs,
    make_batch,
    parse_letters,
)


@pytest.fixture(scope="module")
def previous():
    return attn_core.train_head("previous_token", seed=0)


@pytest.fixture(scope="module")
def same():
    return attn_core.train_head("same_token", seed=0)


def test_previous_token_is_learned(previous):
    assert previous.evaluate(seed=123) >= 0.9
    assert previous.losses[-10:].mean() < previous.losses[:10].mean() / 10


def test_same_token_is_learned(same):
    assert same.evaluate(seed=123) >= 0.85  # 0.93 at the default settings
    assert same.losses[-10:].mean() < same.losses[:10].mean() / 10


def test_the_head_starts_near_uniform(previous):
    first = previous.sample_weights[0]  # (T, T) before any update
    allowed = np.tril(np.ones(first.shape, dtype=bool))
    uniform = allowed / allowed.sum(axis=1, keepdims=True)
    assert np.abs(first - uniform).max() < 0.1


def test_snapshots_hold_every_step(previous):
    s = previous.settings
    assert previous.losses.shape == previous.right_weight.shape == (s.steps,)
    assert previous.w_q.shape == previous.w_k.shape == (s.steps + 1, D_MODEL, s.d_k)
    assert previous.sample_weights.shape == (s.steps + 1, s.length, s.length)
    for step in (0, 17, s.steps):
        np.testing.assert_array_equal(
            previous.attend(previous.sample, step=step).weights, previous.sample_weights[step]
        )
    # the pattern appears step by step: the weight on key i - 1 grows along the run
    on_previous = previous.sample_weights[:, np.arange(1, s.length), np.arange(s.length - 1)]
    assert on_previous[0].mean() < 0.5 < 0.95 < on_previous[-1].mean()


def test_same_seed_same_run_to_the_bit():
    a = attn_core.train_head("same_token", seed=3, steps=20)
    b = attn_core.train_head("same_token", seed=3, steps=20)
    c = attn_core.train_head("same_token", seed=4, steps=20)
    for name in ("losses", "right_weight", "w_q", "w_k", "sample", "sample_weights"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    assert not np.array_equal(a.w_q, c.w_q)
    assert a.evaluate(9) == b.evaluate(9)


def test_training_gradient_equals_finite_differences():
    """The update uses x^T dq from attention_backward: the gradient of the batch's loss."""
    rng = np.random.default_rng(0)
    tokens, targets = make_batch("same_token", rng, 3, 5)
    x = inputs(tokens.reshape(-1), length=5)
    mask = causal_blocks(3, 5)
    w_q, w_k = rng.normal(0, 0.5, (D_MODEL, 4)), rng.normal(0, 0.5, (D_MODEL, 4))

    def loss():
        return cross_entropy(head(x, w_q, w_k, mask, 5).output, targets.reshape(-1))[0]

    t = head(x, w_q, w_k, mask, 5)
    g = attn_core.attention_backward(t, cross_entropy(t.output, targets.reshape(-1))[1])
    for w, grad in ((w_q, x.T @ g.dq), (w_k, x.T @ g.dk)):
        numeric = np.zeros_like(w)
        for idx in np.ndindex(w.shape):
            old = w[idx]
            w[idx] = old + 1e-6
            up = loss()
            w[idx] = old - 1e-6
            numeric[idx] = (up - loss()) / 2e-6
            w[idx] = old
        np.testing.assert_allclose(grad, numeric, rtol=1e-6, atol=1e-9)


def test_without_positions_previous_token_is_not_learned():
    """Only the position half of x says where a token is; without it the head cannot learn
    'the one before me'. The best it can do is look away from its own letter: 1/i of the
    weight on each of the i earlier keys, 0.37 on average over queries 1..7."""
    run = attn_core.train_head("previous_token", seed=0, positions=False)
    looking_away = np.mean([1 / i for i in range(1, 8)])
    assert run.evaluate(seed=123) < looking_away + 0.02


def test_without_positions_same_token_cannot_tell_the_copy_from_itself():
    run = attn_core.train_head("same_token", seed=0, positions=False)
    assert run.evaluate(seed=123) < 0.6  # the query and its earlier copy share the same x


def test_positions_beyond_the_training_length_were_never_learned(previous):
    t = previous.attend(parse_letters(LETTERS))  # 16 letters, trained on 8
    on_previous = t.weights[np.arange(1, 16), np.arange(15)]
    assert on_previous[:7].min() > 0.9 and on_previous[8:].max() < 0.5


def test_batches_follow_their_task():
    rng = np.random.default_rng(1)
    tokens, targets = make_batch("previous_token", rng, 4, 6)
    np.testing.assert_array_equal(targets, np.tile([0, 0, 1, 2, 3, 4], (4, 1)))
    tokens, targets = make_batch("same_token", rng, 50, 8)
    copies = 0
    for seq, tgt in zip(tokens, targets, strict=True):
        assert np.bincount(seq).max() <= 2  # each letter at most twice
        for i, j in enumerate(tgt):
            assert seq[j] == seq[i] and j <= i
            if j == i:
                assert seq[i] not in seq[:i]  # itself only when no earlier copy
            copies += j < i
    assert copies > 50  # plenty of queries with a copy to find


def test_parse_letters():
    np.testing.assert_array_equal(parse_letters("a b c a"), [0, 1, 2, 0])
    np.testing.assert_array_equal(parse_letters(" ABca "), [0, 1, 2, 0])


@pytest.mark.parametrize(
    "text, words",
    [
        ("", "empty"),
        ("   ", "empty"),
        ("a b z", "'z'"),
        ("a 1 <b>", "letters a to p"),
        ("a" * (MAX_POSITIONS + 1), f"at most {MAX_POSITIONS}"),
    ],
)
def test_parse_letters_says_what_to_type(text, words):
    with pytest.raises(AttentionInputError, match=words):
        parse_letters(text)


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"task": "next_token"}, "Unknown task 'next_token'"),
        ({"steps": 0}, "steps must be between 1 and"),
        ({"steps": 2.5}, "steps must be a whole number"),
        ({"lr": 0}, "learning rate"),
        ({"lr": float("nan")}, "learning rate"),
        ({"length": 1}, "length must be between 2"),
        ({"length": MAX_POSITIONS + 1}, "length must be between"),
        ({"batch": 10_000}, "batch must be between"),
        ({"positions": "yes"}, "positions must be True or False"),
        ({"seed": -1}, "seed must be a whole number"),
        ({"momentum": 0.9}, "Unknown setting momentum"),
    ],
)
def test_bad_settings_say_what_to_fix(kwargs, words):
    kwargs = {"task": "previous_token", **kwargs}
    with pytest.raises(AttentionInputError, match=words):
        attn_core.train_head(kwargs.pop("task"), **kwargs)


def test_a_huge_learning_rate_is_reported_not_nan():
    with pytest.raises(AttentionInputError, match="smaller learning rate"):
        attn_core.train_head("same_token", seed=0, lr=100, steps=200)


def test_attend_checks_its_tokens(previous):
    with pytest.raises(AttentionInputError, match="Token ids run from 0"):
        previous.attend([0, 1, 99])
