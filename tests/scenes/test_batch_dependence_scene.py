"""batch-dependence: the readouts and dots are the core's two-batch, spread and gap results."""

import numpy as np
import pytest

from normgeo import batch_mean_spread, same_example_in_two_batches, train_eval_gap
from scenes.batch_dependence import BatchDependence, BatchDependenceSpec
from scenes.kit.languages import LANGUAGES
from tests.scenes.helpers import assert_layout_is_clean, assert_narrates_every_step, build_scene, centres


def check(scene, spec):
    pair = same_example_in_two_batches(n_features=spec.features, batch_size=spec.batch_size, seed=spec.seed)
    assert np.array_equal(scene.pair.batchnorm_a, pair.batchnorm_a)
    assert not np.allclose(pair.batchnorm_a, pair.batchnorm_b) and np.array_equal(pair.layernorm_a, pair.layernorm_b)
    spread = batch_mean_spread(spec.batch_sizes, seed=spec.seed)
    dots = centres(scene.spread_axes, scene.measured_dots)
    assert np.allclose(dots[:, 0], np.log2(spec.batch_sizes)) and np.allclose(dots[:, 1], spread.measured, rtol=1e-9)
    gap = train_eval_gap(spec.batch_sizes, seed=spec.seed)
    assert np.allclose(centres(scene.gap_axes, scene.gap_dots)[:, 1], gap.gaps, rtol=1e-9)
    assert_narrates_every_step(scene)
    assert_layout_is_clean(scene)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_readouts_and_plots(lang, media_dir):
    spec = BatchDependenceSpec(lang=lang)
    check(build_scene(BatchDependence, spec, media_dir), spec)


def test_custom_batches(media_dir):
    spec = BatchDependenceSpec(features=3, batch_size=5, batch_sizes=(4, 16, 64, 256), seed=4, theme="light")
    check(build_scene(BatchDependence, spec, media_dir), spec)


