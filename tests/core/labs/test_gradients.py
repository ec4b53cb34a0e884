"""The gradients lab: the target loss, one gradient step, saturation of dS."""

import numpy as np
import pytest

from attn_core import AttentionInputError, self_attention
from attn_core.labs.gradients import forward, gradient_step, saturation, target_loss


def rand(seed, *shape):
    return np.random.default_rng(seed).normal(size=shape)


X, W_Q, W_K, W_V = rand(0, 5, 6), rand(1, 6, 3) / 2, rand(2, 6, 3) / 2, rand(3, 6, 2) / 2
B = (rand(5, 3), rand(6, 3), rand(7, 2))  # a real (BERT) head's biases b_q, b_k, b_v


def test_target_loss_and_its_gradient():
    t = self_attention(X, W_Q, W_K, W_V)
    target = rand(4, 2)
    loss, d_z = target_loss(t, 3, target)
    assert loss == pytest.approx(0.5 * ((t.output[3] - target) ** 2).sum())
    np.testing.assert_array_equal(d_z[3], t.output[3] - target)
    assert not np.delete(d_z, 3, axis=0).any()


@pytest.mark.parametrize("mask", [None, np.tril(np.ones((5, 5), dtype=bool))])
def test_a_small_step_lowers_the_loss_and_moves_attention_toward_j(mask):
    step = gradient_step(X, W_Q, W_K, W_V, row=4, toward=1, lr=0.01, mask=mask)
    assert step.loss_after < step.loss
    np.testing.assert_array_equal(step.target, step.before.v[1])
    # the first-order prediction: the loss falls by about lr * |dW|^2
    g = step.grads
    drop = 0.01 * sum(float((w**2).sum()) for w in (g.dw_q, g.dw_k, g.dw_v))
    assert step.loss - step.loss_after == pytest.approx(drop, rel=0.1)


def test_a_real_heads_biases_move_q_k_v_and_dw_is_still_the_slope_of_the_loss():
    step = gradient_step(X, W_Q, W_K, W_V, row=4, toward=1, lr=0.01, bias=B)
    g = step.grads
    for got, w, b in zip(
        (step.before.q, step.before.k, step.before.v), (W_Q, W_K, W_V), B, strict=True
    ):
        np.testing.assert_allclose(got, X @ w + b, atol=1e-12)
    # the step moves W and keeps b
    np.testing.assert_allclose(step.after.k, X @ (W_K - 0.01 * g.dw_k) + B[1], atol=1e-12)
    assert step.loss_after < step.loss

    def loss(ws):  # the target held, as the step holds it
        z = forward(X, *ws, B).output[4]
        return 0.5 * ((z - step.target) ** 2).sum()

    eps = 1e-6  # each dW against central differences of the loss
    for n, grad in enumerate((g.dw_q, g.dw_k, g.dw_v)):
        slope = np.zeros_like(grad)
        for cell in np.ndindex(grad.shape):
            nudge = np.zeros_like(grad)
            nudge[cell] = eps
            up, down = [W_Q, W_K, W_V], [W_Q, W_K, W_V]
            up[n], down[n] = up[n] + nudge, down[n] - nudge
            slope[cell] = (loss(up) - loss(down)) / (2 * eps)
        np.testing.assert_allclose(grad, slope, atol=1e-7)


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"row": 5}, "row must be a token position from 0 to 4"),
        ({"toward": -1}, "toward must be a token position"),
        ({"lr": 0}, "learning rate must be a positive number"),
        ({"lr": 50}, "at most 10"),
        ({"bias": (B[0][:2], B[1], B[2])}, "b_q"),
    ],
)
def test_bad_choices_say_what_to_fix(kwargs, words):
    args = {"row": 0, "toward": 1, "lr": 0.1, **kwargs}
    with pytest.raises(AttentionInputError, match=words):
        gradient_step(X, W_Q, W_K, W_V, **args)


def test_unscaled_ds_vanishes_as_d_grows_scaled_does_not():
    small, large = saturation(4), saturation(1024)
    assert large.row_ds_unscaled < small.row_ds_unscaled / 100
    assert large.row_ds_scaled > small.row_ds_scaled / 3
    assert large.max_weight_unscaled > 0.95 and large.max_weight_scaled < 0.6
    with pytest.raises(AttentionInputError, match="d must be a whole number"):
        saturation(0)
