"""scale-invariance: the LN bars are the same for every c; the curves are the weight-decay run."""

import numpy as np
import pytest

from normgeo import scaled_outputs, weight_decay_run
from scenes.kit.adapters import to_coordinates
from scenes.kit.languages import LANGUAGES
from scenes.scale_invariance import ScaleInvariance, ScaleInvarianceSpec
from tests.scenes.helpers import assert_layout_is_clean, assert_narrates_every_step, build_scene


def bar_heights(chart):
    return np.array([bar.height * np.sign(bar.get_center()[1] - chart[0].get_center()[1]) for bar in chart[1]])


def check(scene, spec):
    outputs = scaled_outputs(spec.factors, seed=spec.seed)
    assert np.allclose(outputs.outputs, outputs.outputs[0], atol=1e-9)  # LN((cW)x) = LN(Wx)
    post = bar_heights(scene.post_chart)
    assert np.allclose(post / np.abs(post).max(), outputs.outputs[-1] / np.abs(outputs.outputs[-1]).max(), atol=1e-6)
    pre = bar_heights(scene.pre_chart)
    assert np.allclose(pre / np.abs(pre).max(), outputs.pre_activations[-1] / np.abs(outputs.pre_activations[-1]).max(),
                       atol=1e-6)
    run = weight_decay_run(spec.steps, spec.learning_rate, spec.weight_decay, seed=spec.seed)
    norms = to_coordinates(scene.norm_axes, scene.norm_curve.get_anchors())
    assert np.allclose(norms[::2, 1][: run.weight_norms.size - 1], run.weight_norms[:-1], rtol=1e-9)
    steps = to_coordinates(scene.step_axes, scene.step_curve.get_anchors())
    assert np.allclose(steps[-1, 1], run.effective_steps[-1], rtol=1e-9)
    assert_narrates_every_step(scene)
    assert_layout_is_clean(scene)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_bars_and_curves(lang, media_dir):
    spec = ScaleInvarianceSpec(lang=lang)
    check(build_scene(ScaleInvariance, spec, media_dir), spec)


def test_custom_factors_and_run(media_dir):
    spec = ScaleInvarianceSpec(factors=(1.0, 3.0), steps=80, weight_decay=0.05, theme="light")
    check(build_scene(ScaleInvariance, spec, media_dir), spec)
