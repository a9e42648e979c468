"""radial-projection: every projected tip is the core's radial projection, on the sphere."""

import numpy as np
import pytest

from normgeo import euclidean_norm, radial_projection
from scenes.kit.languages import LANGUAGES
from scenes.kit.numbers import fmt_number, fmt_vector
from scenes.radial_projection import RadialProjection, RadialProjectionSpec
from tests.scenes.helpers import (
    GEOMETRY_TOLERANCE,
    assert_narrates_every_step,
    assert_layout_is_clean,
    build_scene,
    centres,
    ends,
)


def check(scene, spec):
    vectors = np.array(spec.vectors)
    expected = radial_projection(vectors, spec.radius)
    tips = ends(scene.plane, scene.projected_arrows)
    assert np.allclose(tips, expected, atol=GEOMETRY_TOLERANCE)
    assert np.allclose(euclidean_norm(tips), spec.radius, atol=GEOMETRY_TOLERANCE)
    assert np.allclose(centres(scene.plane, [scene.example_dot]), expected[:1], atol=GEOMETRY_TOLERANCE)
    assert_narrates_every_step(scene)
    assert_layout_is_clean(scene)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_projected_tips_land_where_the_core_puts_them(lang, media_dir):
    """Default spec, every language: tips at x/‖x‖₂, and (3, 4) lands at (0.6, 0.8)."""
    spec = RadialProjectionSpec(lang=lang)
    scene = build_scene(RadialProjection, spec, media_dir)
    check(scene, spec)
    assert np.allclose(centres(scene.plane, [scene.example_dot]), [[0.6, 0.8]])
    assert any(fmt_vector(radial_projection([3.0, 4.0]), lang=lang) in line and fmt_number(5.0, lang=lang) in line for line in scene.narration)
    # the title's claim carries its scope: exact for L2, RMSNorm at ε = 0; LayerNorm centres first; BatchNorm over the batch
    intro = scene.narration[0]
    assert "ε = 0" in intro and "LayerNorm" in intro and "BatchNorm" in intro


def test_custom_vectors_and_radius(media_dir):
    """Other vectors and R = 2 (light theme): the same law holds."""
    spec = RadialProjectionSpec(vectors=((-2.0, 1.0), (0.3, 0.1), (5.0, -5.0)), radius=2.0, theme="light")
    check(build_scene(RadialProjection, spec, media_dir), spec)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_example_follows_the_radius(lang, media_dir):
    """R = 2: the example says and shows (3, 4)·2/5 = (1.2, 1.6) on the circle of radius 2, not the unit circle."""
    spec = RadialProjectionSpec(radius=2.0, lang=lang)
    scene = build_scene(RadialProjection, spec, media_dir)
    check(scene, spec)
    assert np.allclose(centres(scene.plane, [scene.example_dot]), [[1.2, 1.6]])
    example = scene.narration[scene.text_file().steps().index("example")]
    values = {"x": fmt_vector([3.0, 4.0], lang=lang), "norm": fmt_number(5.0, lang=lang), "radius": fmt_number(2.0, lang=lang)}
    assert scene.words("example-projection.radius", **values) in example
    assert scene.words("example-projection.unit", **values) not in example
    assert fmt_vector(radial_projection([3.0, 4.0], 2.0), lang=lang) in example
