"""batch-dependence: the readouts and dots are the core's two-batch, spread and gap results."""

import numpy as np
import pytest

from normgeo import batch_mean_spread, same_example_in_two_batches, train_eval_gap
from scenes.batch_dependence import BatchDependence, BatchDependenceSpec
from scenes.kit.languages import LANGUAGES
from scenes.kit.numbers import NumberFormat, fmt_fixed
from scenes.kit.text import math_number
from tests.scenes.helpers import assert_layout_is_clean, assert_narrates_every_step, build_scene, centres


def on_screen(scene, mobject) -> bool:
    return any(mobject is m for top in scene.mobjects for m in top.get_family())


def check(scene, spec):
    lang, fmt = spec.lang, NumberFormat(spec.lang)
    pair = same_example_in_two_batches(n_features=spec.features, batch_size=spec.batch_size, seed=spec.seed)
    assert not np.allclose(pair.batchnorm_a, pair.batchnorm_b) and np.array_equal(pair.layernorm_a, pair.layernorm_b)
    # the two batches as typeset, cell by cell (row 0, the shared example, is the same in both)
    for grid, batch in zip(scene.grids, (pair.batch_a, pair.batch_b)):
        cells, numbers = grid[0], grid[1]
        assert on_screen(scene, numbers)
        assert [n.typst_code for n in numbers] == [f"${math_number(fmt_fixed(v, 2, lang))}$" for v in batch.ravel()]
        assert np.allclose([n.get_center() for n in numbers], [c.get_center() for c in cells], atol=1e-6)
    assert [n.typst_code for n in scene.grids[0][1]][: spec.features] == [n.typst_code for n in scene.grids[1][1]][: spec.features]
    # the readouts as typeset: BatchNorm's two outputs for the one example differ, LayerNorm's agree
    assert on_screen(scene, scene.bn_outputs) and on_screen(scene, scene.ln_outputs)
    for outputs, a, b in ((scene.bn_outputs, pair.batchnorm_a, pair.batchnorm_b),
                          (scene.ln_outputs, pair.layernorm_a, pair.layernorm_b)):
        assert [v.typst_code for v in outputs[1]] == [scene.words("vector", v=fmt.vector(u, 2)) for u in (a, b)]
        for value, grid in zip(outputs[1], scene.grids):  # each under its batch
            assert abs(value.get_x() - grid[0].get_x()) < 1e-6
    # tick marks at the data: the batch sizes on x, the decades on the log y axis (issue 33)
    for axes in (scene.spread_axes, scene.gap_axes):
        xs = sorted(tick.get_center()[0] for tick in axes.x_axis[-1])
        assert np.allclose(xs, [axes.c2p(p, 1.0)[0] for p in np.log2(spec.batch_sizes)], atol=1e-6)
        ys = sorted(tick.get_center()[1] for tick in axes.y_axis[-1])
        assert np.allclose(ys, sorted(axes.c2p(0.0, 10.0 ** k)[1] for k in (-1, 0)), atol=1e-6)
    spread = batch_mean_spread(spec.batch_sizes, seed=spec.seed)
    dots = centres(scene.spread_axes, scene.measured_dots)
    assert np.allclose(dots[:, 0], np.log2(spec.batch_sizes)) and np.allclose(dots[:, 1], spread.measured, rtol=1e-9)
    gap = train_eval_gap(spec.batch_sizes, seed=spec.seed)
    assert np.allclose(centres(scene.gap_axes, scene.gap_dots)[:, 1], gap.gaps, rtol=1e-9)
    said = dict(zip((s.key for s in scene.steps), scene.narration))
    assert fmt.number(spread.measured[0], 2) in said["small"] and fmt.number(spread.measured[-1], 2) in said["small"]
    assert_narrates_every_step(scene)
    assert_layout_is_clean(scene)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_readouts_and_plots(lang, media_dir):
    spec = BatchDependenceSpec(lang=lang)
    check(build_scene(BatchDependence, spec, media_dir), spec)


def test_custom_batches(media_dir):
    spec = BatchDependenceSpec(features=3, batch_size=5, batch_sizes=(4, 16, 64, 256), seed=4, theme="light")
    check(build_scene(BatchDependence, spec, media_dir), spec)


