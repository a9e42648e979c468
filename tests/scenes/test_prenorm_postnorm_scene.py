"""prenorm-postnorm: the curves are the core's per-block gradient norms."""

import numpy as np
import pytest

from normgeo import prenorm_postnorm_study
from scenes.kit.adapters import to_coordinates
from scenes.kit.languages import LANGUAGES
from scenes.prenorm_postnorm import PrenormPostnorm, PrenormPostnormSpec
from tests.scenes.helpers import assert_layout_is_clean, assert_narrates_every_step, build_scene


def check(scene, spec):
    study = prenorm_postnorm_study(spec.depth, spec.width, spec.sublayer_scale, spec.stacks, spec.seed)
    for name, values in (("pre", study.pre), ("post", study.post)):
        points = to_coordinates(scene.axes, scene.curves[name].get_anchors())
        assert np.allclose(points[::2, 1][: values.size - 1], values[:-1], rtol=1e-9)
        assert np.allclose(points[-1], (spec.depth, values[-1]), rtol=1e-9)
    # the wording follows this run: "at least what the last receives" only if the first block gets that much
    said = dict(zip((s.key for s in scene.steps), scene.narration))
    fmt = scene.fmt
    for name, values in (("pre", study.pre), ("post", study.post)):
        kept = "kept" if values[0] >= values[-1] else "lost"
        assert scene.words(f"{name}-part.{kept}", first=fmt.number(values[0], 2), last=fmt.number(values[-1], 2)) \
            in said["gradients"], name
    assert_narrates_every_step(scene)
    assert_layout_is_clean(scene)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_gradient_curves(lang, media_dir):
    spec = PrenormPostnormSpec(lang=lang)
    scene = build_scene(PrenormPostnorm, spec, media_dir)
    check(scene, spec)
    assert scene.study.pre[0] > scene.study.post[0]


def test_deeper_stack(media_dir):
    spec = PrenormPostnormSpec(depth=48, width=8, stacks=4, theme="light")
    check(build_scene(PrenormPostnorm, spec, media_dir), spec)
