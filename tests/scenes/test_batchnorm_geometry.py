"""batchnorm-geometry: every column of BatchNorm's output sums to 0 and has length √B; a batch of two
lands on (1, −1) and (−1, 1); GroupNorm with one group is LayerNorm, with one feature per group all 0."""

import numpy as np
import pytest

from normgeo import batch_norm, group_norm, layer_norm
from scenes.batchnorm_geometry import BatchNormGeometry, BatchNormGeometrySpec
from scenes.kit.languages import LANGUAGES
from scenes.kit.numbers import fmt_fixed, fmt_number
from scenes.kit.spec import SpecError
from scenes.kit.text import fill
from tests.scenes.helpers import (GEOMETRY_TOLERANCE, assert_layout_is_clean, assert_narrates_every_step, build_scene, centres,
                                  text_boxes)


def written(values, lang, digits=2, fixed=True):
    """How the scene must typeset each value: ``$…$`` with a decimal comma kept whole."""
    fmt = fmt_fixed if fixed else fmt_number
    return [fill("${v}$", lang, {"v": fmt(v, digits, lang)}) for v in np.ravel(values)]


def check(scene, spec):
    grid, lang = np.array(spec.values), spec.lang
    batch, features = grid.shape
    normalized = batch_norm(grid, eps=0.0)
    assert np.allclose(normalized.sum(axis=0), 0.0, atol=1e-9)
    assert np.allclose(np.linalg.norm(normalized, axis=0), np.sqrt(batch), atol=1e-9)
    assert scene.shown["batchnorm"] == [fmt_fixed(v, 2, lang) for v in normalized.ravel()]
    sums, lengths = scene.column_stats[0], scene.column_stats[1]
    assert [m.typst_code for m in sums] == written(normalized.sum(axis=0), lang, 3, fixed=False)
    assert [m.typst_code for m in lengths] == written(np.linalg.norm(normalized, axis=0), lang, 3, fixed=False)
    # BatchNorm's shading: one shade per column
    opacities = np.array([cell.get_fill_opacity() for cell in scene.shading]).reshape(grid.shape)
    assert np.allclose(opacities, opacities[0])
    # the batch of two on the plane
    pair = grid[[index - 1 for index in spec.pair]]
    outputs = batch_norm(pair, eps=0.0).T
    for dots in (scene.output_dots, scene.centred_dots):  # the centred dots were transformed onto the outputs
        assert np.allclose(centres(scene.plane, dots), outputs, atol=GEOMETRY_TOLERANCE)
    for point in outputs:
        assert min(np.abs(point - target).max() for target in ([1.0, -1.0], [-1.0, 1.0])) < 1e-9
    # GroupNorm's limits, read from the drawn mini grids
    one_group_numbers = scene.one_group_grid[1][2]
    assert [m.typst_code for m in one_group_numbers] == written(layer_norm(grid, eps=0.0), lang)
    assert np.allclose(group_norm(grid, 1, eps=0.0), layer_norm(grid, eps=0.0), atol=1e-12)
    per_feature = group_norm(grid, features, eps=spec.eps)
    assert np.all(per_feature == 0.0)
    assert [m.typst_code for m in scene.per_feature_grid[1][2]] == written(per_feature, lang)
    assert_narrates_every_step(scene)
    assert_layout_is_clean(scene)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_source_grid(lang, media_dir):
    """The Russian source's grid: every column sums to 0 and has length 2."""
    spec = BatchNormGeometrySpec(lang=lang)
    scene = build_scene(BatchNormGeometry, spec, media_dir)
    check(scene, spec)
    assert [m.typst_code for m in scene.column_stats[1]] == ["$2$"] * 4
    # the zero-mean hyperplane of ℝ^B has B − 1 = 3 dimensions (zh used to call it "4 维零均值超平面"),
    # the sphere holds in training mode, and no sentence speaks of another command's rules
    said = dict(zip((s.key for s in scene.steps), scene.narration))
    assert {"en": "3 dimensions", "zh": "3 维的", "ru": "размерность этой гиперплоскости\u00a0— 3"}[lang] in said["sphere"]
    assert "4 维零均值超平面" not in said["sphere"]
    assert {"en": "training mode", "zh": "训练模式", "ru": "режиме обучения"}[lang] in said["normalize"]
    everything = " ".join(scene.narration) + " ".join(m.typst_code for m, _, _ in text_boxes(scene))
    assert all(word not in everything for word in ("normalization-axes", "归一化的轴", "осях нормировки", "refuses"))


def test_custom_grid_and_pair(media_dir):
    spec = BatchNormGeometrySpec(values=((1, 5, -2), (0, 1, 7), (4, 4.5, 1)), pair=(1, 3), eps=1e-3, theme="light")
    check(build_scene(BatchNormGeometry, spec, media_dir), spec)


def test_pair_with_an_equal_feature_is_refused():
    with pytest.raises(SpecError, match="pair"):
        BatchNormGeometrySpec(values=((1, 2), (1, 3), (2, 0)), pair=(1, 2))
