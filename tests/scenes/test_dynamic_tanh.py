"""dynamic-tanh: each drawn token line lies on y = x/σ_t − μ_t/σ_t; the drawn curve is the fitted DyT; the
inset's DyT points stay in the box |y − β| ≤ |γ| and its LayerNorm points are (1, −1) and (−1, 1)."""

import numpy as np
import pytest

from normgeo import dynamic_tanh_fit, layer_norm, sample_vectors
from scenes.dynamic_tanh import DynamicTanh, DynamicTanhSpec
from scenes.kit.adapters import to_coordinates
from scenes.kit.languages import LANGUAGES
from scenes.kit.numbers import fmt_number
from scenes.kit.text import fill
from tests.scenes.helpers import GEOMETRY_TOLERANCE, assert_layout_is_clean, assert_narrates_every_step, build_scene, centres


def check(scene, spec):
    fit = dynamic_tanh_fit(spec.tokens, spec.channels, spec.massive_channels, spec.largest_massive, spec.seed)
    assert len(scene.token_lines) == spec.tokens
    for inputs, line in zip(fit.inputs, scene.token_lines):
        points = to_coordinates(scene.axes, line.get_anchors())
        sigma, mu = inputs.std(), inputs.mean()
        assert np.allclose(points[:, 1], (points[:, 0] - mu) / sigma, atol=1e-9)  # slope 1/σ, intercept −μ/σ
        assert np.isclose(points[:, 0].min(), inputs.min(), atol=1e-9) and np.isclose(points[:, 0].max(), inputs.max(),
                                                                                          atol=1e-9)
    for inputs, dots in zip(fit.inputs, scene.token_dots):
        assert np.allclose(centres(scene.axes, dots), np.stack([inputs, layer_norm(inputs, eps=0.0)], axis=1),
                           atol=GEOMETRY_TOLERANCE)
    curve_points = to_coordinates(scene.axes, scene.tanh_curve.get_anchors())
    assert np.allclose(curve_points[:, 1], fit.weight * np.tanh(fit.alpha * curve_points[:, 0]) + fit.bias, atol=1e-9)
    assert fit.residual < fit.line_residual  # the tanh fits the union better than any straight line
    inputs = sample_vectors(spec.inset_count, 2, seed=spec.seed, scale=spec.inset_spread, min_spread=1e-3)
    dyt = centres(scene.inset, scene.dyt_dots)
    assert np.allclose(dyt, fit.weight * np.tanh(fit.alpha * inputs) + fit.bias, atol=GEOMETRY_TOLERANCE)
    assert np.all(np.abs(dyt - fit.bias) <= abs(fit.weight) + 1e-12)  # inside the box
    box = to_coordinates(scene.inset, np.array([segment.get_start() for segment in scene.box_outline]))
    assert np.allclose(np.abs(box - fit.bias), abs(fit.weight), atol=1e-9)
    ln = centres(scene.inset, scene.ln_dots)
    assert np.allclose(np.abs(ln), 1.0, atol=1e-9) and np.allclose(ln.sum(axis=1), 0.0, atol=1e-9)
    shown = " ".join(line.typst_code for line in scene.readout)
    for value, digits in ((fit.alpha, 3), (fit.weight, 2), (fit.bias, 3), (fit.residual, 3), (fit.line_residual, 3)):
        assert fill("${v}$", spec.lang, {"v": fmt_number(value, digits, spec.lang)})[1:-1] in shown or \
            fmt_number(value, digits, spec.lang) in shown
    assert_narrates_every_step(scene)
    assert_layout_is_clean(scene)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_token_lines_and_fitted_tanh(lang, media_dir):
    spec = DynamicTanhSpec(lang=lang)
    scene = build_scene(DynamicTanh, spec, media_dir)
    check(scene, spec)
    assert any(word in scene.narration[0] for word in ("toy", "玩具", "игрушечная"))  # says it is a simulation


def test_custom_simulation(media_dir):
    spec = DynamicTanhSpec(tokens=8, channels=32, massive_channels=3, largest_massive=80, seed=4, inset_count=30,
                           inset_spread=5, theme="light")
    check(build_scene(DynamicTanh, spec, media_dir), spec)
