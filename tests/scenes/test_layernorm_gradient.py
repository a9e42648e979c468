"""layernorm-gradient: the drawn Jᵀg is J·g from the Jacobian; the dropped parts lie along 1 and x̂;
the plotted curves are ‖W‖ along the two toy SGD runs; the readout prints the core's inner products."""

import numpy as np
import pytest

from normgeo import layer_norm, layer_norm_jacobian, norm_growth_run
from normgeo.gradient_orthogonality import layer_norm_gradient_split
from scenes.kit.adapters import to_coordinates
from scenes.kit.languages import LANGUAGES
from scenes.kit.numbers import fmt_scientific
from scenes.kit.text import fill
from scenes.layernorm_gradient import LayerNormGradient, LayerNormGradientSpec
from tests.scenes.helpers import GEOMETRY_TOLERANCE, assert_layout_is_clean, assert_narrates_every_step, build_scene


def span(scene, arrow):
    """Start and end of a drawn 3-D segment, in core coordinates."""
    shaft = arrow[0]
    return (to_coordinates(scene.axes, shaft.get_start(), dim=3), to_coordinates(scene.axes, shaft.get_end(), dim=3))


def check(scene, spec):
    x, g = np.array(spec.vector), np.array(spec.gradient)
    output = layer_norm(x, eps=0.0)
    start, end = span(scene, scene.output_arrow)
    assert np.allclose(start, 0.0, atol=GEOMETRY_TOLERANCE) and np.allclose(end, output, atol=GEOMETRY_TOLERANCE)
    for arrow in (scene.gradient_arrow, scene.ones_arrow, scene.radial_arrow, scene.tangent_arrow,
                  scene.input_gradient_arrow):
        assert np.allclose(span(scene, arrow)[0], output, atol=GEOMETRY_TOLERANCE)  # every gradient arrow starts at x̂
    assert np.allclose(span(scene, scene.gradient_arrow)[1] - output, g, atol=GEOMETRY_TOLERANCE)
    drawn_jg = span(scene, scene.input_gradient_arrow)[1] - output
    assert np.allclose(drawn_jg, layer_norm_jacobian(x, eps=0.0) @ g, atol=GEOMETRY_TOLERANCE)  # J symmetric: Jᵀg = Jg
    assert abs(drawn_jg.sum()) < 1e-9 and abs(drawn_jg @ output) < 1e-9
    ones_part = span(scene, scene.ones_arrow)[1] - output
    radial_part = span(scene, scene.radial_arrow)[1] - output
    tangent = span(scene, scene.tangent_arrow)[1] - output
    assert np.allclose(ones_part, ones_part.mean(), atol=GEOMETRY_TOLERANCE)  # along 1
    assert np.allclose(np.cross(radial_part, output), 0.0, atol=1e-9)  # along x̂
    assert np.allclose(ones_part + radial_part + tangent, g, atol=1e-9)
    assert np.allclose(tangent / np.std(x), drawn_jg, atol=1e-9)  # scaled by 1/σ
    circle = to_coordinates(scene.axes, scene.circle.get_anchors(), dim=3)
    assert np.allclose(np.linalg.norm(circle, axis=1), np.sqrt(3), atol=GEOMETRY_TOLERANCE)
    assert np.allclose(circle.sum(axis=1), 0.0, atol=1e-9)
    for curve_mobject, decay in ((scene.plain_curve, 0.0), (scene.decayed_curve, spec.weight_decay)):
        run = norm_growth_run(spec.steps, spec.learning_rate, decay, spec.initial_norm, seed=spec.seed)
        points = to_coordinates(scene.plot_axes, curve_mobject.get_anchors())
        assert np.allclose(points[::2, 1][: run.weight_norms.size - 1], run.weight_norms[:-1], rtol=1e-9)
        assert np.isclose(points[-1, 1], run.weight_norms[-1], rtol=1e-9)
    plain = norm_growth_run(spec.steps, spec.learning_rate, 0.0, spec.initial_norm, seed=spec.seed)
    assert np.all(np.diff(plain.weight_norms) >= 0)  # plain SGD only lengthens W
    split = layer_norm_gradient_split(x, g)
    readout = " ".join(line.typst_code for line in scene.readout)
    for value in (split.ones_inner, split.output_inner, split.input_inner):
        assert fill("${v}$", spec.lang, {"v": fmt_scientific(value, lang=spec.lang)})[1:-1] in readout
    assert_narrates_every_step(scene)
    assert_layout_is_clean(scene)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_backward_pass_keeps_the_tangent_part(lang, media_dir):
    spec = LayerNormGradientSpec(lang=lang)
    check(build_scene(LayerNormGradient, spec, media_dir), spec)


def test_custom_vector_gradient_and_run(media_dir):
    spec = LayerNormGradientSpec(vector=(-1.0, 0.5, 3.0), gradient=(0.4, -1.2, 0.9), steps=120, learning_rate=0.3,
                                 weight_decay=0.05, initial_norm=3.0, theme="light")
    check(build_scene(LayerNormGradient, spec, media_dir), spec)


def test_gradient_only_along_ones_and_output_is_refused():
    from scenes.kit.spec import SpecError

    with pytest.raises(SpecError, match="gradient"):
        LayerNormGradientSpec(gradient=(1.0, 1.0, 1.0))
