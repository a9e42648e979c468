"""conditioning: the drawn paths are the core's gradient-descent iterates; κ readouts are the real ones."""

import numpy as np
import pytest

from normgeo import conditioning_demo
from scenes.kit.adapters import to_coordinates
from scenes.conditioning import Conditioning, ConditioningSpec
from scenes.kit.languages import LANGUAGES
from tests.scenes.helpers import assert_layout_is_clean, assert_narrates_every_step, build_scene


def check(scene, spec):
    demo = conditioning_demo(scales=(spec.small_scale, spec.large_scale), correlation=spec.correlation,
                             drawn_kappa=spec.drawn_kappa, step_fraction=spec.step_fraction, n_steps=spec.steps_drawn)
    before = to_coordinates(scene.before_plane, scene.before_path.get_anchors())
    after = to_coordinates(scene.after_plane, scene.after_path.get_anchors())
    assert np.allclose(before[::2][: len(demo.drawn_before.path) - 1], demo.drawn_before.path[:-1], atol=1e-9)
    assert np.allclose(after[-1], demo.drawn_after.path[-1], atol=1e-9)
    assert scene.demo.kappa_raw == pytest.approx(demo.kappa_raw)
    assert_narrates_every_step(scene)
    assert_layout_is_clean(scene)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_paths_and_kappa(lang, media_dir):
    """Scales 1 and 10⁴: κ ≈ 10⁸ before, ≈ 19 after (tens)."""
    spec = ConditioningSpec(lang=lang)
    scene = build_scene(Conditioning, spec, media_dir)
    check(scene, spec)
    assert 1e8 <= scene.demo.kappa_raw < 1e9 and 10 <= scene.demo.kappa_standardized < 100


def test_custom_scales(media_dir):
    spec = ConditioningSpec(large_scale=100.0, correlation=0.5, drawn_kappa=20.0, theme="light")
    check(build_scene(Conditioning, spec, media_dir), spec)
