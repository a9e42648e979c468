"""sphere-radii: L2 dots on the unit circle, RMSNorm dots on the circle of radius √n."""

import math

import numpy as np
import pytest

from normgeo import euclidean_norm, l2_normalize, output_radius, rms_norm
from scenes.kit.languages import LANGUAGES
from scenes.kit.numbers import fmt_number
from scenes.sphere_radii import SphereRadii, SphereRadiiSpec
from tests.scenes.helpers import (
    GEOMETRY_TOLERANCE,
    assert_layout_is_clean,
    assert_narrates_every_step,
    build_scene,
    centres,
)


def check(scene, spec):
    vectors = np.array(spec.vectors)
    l2 = centres(scene.plane, scene.l2_dots)
    rms = centres(scene.plane, scene.rms_dots)
    assert np.allclose(l2, l2_normalize(vectors), atol=GEOMETRY_TOLERANCE)
    assert np.allclose(rms, rms_norm(vectors, eps=0.0), atol=GEOMETRY_TOLERANCE)
    assert np.allclose(euclidean_norm(l2), 1.0, atol=GEOMETRY_TOLERANCE)
    assert np.allclose(euclidean_norm(rms), math.sqrt(2), atol=GEOMETRY_TOLERANCE)
    assert len(scene.derivation) == 4
    assert_narrates_every_step(scene)
    assert_layout_is_clean(scene)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_l2_and_rms_dots_sit_on_their_circles(lang, media_dir):
    """Default spec, every language: radius 1 for L2, √2 ≈ 1.414 for RMSNorm."""
    spec = SphereRadiiSpec(lang=lang)
    scene = build_scene(SphereRadii, spec, media_dir)
    check(scene, spec)
    assert any(fmt_number(output_radius("rmsnorm", 2), lang=lang) in line for line in scene.narration)
    # "the source" is named: the Chinese post
    said = dict(zip((s.key for s in scene.steps), scene.narration))
    assert {"en": "the Chinese post", "zh": "中文博文", "ru": "китайской статье"}[lang] in said["rms"]


def test_custom_vectors(media_dir):
    """Other vectors, light theme: the same radii."""
    spec = SphereRadiiSpec(vectors=((0.1, 0.0), (-4.0, -4.0), (2.0, -0.5)), theme="light")
    check(build_scene(SphereRadii, spec, media_dir), spec)


def test_each_circle_carries_its_radius_on_it(media_dir):
    """Each circle's radius is drawn from the centre to the circle and written beside it (1, √2), and
    its name sits by it: read back from the drawn spokes and labels."""
    spec = SphereRadiiSpec()
    scene = build_scene(SphereRadii, spec, media_dir, check_each_step=False)
    origin = scene.plane.c2p(0, 0)
    unit = np.linalg.norm(scene.plane.c2p(1, 0) - origin)
    for group, radius, written, colour in ((scene.l2_label, 1.0, "$1$", scene.palette.l2),
                                          (scene.rms_label, math.sqrt(2), "$sqrt(2)$", scene.palette.rmsnorm)):
        name, spoke, length = group
        assert np.allclose(spoke.get_start(), origin)
        assert np.linalg.norm(spoke.get_end() - origin) == pytest.approx(radius * unit)
        assert length.typst_code == written
        assert np.linalg.norm(length.get_center() - (spoke.get_start() + spoke.get_end()) / 2) < 0.5
        assert abs(np.linalg.norm(name.get_center() - origin) - radius * unit) < 1.0
        assert spoke.get_color().to_hex().lower() == colour.lower()


def test_vectors_too_long_to_keep_the_circles_visible_are_refused():
    """Issue 38's edge of the range: lengths above 10 would shrink both circles to specks."""
    from scenes.kit.spec import SpecError
    with pytest.raises(SpecError, match="keep lengths between 0.001 and 10"):
        SphereRadiiSpec(vectors=((30.0, 40.0),))
