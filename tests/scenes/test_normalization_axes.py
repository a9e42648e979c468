"""normalization-axes: every tab shows the core's normalized values; RMSNorm rows have RMS 1, mean ≈ 0.75."""

import numpy as np
import pytest

from normgeo import batch_norm, group_norm, layer_norm, rms_norm
from scenes.kit.languages import LANGUAGES
from scenes.normalization_axes import NormalizationAxes, NormalizationAxesSpec
from scenes.kit.numbers import fmt_fixed
from tests.scenes.helpers import assert_layout_is_clean, assert_narrates_every_step, build_scene


def check(scene, spec):
    grid, eps = np.array(spec.values), spec.eps
    expected = {
        "batchnorm": batch_norm(grid, eps=eps),
        "layernorm": layer_norm(grid, eps=eps),
        "rmsnorm": rms_norm(grid, eps=eps),
        "groupnorm": group_norm(grid, spec.groups[0], eps=eps),
    }
    if len(spec.groups) > 1:
        expected["groupnorm-again"] = group_norm(grid, spec.groups[1], eps=eps)
    for key, values in expected.items():
        assert scene.shown[key] == [fmt_fixed(v, lang=spec.lang) for v in values.ravel()], key
    assert np.allclose(scene.row_rms, np.sqrt(np.mean(expected["rmsnorm"] ** 2, axis=1)))
    assert np.allclose(scene.row_means, expected["rmsnorm"].mean(axis=1))
    assert len(scene.numbers) == grid.size
    assert_narrates_every_step(scene)
    assert_layout_is_clean(scene)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_source_grid_under_every_layer(lang, media_dir):
    """The source's 4×4 grid; under RMSNorm every row has RMS 1 and a mean near 0.75."""
    spec = NormalizationAxesSpec(lang=lang)
    scene = build_scene(NormalizationAxes, spec, media_dir)
    check(scene, spec)
    assert np.allclose(scene.row_rms, 1.0, atol=1e-5)
    assert np.all(np.abs(scene.row_means - 0.75) < 0.1)


def test_custom_grid(media_dir):
    spec = NormalizationAxesSpec(values=((1, 5, 2, 8, 3, 3), (0, 1, 0, 1, 0, 2), (4, 4, 1, 1, 9, 9)), groups=(3, 2),
                                 theme="light")
    check(build_scene(NormalizationAxes, spec, media_dir), spec)
