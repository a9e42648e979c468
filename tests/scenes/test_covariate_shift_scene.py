"""covariate-shift: the three curves are the study's running means; the table is the study's numbers."""

import numpy as np
import pytest

from normgeo import VARIANTS, covariate_shift_study
from scenes.kit.adapters import to_coordinates
from scenes.covariate_shift import CovariateShift, CovariateShiftSpec
from scenes.kit.languages import LANGUAGES
from tests.scenes.helpers import assert_layout_is_clean, assert_narrates_every_step, build_scene


def check(scene, spec):
    study = covariate_shift_study(steps=spec.steps, learning_rate=spec.learning_rate, seed=spec.seed)
    for variant, line in zip(VARIANTS, scene.curves):
        points = to_coordinates(scene.axes, line.get_anchors())
        expected = study.runs[variant].smoothed_losses(spec.window)
        assert np.allclose(points[::2, 1][: expected.size - 1], expected[:-1], rtol=1e-9)
    # "training stays fast" only when, in this run, noisy BatchNorm still beats no normalization
    loss = {v: study.mean_loss(v) for v in VARIANTS}
    fast = "fast" if loss["noisy-batchnorm"] < loss["none"] else "slow"
    fixed = scene.fmt.fixed
    said = dict(zip((s.key for s in scene.steps), scene.narration))
    assert said["fast"] == scene.words(f"verdict.{fast}", noisy=fixed(loss["noisy-batchnorm"]),
                                       plain=fixed(loss["batchnorm"]), none=fixed(loss["none"]))
    assert_narrates_every_step(scene)
    assert_layout_is_clean(scene)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_curves_are_the_simulation(lang, media_dir):
    spec = CovariateShiftSpec(lang=lang)
    check(build_scene(CovariateShift, spec, media_dir), spec)


def test_custom_run(media_dir):
    spec = CovariateShiftSpec(steps=120, learning_rate=0.5, seed=2, window=5, theme="light")
    check(build_scene(CovariateShift, spec, media_dir), spec)
