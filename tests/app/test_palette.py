"""The heatmaps' colour scales stay readable without full colour vision: simulated
deuteranopia and protanopia (Machado, Oliveira and Fernandes 2009, severity 1) keep the
diverging scale's two sides apart, and the weights' scale running from light to dark.

Distances are CIE76 ΔE in CIELAB (D65): about 2.3 is the least difference a person notices,
and colours 15 apart are plainly different. Red-blue (ColorBrewer's RdBu) passes as it is:
its ends differ in blue, which both simulations keep (ΔE 58 with full colour vision, 54 with
deuteranopia, 35 with protanopia)."""

from __future__ import annotations

import numpy as np
import pytest

from attn_ui.figures.heatmap import SCALES

# Machado et al. 2009, severity 1.0, applied to linear RGB.
CVD = {
    "deuteranopia": np.array(
        [
            [0.367322, 0.860646, -0.227968],
            [0.280085, 0.672501, 0.047413],
            [-0.011820, 0.042940, 0.968881],
        ]
    ),
    "protanopia": np.array(
        [
            [0.152286, 1.052583, -0.204868],
            [0.114503, 0.786281, 0.099216],
            [-0.003882, -0.048116, 1.051998],
        ]
    ),
}
SRGB_TO_XYZ = np.array(
    [[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]
)
D65 = np.array([0.95047, 1.0, 1.08883])


def linear(rgb) -> np.ndarray:
    c = np.asarray(rgb, dtype=float) / 255
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def lab(lin: np.ndarray) -> np.ndarray:
    t = SRGB_TO_XYZ @ lin / D65
    f = np.where(t > (6 / 29) ** 3, np.cbrt(t), t / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def seen(rgb, vision: str | None) -> np.ndarray:
    """The colour's CIELAB coordinates as seen with `vision` (None: full colour vision)."""
    lin = linear(rgb)
    return lab(lin if vision is None else np.clip(CVD[vision] @ lin, 0, 1))


def colour(scale: list, t: float) -> list[int]:
    """The scale's colour at t in [0, 1], as canvas_grid.js interpolates it."""
    for (p0, c0), (p1, c1) in zip(scale, scale[1:], strict=False):
        if t <= p1:
            u = (t - p0) / (p1 - p0) if p1 > p0 else 0
            return [round(a + u * (b - a)) for a, b in zip(c0, c1, strict=True)]
    return scale[-1][1]


def delta_e(a, b, vision) -> float:
    return float(np.linalg.norm(seen(a, vision) - seen(b, vision)))


@pytest.mark.parametrize("vision", [None, *CVD])
def test_the_signed_scale_keeps_its_two_sides_apart(vision):
    """-v and +v never look alike: the two ends are far apart (ΔE >= 30), and every pair of
    opposite values down to 0.1 of the range from the middle plainly differs (ΔE >= 15);
    each end stays far from the white middle."""
    s = SCALES["signed"]
    assert delta_e(colour(s, 0), colour(s, 1), vision) >= 30
    for t in np.linspace(0, 0.4, 9):
        assert delta_e(colour(s, t), colour(s, 1 - t), vision) >= 15, t
    for end in (0, 1):
        assert delta_e(colour(s, end), colour(s, 0.5), vision) >= 40


@pytest.mark.parametrize("vision", [None, *CVD])
@pytest.mark.parametrize("kind", ["weights", "weights_stretched"])
def test_the_weights_scales_run_from_light_to_dark(kind, vision):
    """A larger weight is always darker (CIELAB lightness falls), 0 and 1 far apart."""
    s = SCALES[kind]
    lightness = [seen(colour(s, t), vision)[0] for t in np.linspace(0, 1, 21)]
    assert all(b < a for a, b in zip(lightness, lightness[1:], strict=False))
    assert lightness[0] - lightness[-1] >= 60


def test_the_simulation_does_lose_red_against_green():
    """The check can fail: a red and an olive green that full colour vision tells apart by
    ΔE > 80 come out close (ΔE < 15) under deuteranopia."""
    red, green = [220, 50, 30], [90, 130, 20]
    assert delta_e(red, green, None) > 80
    assert delta_e(red, green, "deuteranopia") < 15
