"""degrees-of-freedom: the table is the core's; γ maps the √2 circle onto the ellipse."""

import math

import numpy as np
import pytest

from normgeo import rms_norm, sample_vectors
from scenes.kit.adapters import to_coordinates
from scenes.degrees_of_freedom import DegreesOfFreedom, DegreesOfFreedomSpec
from scenes.kit.languages import LANGUAGES
from tests.scenes.helpers import (
    GEOMETRY_TOLERANCE,
    assert_layout_is_clean,
    assert_narrates_every_step,
    build_scene,
    centres,
)


def check(scene, spec):
    dims = spec.dims
    assert scene.table_values == {
        "none": list(dims),
        "l2": [n - 1 for n in dims],
        "layernorm": [max(n - 2, 0) for n in dims],
    }
    gamma = np.array(spec.gamma)
    inputs = sample_vectors(spec.count, 2, seed=spec.seed)
    stretched = centres(scene.plane, scene.stretched_dots)
    assert np.allclose(stretched, gamma * rms_norm(inputs, eps=0.0), atol=GEOMETRY_TOLERANCE)
    ellipse = to_coordinates(scene.plane, scene.ellipse.get_anchors())
    semi_axes = gamma * math.sqrt(2)
    assert np.allclose(np.sum((ellipse / semi_axes) ** 2, axis=1), 1.0, atol=1e-6)
    assert_narrates_every_step(scene)
    assert_layout_is_clean(scene)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_table_and_gamma_ellipse(lang, media_dir):
    """n = 2, 3, 896: 896/895/894 (Qwen2) is in the table and in the narration."""
    spec = DegreesOfFreedomSpec(lang=lang)
    scene = build_scene(DegreesOfFreedom, spec, media_dir)
    check(scene, spec)
    assert any("895" in line and "894" in line for line in scene.narration)


def test_custom_dimensions_and_gamma(media_dir):
    """Other dimensions (incl. n = 1, where LayerNorm keeps 0) and another γ."""
    spec = DegreesOfFreedomSpec(dims=(1, 4, 4096), gamma=(0.5, 2.0), theme="light")
    scene = build_scene(DegreesOfFreedom, spec, media_dir)
    check(scene, spec)
    assert not any("Qwen" in line for line in scene.narration), "4096 is not Qwen2-0.5B's hidden size"
    assert any("4,095" in line and "4,094" in line for line in scene.narration)
