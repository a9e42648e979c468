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


@pytest.mark.parametrize("radius", [0.05, 1000.0])
def test_a_sphere_too_small_or_too_large_to_draw_with_the_vectors_is_refused(radius):
    """Issue 38: at R = 0.05 the sphere vanished beside vectors of length 5 (at R = 1000 the vectors
    would): the spec refuses radii more than 10× from the longest vector, in one line."""
    from scenes.kit.spec import SpecError
    with pytest.raises(SpecError, match=r"radius: must be within 10× the longest vector's length \(5\)"):
        RadialProjectionSpec(radius=radius)
    RadialProjectionSpec(radius=0.5)  # 10× shorter than (3, 4) is still drawn
    RadialProjectionSpec(radius=50.0)


def test_the_figure_names_its_sets_and_the_example_on_it(media_dir):
    """The sphere's label (with its radius) beside the circle, x's beside its tip, x/‖x‖₂'s beside its dot."""
    spec = RadialProjectionSpec()
    scene = build_scene(RadialProjection, spec, media_dir, check_each_step=False)
    sphere_label, line_label = scene.set_labels
    assert sphere_label.typst_code == scene.words("sphere-set", radius="1")
    origin, radius = scene.sphere.get_center(), scene.sphere.width / 2
    assert radius < np.linalg.norm(sphere_label.get_center() - origin) < radius + 2.5
    x_label, image_label = scene.example_labels
    tip = scene.plane.c2p(3.0, 4.0)
    assert np.linalg.norm(x_label.get_center() - tip) < 0.8
    assert np.linalg.norm(image_label.get_center() - scene.example_dot.get_center()) < 1.2
