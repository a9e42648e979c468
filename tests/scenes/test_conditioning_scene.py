"""conditioning: the drawn paths are the core's gradient-descent iterates; κ readouts are the real ones."""

import numpy as np
import pytest

from scenes.kit.claims import Outcome

from normgeo import conditioning_demo
from scenes.kit.adapters import to_coordinates
from scenes.conditioning import Conditioning, ConditioningSpec
from scenes.kit.languages import LANGUAGES
from scenes.kit.spec import SpecError
from scenes.kit.text import math_number
from tests.scenes.helpers import GEOMETRY_TOLERANCE, assert_layout_is_clean, assert_narrates_every_step, build_scene, centres


def corners(plane, path):
    """Every corner of a drawn polyline, in the plane's coordinates: each segment's start, then the last end."""
    points = np.vstack([path.get_start_anchors(), path.get_end_anchors()[-1:]])
    return to_coordinates(plane, points)


def check(scene, spec):
    demo = conditioning_demo(scales=(spec.small_scale, spec.large_scale), correlation=spec.correlation,
                             drawn_kappa=spec.drawn_kappa, step_fraction=spec.step_fraction, n_steps=spec.steps_drawn)
    for plane, path, dots, run in ((scene.before_plane, scene.before_path, scene.dots_a, demo.drawn_before),
                                   (scene.after_plane, scene.after_path, scene.dots_b, demo.drawn_after)):
        drawn = corners(plane, path)
        assert drawn.shape == run.path.shape, "one corner per iterate"
        assert np.allclose(drawn, run.path, atol=GEOMETRY_TOLERANCE)
        assert np.allclose(centres(plane, dots), run.path, atol=GEOMETRY_TOLERANCE)
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
    """κ = 10⁴·… still too narrow to draw; ρ = 0.5 on screen."""
    spec = ConditioningSpec(large_scale=100.0, correlation=0.5, drawn_kappa=20.0, theme="light")
    scene = build_scene(Conditioning, spec, media_dir)
    check(scene, spec)
    assert "0.5" in scene.rho_label.typst_code
    assert scene.words("why.narrow", drawn="20") in scene.narration[2]


def test_the_drawn_kappa_is_not_called_too_narrow_when_the_real_one_fits(media_dir):
    """Uncorrelated scales 1 and 10 give a real κ of 100, below the 400 drawn: the narration must not
    say it cannot be drawn."""
    spec = ConditioningSpec(large_scale=10.0, correlation=0.0, drawn_kappa=400.0, lang="ru")
    scene = build_scene(Conditioning, spec, media_dir)
    check(scene, spec)
    assert scene.demo.kappa_raw <= scene.demo.drawn_before.kappa
    assert scene.words("why.wide", drawn=scene.fmt.number(spec.drawn_kappa)) in scene.narration[2]
    assert "не нарисовать" not in " ".join(scene.narration) and "не поместится" not in scene.drawn.typst_code


@pytest.mark.parametrize("lang", LANGUAGES)
def test_correlation_is_shown_and_said(lang, media_dir):
    """ρ (from the spec) is typeset on screen; standardized κ = (1 + ρ)/(1 − ρ) and 1 without correlation are said."""
    spec = ConditioningSpec(lang=lang, steps_drawn=5)
    scene = build_scene(Conditioning, spec, media_dir, check_each_step=False)
    fmt = scene.fmt
    assert f"rho = {math_number(fmt.number(spec.correlation))}" in scene.rho_label.typst_code
    assert scene.demo.kappa_standardized_uncorrelated == pytest.approx(1.0)
    said = dict(zip((s.key for s in scene.steps), scene.narration))
    assert fmt.number(spec.correlation) in said["correlation"] and fmt.number(scene.demo.kappa_standardized, 1) in said["correlation"]
    rho = abs(spec.correlation)
    assert scene.demo.kappa_standardized == pytest.approx((1 + rho) / (1 - rho), rel=1e-9)
    # when ρ is introduced it is also named as part of κ before standardizing: 5.3·10⁸, 10⁸ if uncorrelated
    ratio = spec.large_scale / spec.small_scale
    assert fmt.plain_scientific(ratio**2) in said["correlation"]
    assert fmt.plain_scientific(scene.demo.kappa_raw) in said["correlation"]
    assert "10⁸" in said["correlation"] and 5.2e8 < scene.demo.kappa_raw < 5.3e8


@pytest.mark.parametrize("lang", LANGUAGES)
def test_uncorrelated_features_are_not_said_to_carry_a_correlation(lang, media_dir):
    """ρ = 0: κ before standardizing is the squared ratio of the scales, after it 1; the other wording."""
    spec = ConditioningSpec(lang=lang, correlation=0.0, steps_drawn=5)
    scene = build_scene(Conditioning, spec, media_dir, check_each_step=False)
    said = dict(zip((s.key for s in scene.steps), scene.narration))
    fmt = scene.fmt
    values = {"rho": fmt.number(0.0), "kappa": fmt.number(1.0, 1), "uncorrelated": fmt.number(1.0, 1),
              "kappa_raw": fmt.plain_scientific(1e8), "raw_uncorrelated": fmt.plain_scientific(1e8)}
    assert said["correlation"].endswith(scene.words("detail.uncorrelated", **values))
    assert fmt.plain_scientific((spec.large_scale / spec.small_scale) ** 2) in said["correlation"]
    assert scene.demo.kappa_standardized == pytest.approx(1.0)


@pytest.mark.parametrize("fraction, how", [(0.9, "zigzag-valley"), (0.3, "one-side-valley")])
def test_the_descent_is_worded_from_whether_the_step_overshoots(fraction, how, media_dir):
    """Above 1/L (fraction > ½ of 2/L) the steep coordinate flips sign every step: "overshoots"; below, it
    never does. Read from the drawn path itself."""
    spec = ConditioningSpec(step_fraction=fraction, steps_drawn=8)
    scene = build_scene(Conditioning, spec, media_dir, check_each_step=False)
    steep = corners(scene.before_plane, scene.before_path)[:, 1]  # the drawn Hessian is diag(1, κ)
    flips = np.sign(steep[1:]) != np.sign(steep[:-1])
    assert flips.all() if how.startswith("zigzag") else not flips.any()
    said = dict(zip((s.key for s in scene.steps), scene.narration))
    assert scene.words("how", when=Outcome("path_shape", how)) in said["descent"]


def test_scales_closer_than_a_factor_ten_are_refused():
    """The scene is about very different scales (a valley to crawl along): scales 1 and 2 are refused."""
    with pytest.raises(SpecError, match="large_scale: must be at least 10 times"):
        ConditioningSpec(large_scale=2.0)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_step_count_is_relative_to_the_starting_error(lang, media_dir):
    """'steps to 10⁻⁶' is relative: the label writes ‖w − w*‖ ≤ 10⁻⁶‖w₀ − w*‖, the tolerance from the core."""
    spec = ConditioningSpec(lang=lang, steps_drawn=5)
    scene = build_scene(Conditioning, spec, media_dir, check_each_step=False)
    assert "norm(e) <= 10^(-6) norm(e_0)" in scene.steps_a.typst_code
