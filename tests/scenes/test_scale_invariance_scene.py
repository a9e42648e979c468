"""scale-invariance: the LN bars are the same for every c; the curves are the weight-decay run."""

import numpy as np
import pytest
from manim import Wait

from normgeo import scaled_outputs, weight_decay_run
from scenes.kit.adapters import to_coordinates
from scenes.kit.languages import LANGUAGES
from scenes.scale_invariance import ScaleInvariance, ScaleInvarianceSpec
from tests.scenes.helpers import assert_layout_is_clean, assert_narrates_every_step, build_scene


def bar_heights(chart):
    """Signed heights of the drawn bars, left to right, in scene units (up from the baseline is positive)."""
    baseline = chart[0].get_center()[1]
    bars = sorted(chart[1], key=lambda bar: bar.get_center()[0])
    return np.array([bar.height * np.sign(bar.get_center()[1] - baseline) for bar in bars])


def build_recording(spec, media_dir, monkeypatch):
    """Build the scene, reading both charts as drawn after every animation of the step that scales
    the weights (one per further c), and once more at the end."""
    seen = []
    play = ScaleInvariance.play

    def recording_play(scene, *animations, **kwargs):
        play(scene, *animations, **kwargs)
        moved = any(not isinstance(animation, Wait) for animation in animations)  # wait() plays a Wait
        if moved and scene.steps and scene.steps[-1].key in ("intro", "scale"):
            seen.append((bar_heights(scene.pre_chart), bar_heights(scene.post_chart)))

    monkeypatch.setattr(ScaleInvariance, "play", recording_play)
    return build_scene(ScaleInvariance, spec, media_dir), seen


def check(scene, seen, spec):
    outputs = scaled_outputs(spec.factors, seed=spec.seed)
    assert np.allclose(outputs.outputs, outputs.outputs[0], atol=1e-9)  # LN((cW)x) = LN(Wx)
    # the intro shows the first c, then one animation per further c: every bar, at the chart's one unit
    assert len(seen) == len(spec.factors)
    for (pre, post), pre_values, post_values in zip(seen, outputs.pre_activations, outputs.outputs):
        expected_pre = np.where(np.abs(pre_values * scene.pre_unit) < 1e-3, np.sign(pre_values) * 1e-3,
                                pre_values * scene.pre_unit)
        assert np.allclose(pre, expected_pre, atol=1e-9)
        assert np.allclose(post, post_values * scene.post_unit, atol=1e-9)
    # the unit is the same for every c: the largest c's tallest bar is the chart's fixed height
    assert np.abs(seen[int(np.argmax(spec.factors))][0]).max() == pytest.approx(1.3)
    run = weight_decay_run(spec.steps, spec.learning_rate, spec.weight_decay, seed=spec.seed)
    norms = to_coordinates(scene.norm_axes, scene.norm_curve.get_anchors())
    assert np.allclose(norms[::2, 1][: run.weight_norms.size - 1], run.weight_norms[:-1], rtol=1e-9)
    steps = to_coordinates(scene.step_axes, scene.step_curve.get_anchors())
    assert np.allclose(steps[-1, 1], run.effective_steps[-1], rtol=1e-9)
    assert_narrates_every_step(scene)
    assert_layout_is_clean(scene)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_bars_and_curves(lang, media_dir, monkeypatch):
    spec = ScaleInvarianceSpec(lang=lang)
    check(*build_recording(spec, media_dir, monkeypatch), spec)


def test_custom_factors_and_run(media_dir, monkeypatch):
    spec = ScaleInvarianceSpec(factors=(1.0, 3.0), steps=80, weight_decay=0.05, theme="light")
    check(*build_recording(spec, media_dir, monkeypatch), spec)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_conditions_and_the_credit_are_said(lang, media_dir):
    """Scale invariance needs the norm's whole input to be W·h (not a residual sum); BatchNorm row by
    row; the effective step η/‖W‖² is SGD's (∝ η/‖W‖ with Adam); van Laarhoven 2017 credited beside the
    Russian lesson, whose words are quoted exactly in Russian, as the lesson writes them."""
    scene = build_scene(ScaleInvariance, ScaleInvarianceSpec(lang=lang), media_dir, check_each_step=False)
    said = dict(zip((s.key for s in scene.steps), scene.narration))
    assert "W·h" in said["direction"] and "LN(x + W·h)" in said["direction"] and "LN(x_l)" in said["direction"]
    assert "van Laarhoven" in said["effective"] and "2017" in said["effective"] and "Adam" in said["effective"]
    assert "η/‖W‖²" in said["effective"] and "η/‖W‖" in said["effective"].replace("η/‖W‖²", "")
    if lang == "ru":
        quote = "работает не как регуляризатор в обычном смысле"
        assert f"«{quote}»" in said["effective"]
