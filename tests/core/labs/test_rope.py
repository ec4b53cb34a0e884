"""RoPE taken apart: angles, rotations as matrices, and the score depending on m - n only."""

import math

import numpy as np
import pytest

from attn_core import AttentionInputError
from attn_core.labs import rope as r
from attn_core.pretrained.bert_layer import layer_norm

BASE = 100_000.0


def rotation_matrix(position: int, d: int, base: float) -> np.ndarray:
    """The naive form: a (d, d) block-diagonal matrix, one 2 x 2 rotation per pair."""
    out = np.zeros((d, d))
    for i in range(d // 2):
        a = position * base ** (-2 * i / d)
        out[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [
            [math.cos(a), -math.sin(a)],
            [math.sin(a), math.cos(a)],
        ]
    return out


def test_frequencies_and_wavelengths_by_hand():
    f = r.pair_frequencies(64, BASE)
    assert f.shape == (32,)
    assert f[0] == 1.0  # pair 0: one radian per position
    assert f[1] == pytest.approx(BASE ** (-2 / 64))
    assert f[-1] == pytest.approx(BASE ** (-62 / 64))
    assert r.wavelengths(64, BASE)[0] == pytest.approx(2 * math.pi)
    np.testing.assert_allclose(r.angles_at(7, 64, BASE), 7 * f)


@pytest.mark.parametrize("position", [0, 1, 5, 300])
def test_rotate_is_the_block_rotation_matrix(position):
    x = np.random.default_rng(position).normal(size=8)
    np.testing.assert_allclose(r.rotate(x, position, 10.0), rotation_matrix(position, 8, 10.0) @ x)


@pytest.mark.parametrize("seed", range(4))
def test_score_depends_only_on_the_distance(seed):
    rng = np.random.default_rng(seed)
    q, k = rng.normal(size=64), rng.normal(size=64)
    m, n, s = (int(v) for v in rng.integers(0, 500, size=3))
    t = r.shift_test(q, k, m, n, s, BASE)
    assert (t.m, t.n, t.shift) == (m, n, s)
    assert abs(t.difference) < 1e-9 * (1 + abs(t.score))
    # the naive form: q^T R(m)^T R(n) k = q^T R(n - m) k
    naive = q @ rotation_matrix(m, 64, BASE).T @ rotation_matrix(n, 64, BASE) @ k
    assert t.score == pytest.approx(naive, rel=1e-9, abs=1e-9)
    # another distance: another score
    assert r.score(q, k, m + 3, n, BASE) != pytest.approx(t.score, rel=1e-6)


def test_scores_by_distance_start_at_the_plain_dot_product():
    rng = np.random.default_rng(0)
    q, k = rng.normal(size=16), rng.normal(size=16)
    s = r.scores_by_distance(q, k, [0, 1, 2, -3], BASE)
    assert s[0] == pytest.approx(q @ k)
    assert s[2] == pytest.approx(r.score(q, k, 12, 10, BASE))
    assert s[3] == pytest.approx(r.score(q, k, 4, 7, BASE))


def test_pair_track_turns_on_a_circle():
    track = r.pair_track([1.0, 0.0], [0, 1, 2], 0.5)
    np.testing.assert_allclose(
        track, [[1, 0], [math.cos(0.5), math.sin(0.5)], [math.cos(1), math.sin(1)]]
    )
    np.testing.assert_allclose(np.linalg.norm(r.pair_track([3.0, 4.0], range(9), 1.3), axis=1), 5)
    # a pair of the model's rotation is this track
    x = np.random.default_rng(2).normal(size=8)
    f = r.pair_frequencies(8, 10.0)
    np.testing.assert_allclose(r.rotate(x, 4, 10.0)[2:4], r.pair_track(x[2:4], [4], f[1])[0])


def test_position_cosines_by_a_loop():
    p = np.random.default_rng(0).normal(size=(4, 6))
    c = r.position_cosines(p)
    for i in range(4):
        for j in range(4):
            want = p[i] @ p[j] / (np.linalg.norm(p[i]) * np.linalg.norm(p[j]))
            assert c[i, j] == pytest.approx(want)


def test_absolute_positions_change_the_score_under_a_shift():
    rng = np.random.default_rng(0)
    d, d_k = 8, 4
    head = r.AbsoluteHead(
        word_q=rng.normal(size=d),
        word_k=rng.normal(size=d),
        table=rng.normal(size=(20, d)),
        norm=(np.ones(d), np.zeros(d), 1e-12),
        w_q=rng.normal(size=(d, d_k)),
        b_q=rng.normal(size=d_k),
        w_k=rng.normal(size=(d, d_k)),
        b_k=rng.normal(size=d_k),
    )
    x_q = layer_norm(head.word_q + head.table[5], *head.norm)
    x_k = layer_norm(head.word_k + head.table[2], *head.norm)
    want = (x_q @ head.w_q + head.b_q) @ (x_k @ head.w_k + head.b_k)
    assert head.score(5, 2) == pytest.approx(want)
    t = head.shift_test(5, 2, 4)
    assert t.score == pytest.approx(want) and abs(t.difference) > 1e-3
    with pytest.raises(AttentionInputError, match="position vectors 0..19"):
        head.score(5, 20)


@pytest.mark.parametrize(
    ("q", "m", "match"),
    [(np.ones(3), 0, "even length"), (np.ones(4), -1, "m must"), (np.array([np.nan, 1]), 0, "NaN")],
)
def test_bad_vectors_and_positions_are_refused(q, m, match):
    with pytest.raises(AttentionInputError, match=match):
        r.shift_test(q, np.ones(q.size), m, 0, 1, BASE)


def test_rotating_the_models_unrotated_vectors_gives_its_queries_and_keys():
    from attn_core.pretrained import load_smollm

    model = load_smollm()
    run = model.run("one two three four five")
    base = model.config["rope_base"]
    for t in range(run.n_tokens):
        q = r.rotate(run.queries_unrotated[3, 4, t], t, base)
        k = r.rotate(run.keys_unrotated[3, 1, t], t, base)
        np.testing.assert_allclose(q, run.queries[3, 4, t], atol=1e-4, rtol=1e-5)
        np.testing.assert_allclose(k, run.keys[3, 1, t], atol=1e-4, rtol=1e-5)
