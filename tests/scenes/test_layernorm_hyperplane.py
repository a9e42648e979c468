"""layernorm-hyperplane: the centred part lies on the plane; the output on plane ∩ sphere(√3)."""

import math

import numpy as np
import pytest

from normgeo import decompose, euclidean_norm, layer_norm, on_zero_mean_hyperplane
from scenes.kit.adapters import to_coordinates
from scenes.kit.languages import LANGUAGES
from scenes.kit.numbers import fmt_number
from scenes.layernorm_hyperplane import LayerNormHyperplane, LayerNormHyperplaneSpec
from tests.scenes.helpers import GEOMETRY_TOLERANCE, assert_layout_is_clean, assert_narrates_every_step, build_scene, text_boxes


def segment_end(scene, segment):
    return to_coordinates(scene.axes, segment[0].get_end(), dim=3)


def check(scene, spec):
    x = np.array(spec.vector)
    result = segment_end(scene, scene.result_arrow)
    assert np.allclose(result, layer_norm(x, eps=0.0), atol=GEOMETRY_TOLERANCE)
    assert on_zero_mean_hyperplane(result, tol=1e-9)
    assert math.isclose(euclidean_norm(result), math.sqrt(3), abs_tol=GEOMETRY_TOLERANCE)
    circle = to_coordinates(scene.axes, scene.intersection_circle.get_anchors(), dim=3)
    assert np.allclose(euclidean_norm(circle), math.sqrt(3), atol=GEOMETRY_TOLERANCE)
    assert on_zero_mean_hyperplane(circle, tol=1e-9).all()
    # the centred arrow was transformed into the result; its start is the origin
    assert np.allclose(to_coordinates(scene.axes, scene.result_arrow[0].get_start(), dim=3), 0.0, atol=1e-9)
    assert_narrates_every_step(scene)
    assert_layout_is_clean(scene)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_output_lies_on_plane_and_sphere(lang, media_dir):
    """Default x, every language: LN(x) on Σvᵢ = 0 and ‖v‖₂ = √3; the readout's μ is the core's."""
    spec = LayerNormHyperplaneSpec(lang=lang)
    scene = build_scene(LayerNormHyperplane, spec, media_dir)
    check(scene, spec)
    mean = float(decompose(np.array(spec.vector)).mean)
    assert any(fmt_number(mean, lang=lang) in line for line in scene.narration)
    # one name for the set: the zero-mean hyperplane (in 3-D a plane), never a "zero-mean plane"
    legend = " ".join(m.typst_code for m, _, _ in text_boxes(scene))
    assert {"en": "zero-mean hyperplane", "zh": "零均值超平面", "ru": "гиперплоскость нулевого среднего"}[lang] in legend


def test_custom_vector(media_dir):
    """Another vector with negative entries, light theme."""
    spec = LayerNormHyperplaneSpec(vector=(-1.0, 2.5, 0.2), theme="light")
    check(build_scene(LayerNormHyperplane, spec, media_dir), spec)
