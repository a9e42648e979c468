"""epsilon-and-affine: LN_ε outputs inside the sphere at √n·σ/√(σ² + ε); the curve β + γ ⊙ (S ∩ H)."""

import math

import numpy as np
import pytest

from normgeo import (
    euclidean_norm,
    layer_norm,
    layer_norm_output_curve,
    layer_norm_output_radius,
    on_sphere,
    on_zero_mean_hyperplane,
    project_to_zero_mean_hyperplane,
    root_mean_square,
)
from scenes.epsilon_and_affine import EpsilonAndAffine, EpsilonAndAffineSpec
from scenes.kit.adapters import to_coordinates
from scenes.kit.languages import LANGUAGES
from scenes.kit.numbers import fmt_number
from tests.scenes.helpers import (
    GEOMETRY_TOLERANCE,
    assert_layout_is_clean,
    assert_narrates_every_step,
    build_scene,
    centres,
)


def sigma_of(spec):
    """σ of each input: the RMS of its centred part."""
    return root_mean_square(project_to_zero_mean_hyperplane(np.array(spec.inputs)))


def check(scene, spec):
    x, gamma, beta = np.array(spec.inputs), np.array(spec.gamma), np.array(spec.beta)
    sigma = sigma_of(spec)
    expected_radii = layer_norm_output_radius(sigma, 3, spec.eps)

    # the ε outputs: at LN_ε(x), in the zero-mean plane, at the core's radius, inside the sphere √3
    drawn = centres(scene.axes, scene.epsilon_dots, dim=3)
    assert np.allclose(drawn, layer_norm(x, eps=spec.eps), atol=GEOMETRY_TOLERANCE)
    assert on_zero_mean_hyperplane(drawn, tol=1e-9).all()
    assert np.allclose(euclidean_norm(drawn), expected_radii, atol=GEOMETRY_TOLERANCE)
    assert (euclidean_norm(drawn) < np.sqrt(3)).all()
    # the readout (shown during the ε steps) typesets each σ and radius as the core gives them
    lang = spec.lang
    rows = [row.typst_code.replace('"', "") for row in scene.readout[1:]]
    assert len(rows) == len(x)
    for row, s, r in zip(rows, sigma, expected_radii):
        assert fmt_number(float(s), lang=lang) in row and fmt_number(float(r), lang=lang) in row, row
    assert fmt_number(spec.eps, lang=lang) in scene.readout[0].typst_code.replace('"', "")
    # the same radii on the plot, and the plotted curve is the core's radius function
    marks = centres(scene.plot_axes, scene.plot_marks)
    assert np.allclose(marks, np.column_stack([sigma, expected_radii]), atol=1e-9)
    plotted = to_coordinates(scene.plot_axes, scene.radius_curve.get_anchors())
    assert np.allclose(plotted[:, 1], layer_norm_output_radius(plotted[:, 0], 3, spec.eps), atol=1e-9)

    # after γ, β: the outputs at β + γ ⊙ LN_ε(x)
    affine = centres(scene.axes, scene.affine_dots, dim=3)
    assert np.allclose(affine, layer_norm(x, eps=spec.eps, weight=gamma, bias=beta), atol=GEOMETRY_TOLERANCE)
    # the drawn curve is β + γ ⊙ (S ∩ H): undoing the affine step puts every point on the sphere and the plane
    curve = to_coordinates(scene.axes, scene.output_curve.get_start_anchors(), dim=3)
    undone = (curve - beta) / gamma
    assert on_sphere(undone, np.sqrt(3), tol=1e-9).all()
    assert on_zero_mean_hyperplane(undone, tol=1e-9).all()
    core_curve = layer_norm_output_curve(gamma, beta, samples=len(scene.curve_points))
    assert np.allclose(curve, core_curve, atol=GEOMETRY_TOLERANCE)
    # the ε = 0 circle stays drawn: on S ∩ H
    circle = to_coordinates(scene.axes, scene.circle.get_anchors(), dim=3)
    assert on_sphere(circle, np.sqrt(3), tol=1e-9).all() and on_zero_mean_hyperplane(circle, tol=1e-9).all()

    assert_narrates_every_step(scene)
    assert_layout_is_clean(scene)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_outputs_fall_inside_the_sphere_and_the_ellipse_is_the_affine_circle(lang, media_dir):
    """Default spec, every language: ε is stated on screen and in the narration with the core's numbers."""
    spec = EpsilonAndAffineSpec(lang=lang)
    scene = build_scene(EpsilonAndAffine, spec, media_dir)
    check(scene, spec)
    eps = fmt_number(spec.eps, lang=lang)
    assert any(eps in line for line in scene.narration)
    shortest = fmt_number(float(layer_norm_output_radius(min(sigma_of(spec)), 3, spec.eps)), lang=lang)
    assert any(shortest in line for line in scene.narration)
    # the default ε is said to be exaggerated, with what a real ε = 10⁻⁵ moves: σ below √ε·0.95/√(1 − 0.95²) ≈ 0.01
    said = dict(zip((s.key for s in scene.steps), scene.narration))
    typical = math.sqrt(1e-5) * 0.95 / math.sqrt(1 - 0.95**2)
    assert scene.fmt.number(typical, 2) in said["radius"] and "10⁻⁵" in said["radius"]
    assert {"en": "exaggerated", "zh": "故意取大", "ru": "намеренно завышено"}[lang] in said["radius"]


def test_custom_spec(media_dir):
    """Other inputs, ε, γ and β, light theme."""
    spec = EpsilonAndAffineSpec(eps=1.0, inputs=((1.0, -2.0, 0.5), (0.1, 0.3, 0.2), (4.0, 0.0, -1.0)),
                                gamma=(0.5, 2.0, 1.2), beta=(-1.0, 0.2, 0.8), theme="light")
    check(build_scene(EpsilonAndAffine, spec, media_dir), spec)
