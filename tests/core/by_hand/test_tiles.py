"""attn_core.by_hand.tiles: the column softmax worked two keys at a time, in exact fractions."""

import dataclasses
from fractions import Fraction

import numpy as np
import pytest

from attn_core.by_hand.exercises import make_exercise
from attn_core.by_hand.tiles import hand_tiles
from attn_core.by_hand.trace import hand_attention
from attn_core.errors import AttentionInputError

# The classic sheet of the by-hand page (6 features x 4 tokens, d_k = 3).
X = [[1, 0, 1, 2], [1, 1, 1, 1], [0, 1, 1, 1], [2, 2, 2, -1], [-1, -1, 0, 0], [1, 1, 1, 1]]
W_Q = [[0, -1, 1, 0, 1, -1], [1, -1, 1, 0, 0, -1], [-1, 0, 0, 0, 0, 0]]
W_K = [[0, 0, 1, 0, 1, 0], [0, -1, 0, 0, 0, -1], [-1, 1, -1, 0, -1, 0]]
W_V = [[0, 0, -1, 0, 0, 0], [0, -1, 0, -1, -1, 0], [0, -1, -1, 1, 0, 0]]
F = Fraction


def loops(t, block):
    """m and l after every block, from their definitions: the max and the sum of 3^(s - m)
    over every allowed key so far, column by column."""
    n = t.scaled.shape[0]
    out = []
    for stop in range(block, n + block, block):
        ms, ls = [], []
        for j in range(t.scaled.shape[1]):
            seen = [
                int(t.scaled[i, j]) for i in range(min(stop, n)) if t.mask is None or t.mask[i, j]
            ]
            ms.append(max(seen))
            ls.append(sum(F(3) ** (s - max(seen)) for s in seen))
        out.append((ms, ls))
    return out


def test_the_classic_sheet_in_two_blocks_of_two_keys():
    t = hand_attention(X, W_Q, W_K, W_V)
    first, second = hand_tiles(t, 2)
    assert (first.start, first.stop, second.start, second.stop) == (0, 2, 2, 4)
    assert first.m.tolist() == [2, 2, 0, -2]
    assert first.l.tolist() == [F(10, 9), F(4, 3), F(4, 3), F(2)]  # e.g. 3^0 + 3^-2 = 10/9
    assert second.m.tolist() == [2, 2, 0, 0]  # only query 4 meets a larger score
    assert second.rescale.tolist() == [1, 1, 1, F(1, 9)]  # 3^(-2 - 0)
    assert second.l.tolist() == [F(4, 3), F(14, 9), F(10, 3), F(14, 9)]
    assert second.z.tolist() == t.z.tolist()  # exactly the full column softmax's z
    assert first.z[:, 0].tolist() == [F(-1, 10), F(-2), F(9, 10)]  # keys 1 and 2 only


@pytest.mark.parametrize("variant", ["plain", "causal"])
@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("block", [1, 2, 3, 6])
def test_tiles_end_at_the_full_answer_and_follow_the_definitions(variant, seed, block):
    ex = make_exercise(seed, variant=variant, difficulty="medium" if seed % 2 else "hard")
    t = ex.heads[0]
    tiles = hand_tiles(t, block)
    assert len(tiles) == -(-t.tokens // block)
    assert tiles[-1].z.tolist() == t.z.tolist()  # Fractions: equal, not close
    for tile, (ms, ls) in zip(tiles, loops(t, block), strict=True):
        assert tile.m.tolist() == ms
        assert tile.l.tolist() == ls
        assert tile.z.tolist() == (tile.u / tile.l).tolist()
        assert all(p <= 1 for p in tile.powers.ravel())  # 3^(s - m) with s <= m
    for before, after in zip(tiles, tiles[1:], strict=False):
        assert after.rescale.tolist() == [F(3) ** int(d) for d in before.m - after.m]
    assert all(isinstance(v, Fraction) for v in tiles[-1].l)


def test_causal_keys_after_the_query_add_nothing():
    t = hand_attention(X, W_Q, W_K, W_V, causal=True)
    first, second = hand_tiles(t, 2)
    assert first.powers[1, 0] == 0  # query 1 may not see key 2
    assert second.powers[:, :2].tolist() == [[0, 0], [0, 0]]  # queries 1, 2: block 2 is masked
    assert second.rescale[:2].tolist() == [1, 1] and second.m[:2].tolist() == first.m[:2].tolist()
    assert second.z.tolist() == t.z.tolist()


def test_trunc_rule_works_too():
    t = hand_attention(X, W_Q, W_K, W_V, scale_rule="trunc")
    assert hand_tiles(t, 2)[-1].z.tolist() == t.z.tolist()


@pytest.mark.parametrize("block", [0, -1, 1.5, True])
def test_bad_block(block):
    with pytest.raises(AttentionInputError, match="block must be a whole number"):
        hand_tiles(hand_attention(X, W_Q, W_K, W_V), block)


def test_exact_rule_and_unseen_first_block_are_refused():
    with pytest.raises(AttentionInputError, match="floor or trunc"):
        hand_tiles(hand_attention(X, W_Q, W_K, W_V, scale_rule="exact"))
    t = hand_attention(X, W_Q, W_K, W_V)
    mask = np.ones((4, 4), dtype=bool)
    mask[:2, 3] = False  # query 4 sees no key of the first block
    with pytest.raises(AttentionInputError, match="first block"):
        hand_tiles(dataclasses.replace(t, mask=mask), 2)
