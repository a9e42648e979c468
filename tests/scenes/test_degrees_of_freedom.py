"""degrees-of-freedom: the table is the core's; γ maps the √2 circle onto the ellipse."""

import math

import numpy as np
import pytest

from manim import Typst

from normgeo import degrees_of_freedom, rms_norm, sample_vectors
from scenes.kit.adapters import to_coordinates
from scenes.kit.spec import SpecError
from scenes.degrees_of_freedom import DegreesOfFreedom, DegreesOfFreedomSpec
from scenes.kit.languages import LANGUAGES
from tests.scenes.helpers import (
    GEOMETRY_TOLERANCE,
    assert_layout_is_clean,
    assert_narrates_every_step,
    build_scene,
    centres,
)


def drawn_table(scene):
    """The table as drawn: its visible Typst sources, grouped into rows by height on screen (top
    first) and ordered left to right within each row."""
    on_screen = {id(m) for top in scene.mobjects for m in top.get_family()}
    texts = [m for m in scene.table.get_family() if isinstance(m, Typst) and id(m) in on_screen
             and any(part.get_fill_opacity() > 0 for part in m.family_members_with_points())]
    rows = []
    for text in sorted(texts, key=lambda t: -t.get_center()[1]):
        if rows and rows[-1][0].get_center()[1] - text.get_center()[1] < 0.2:  # rows are further apart than this
            rows[-1].append(text)
        else:
            rows.append([text])
    return [[t.typst_code for t in sorted(row, key=lambda t: t.get_center()[0])] for row in rows]


def check(scene, spec):
    dims = spec.dims
    laws = {"none": list(dims), "l2": [n - 1 for n in dims], "layernorm": [max(n - 2, 0) for n in dims]}
    for layer, values in laws.items():
        assert [degrees_of_freedom(layer, n) for n in dims] == values, layer
    table = drawn_table(scene)
    assert len(table) == 4 and all(len(row) == 3 + len(dims) for row in table[1:])
    assert table[0] == [scene.words("header.left")] + [scene.words("header.n", n=n) for n in dims]
    for row, (layer, key, removed) in zip(table[1:], (("none", "none", "$n$"), ("l2", "l2", "$n - 1$"),
                                                      ("layernorm", "layernorm", "$n - 2$"))):
        assert row[:3] == [scene.words(f"row.{key}"), scene.words(f"constraint.{key}"), removed], layer
        assert row[3:] == [f"${v}$" for v in laws[layer]], layer
    gamma = np.array(spec.gamma)
    inputs = sample_vectors(spec.count, 2, seed=spec.seed)
    stretched = centres(scene.plane, scene.stretched_dots)
    assert np.allclose(stretched, gamma * rms_norm(inputs, eps=0.0), atol=GEOMETRY_TOLERANCE)
    ellipse = to_coordinates(scene.plane, scene.ellipse.get_anchors())
    semi_axes = gamma * math.sqrt(2)
    assert np.allclose(np.sum((ellipse / semi_axes) ** 2, axis=1), 1.0, atol=1e-6)
    # the curve after γ is named on the figure as what it is: a circle again exactly when |γ₁| = |γ₂|
    round_ = abs(abs(gamma[0]) - abs(gamma[1])) <= 1e-12
    after = scene.curve_labels[1].typst_code
    assert ("circle" in after) == round_ if spec.lang == "en" else True
    plane_box = (scene.plane.get_corner((-1, -1, 0)), scene.plane.get_corner((1, 1, 0)))
    for label in scene.curve_labels:
        assert np.all(label.get_corner((-1, -1, 0))[:2] >= plane_box[0][:2] - 1e-6)
        assert np.all(label.get_corner((1, 1, 0))[:2] <= plane_box[1][:2] + 1e-6)
    assert_narrates_every_step(scene)
    assert_layout_is_clean(scene)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_table_and_gamma_ellipse(lang, media_dir):
    """n = 2, 3, 896: 896/895/894 (Qwen2) is in the table and in the narration."""
    spec = DegreesOfFreedomSpec(lang=lang)
    scene = build_scene(DegreesOfFreedom, spec, media_dir)
    check(scene, spec)
    assert any("895" in line and "894" in line for line in scene.narration)
    said = dict(zip((s.key for s in scene.steps), scene.narration))
    # Qwen2-0.5B uses RMSNorm: 895 is its count; 894 is what LayerNorm would leave at that width
    assert scene.words("lead.qwen", n=896, l2=895, ln=894) in said["qwen"]
    assert "RMSNorm" in scene.high_text.typst_code and "894" in scene.high_text.typst_code


def test_custom_dimensions_and_gamma(media_dir):
    """Other dimensions (incl. n = 2, where LayerNorm keeps 0) and another γ."""
    spec = DegreesOfFreedomSpec(dims=(2, 4, 4096), gamma=(0.5, 2.0), theme="light")
    scene = build_scene(DegreesOfFreedom, spec, media_dir)
    check(scene, spec)
    assert not any("Qwen" in line for line in scene.narration), "4096 is not Qwen2-0.5B's hidden size"
    assert any("4,095" in line and "4,094" in line for line in scene.narration)


def test_width_one_is_refused_for_layer_norm():
    """n = 1 is not a valid LayerNorm width: the spec says so in one line instead of tabulating 0."""
    with pytest.raises(SpecError, match="n = 1 is not a valid LayerNorm width"):
        DegreesOfFreedomSpec(dims=(1, 4))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_gamma_is_said_to_be_shared_and_the_count_not_to_be_information(lang, media_dir):
    """γ is one vector for every input and cannot restore an input's length; counts are at ε = 0 and
    are not a measure of information."""
    scene = build_scene(DegreesOfFreedom, DegreesOfFreedomSpec(lang=lang), media_dir, check_each_step=False)
    said = dict(zip((s.key for s in scene.steps), scene.narration))
    shared, cannot, information = {"en": ("shared by every input", "cannot give", "not a measure of information"),
                                   "zh": ("所有输入共用", "无法", "并不是信息量的度量"),
                                   "ru": ("общий для всех входов", "не может", "не мера информации")}[lang]
    assert shared in said["gamma"] and cannot in said["gamma"]
    assert information in said["qwen"]
    assert "ε = 0" in said["l2"] and "ε = 0" in said["layernorm"]


def test_equal_gamma_keeps_the_circle_and_says_so(media_dir):
    """γ = (1.2, 1.2): the image is a circle of radius 1.2·√2, and the figure and the narration say a
    circle, not an ellipse (issue 34)."""
    spec = DegreesOfFreedomSpec(gamma=(1.2, 1.2))
    scene = build_scene(DegreesOfFreedom, spec, media_dir, check_each_step=False)
    curve = to_coordinates(scene.plane, scene.ellipse.get_anchors())
    assert np.allclose(np.linalg.norm(curve, axis=1), 1.2 * math.sqrt(2), atol=1e-6)
    assert "circle" in scene.curve_labels[1].typst_code and "ellipse" not in scene.curve_labels[1].typst_code
    said = dict(zip((s.key for s in scene.steps), scene.narration))
    assert "ellipse" not in said["gamma"] and "stays a circle" in said["gamma"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_mean_is_an_offset_not_a_scale_and_the_stream_keeps_the_length(lang, media_dir):
    """Issue 34: LayerNorm's mean is an offset along 1, not part of the scale; in a pre-norm network the
    residual path keeps the length."""
    scene = build_scene(DegreesOfFreedom, DegreesOfFreedomSpec(lang=lang), media_dir, check_each_step=False)
    said = dict(zip((s.key for s in scene.steps), scene.narration))["qwen"]
    offset, keeps = {"en": ("an offset along the direction 1", "residual path keeps that length"),
                     "zh": ("沿方向 1 的偏移", "残差通路保留着这个长度"),
                     "ru": ("сдвиг вдоль направления 1", "сохраняет остаточный путь")}[lang]
    assert offset in said and keeps in said
    assert "mostly the overall scale" not in said
