"""batch-dependence over every accepted spec: each claim is checked against the core's numbers
recomputed here by hand (two examples per batch: the closed form d/√(d² + 4ε))."""

import numpy as np
from hypothesis import given

from normgeo import batch_mean_spread, same_example_in_two_batches, train_eval_gap
from scenes.batch_dependence import EPS, BatchDependence, BatchDependenceSpec
from tests.scenes.claims_support import assert_claims, build_recorded, scene_settings, spec_strategy


def batchnorm_row0(batch: np.ndarray) -> np.ndarray:
    centred = batch - batch.mean(axis=0)
    return centred[0] / np.sqrt((centred**2).mean(axis=0) + EPS)


@scene_settings(share=0.5, least=12)
@given(spec=spec_strategy(BatchDependenceSpec))
def test_every_claim_matches_the_numbers(spec, media_dir):
    scene = build_recorded(BatchDependence, spec, media_dir)
    pair = same_example_in_two_batches(n_features=spec.features, batch_size=spec.batch_size, seed=spec.seed, eps=EPS)
    a, b = batchnorm_row0(pair.batch_a), batchnorm_row0(pair.batch_b)
    assert np.allclose(a, pair.batchnorm_a) and np.allclose(b, pair.batchnorm_b)
    differ = np.abs(a - b).max() > 5e-3
    two = "differ" if differ else ("signs" if spec.batch_size == 2 else "agree")
    spread = batch_mean_spread(spec.batch_sizes, seed=spec.seed)
    law = bool(np.all(np.abs(spread.measured * np.sqrt(spread.batch_sizes) - 1.0) <= 0.1))
    gap = train_eval_gap(spec.batch_sizes, seed=spec.seed)
    largest_first = bool(gap.gaps[0] >= gap.gaps.max())
    assert_claims(scene, {"say.two-batches": ("batchnorm_outcome", two), "say.small": ("follows_law", law),
                          "say.inference": ("largest_at_smallest_batch", largest_first)})
    fmt, values = scene.fmt, scene.said_values
    assert values["small"]["small"] == fmt.number(spread.measured[0], 2)
    assert values["small"]["large"] == fmt.number(spread.measured[-1], 2)
    assert values["inference"]["gap_small"] == fmt.plain_scientific(gap.gaps[0], 2)
    assert values["inference"]["b_large"] == spec.batch_sizes[-1]
