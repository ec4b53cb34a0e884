"""lesson_weights: a head's matrices do not depend on how many heads there are."""

import numpy as np
import pytest

import attn_core


@pytest.mark.parametrize("seed", [0, 7])
def test_adding_heads_keeps_the_earlier_heads(seed):
    one = attn_core.lesson_weights(8, 4, 3, seed=seed)
    three = attn_core.lesson_weights(8, 4, 3, n_heads=3, seed=seed)
    np.testing.assert_array_equal(three.w_q[:, :4], one.w_q)
    np.testing.assert_array_equal(three.w_k[:, :4], one.w_k)
    np.testing.assert_array_equal(three.w_v[:, :3], one.w_v)
    # the heads differ from each other
    assert not np.allclose(three.w_q[:, 4:8], three.w_q[:, :4])
