"""unified-formula: the formula's three parts are lit; each layer's grid is shaded by statistic_groups."""

import numpy as np
import pytest

from normgeo import statistic_groups
from scenes.kit.grids import GROUP_OPACITIES
from scenes.kit.languages import LANGUAGES
from scenes.unified_formula import UnifiedFormula, UnifiedFormulaSpec
from tests.scenes.helpers import assert_layout_is_clean, assert_narrates_every_step, build_scene


def check(scene, spec):
    shape = (spec.batch, spec.features)
    for layer in ("batchnorm", "layernorm", "rmsnorm", "groupnorm"):
        groups = spec.groups if layer == "groupnorm" else None
        expected = statistic_groups(layer, shape, num_groups=groups)
        assert np.array_equal(scene.group_labels[layer], expected)
    for (_, grid, _), layer in zip(scene.layer_rows, ("batchnorm", "layernorm", "rmsnorm", "groupnorm")):
        shading = grid[0]
        opacities = np.array([cell.get_fill_opacity() for cell in shading]).reshape(shape)
        expected = np.array(GROUP_OPACITIES)[scene.group_labels[layer] % len(GROUP_OPACITIES)]
        assert np.allclose(opacities, expected)
    for part in ("centre", "scale", "affine"):
        assert scene.formula_mobject.select(part)
    assert_narrates_every_step(scene)
    assert_layout_is_clean(scene)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_grids_follow_the_core_partition(lang, media_dir):
    spec = UnifiedFormulaSpec(lang=lang)
    scene = build_scene(UnifiedFormula, spec, media_dir)
    check(scene, spec)
    # "only the axes" is "mainly the axes" (RMSNorm also drops the centring); γ is shared and cannot restore an input
    said = dict(zip((s.key for s in scene.steps), scene.narration))
    mainly, shared = {"en": ("mainly", "shared by every input"), "zh": ("主要区别", "所有输入共用"),
                      "ru": ("в основном", "общие для всех входов")}[lang]
    assert mainly in said["axes"] and shared in said["affine"]


def test_custom_grid_and_groups(media_dir):
    spec = UnifiedFormulaSpec(batch=3, features=6, groups=3, theme="light")
    check(build_scene(UnifiedFormula, spec, media_dir), spec)


def test_terms_take_their_concepts_colours_and_batchnorm_can_restore_the_identity(media_dir):
    """Centring x − μ wears the colour of the direction 1 (it removes μ·1); scale and affine are no
    concept and end in the text colour. The narration says, per layer, whether γ and β can give an
    input back its mean and spread: BatchNorm's per-feature γ = √(σ² + ε), β = μ can (Ioffe & Szegedy
    2015, §3); LayerNorm's shared ones cannot. σ² is said to be the biased variance."""
    spec = UnifiedFormulaSpec()
    scene = build_scene(UnifiedFormula, spec, media_dir, check_each_step=False)
    colors, formula = scene.palette, scene.formula_mobject
    def colour(part):
        drawn = {m.get_fill_color().to_hex().lower() for m in formula.select(part).family_members_with_points()}
        assert len(drawn) == 1, (part, drawn)
        return drawn.pop()

    assert colour("centre") == colors.ones.lower()
    assert colour("scale") == colour("affine") == colors.text.lower()
    said = dict(zip((s.key for s in scene.steps), scene.narration))
    assert "Ioffe" in said["batchnorm"] and "identity" in said["batchnorm"]
    assert "cannot give an input back" in said["layernorm"] and "cannot" not in said["affine"]
    assert "biased variance" in said["scale"]
