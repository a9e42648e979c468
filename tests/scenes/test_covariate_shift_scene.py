"""covariate-shift: the three curves are the study's running means (a dashed curve is cut from its line)."""

import numpy as np
import pytest

from normgeo import VARIANTS, covariate_shift_study
from scenes.kit.adapters import to_coordinates
from scenes.kit.claims import Outcome
from scenes.covariate_shift import CovariateShift, CovariateShiftSpec
from scenes.kit.languages import LANGUAGES
from tests.scenes.helpers import assert_layout_is_clean, assert_narrates_every_step, build_scene


def check(scene, spec):
    study = covariate_shift_study(steps=spec.steps, learning_rate=spec.learning_rate, seed=spec.seed)
    for variant, line, drawn in zip(VARIANTS, scene.lines, scene.curves):
        assert drawn is line or (np.allclose(drawn[0].get_start(), line.get_start(), atol=1e-6)
                                 and np.allclose(drawn[-1].get_end(), line.get_end(), atol=1e-3))
        points = to_coordinates(scene.axes, line.get_anchors())
        expected = study.runs[variant].smoothed_losses(spec.window)
        assert np.allclose(points[::2, 1][: expected.size - 1], expected[:-1], rtol=1e-9)
    # "closer to BatchNorm" only when the noisy run's mean loss is nearer BatchNorm's than no normalization's
    loss = {v: float(np.mean(study.runs[v].losses)) for v in VARIANTS}
    closer = abs(loss["noisy-batchnorm"] - loss["batchnorm"]) < abs(loss["noisy-batchnorm"] - loss["none"])
    fixed = scene.fmt.fixed
    said = dict(zip((s.key for s in scene.steps), scene.narration))
    assert said["fast"] == scene.words("say.fast", when=Outcome("noisy_closer_to_batchnorm", str(closer).lower()),
                                       noisy=fixed(loss["noisy-batchnorm"], 3), plain=fixed(loss["batchnorm"], 3),
                                       none=fixed(loss["none"], 3))
    assert_narrates_every_step(scene)
    assert_layout_is_clean(scene)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_curves_are_the_simulation(lang, media_dir):
    spec = CovariateShiftSpec(lang=lang)
    check(build_scene(CovariateShift, spec, media_dir), spec)


def test_custom_run(media_dir):
    spec = CovariateShiftSpec(steps=120, learning_rate=0.5, seed=4, window=5, theme="light")
    check(build_scene(CovariateShift, spec, media_dir), spec)
