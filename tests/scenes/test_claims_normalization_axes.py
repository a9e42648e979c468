"""normalization-axes over every accepted grid: under RMSNorm "each row's RMS is 1" only while ε is
small against every row's mean square, "the row means are not zero" names their range (rows whose
means cancel included), and "every cell becomes ±1" only when each pair of cells does, all recomputed
here cell by cell."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from scenes.normalization_axes import NormalizationAxes, NormalizationAxesSpec
from tests.scenes.claims_support import assert_claims, build_recorded, scene_settings, spec_strategy


def group_counts(drawn):
    """Two group counts (equal or not) that divide the drawn grid's features, each group at least two wide."""
    features = len(drawn["values"][0])
    counts = [g for g in range(1, 7) if features % g == 0 and features // g >= 2]
    return st.tuples(st.sampled_from(counts), st.sampled_from(counts))


@scene_settings(share=0.5, least=10)
@given(spec=spec_strategy(NormalizationAxesSpec, groups=group_counts))
def test_every_claim_matches_the_numbers(spec, media_dir):
    scene = build_recorded(NormalizationAxes, spec, media_dir)
    grid, eps = np.array(spec.values, dtype=float), spec.eps
    mean_square = (grid**2).mean(axis=1)
    rms_out = grid / np.sqrt(mean_square + eps)[:, None]
    means, rms = rms_out.mean(axis=1), np.sqrt(mean_square / (mean_square + eps))
    zero = np.abs(means) < 5e-3
    expected = {"means": ("zero_means", "all" if zero.all() else "some" if zero.any() else "none"),
                "rms-claim": ("unit_rms", bool(np.all(np.abs(rms - 1) < 5e-3)))}
    for groups in spec.groups:
        if grid.shape[1] // groups == 2:
            a, b = grid[:, 0::2], grid[:, 1::2]
            half = np.abs(a - b) / 2
            cells = half / np.sqrt(half**2 + eps)
            expected["fact.pairs"] = ("pairs_of_signs", bool(np.all(np.abs(cells - 1) < 5e-3)))
    expected["say.groupnorm-again"] = ("groups_repeat", spec.groups[0] == spec.groups[1])
    assert_claims(scene, expected)
    line = scene.said_values["rmsnorm"]
    if expected["means"][1] != "all":
        assert scene.fmt.fixed(means.min(), 2) in line["means"] and scene.fmt.fixed(means.max(), 2) in line["means"]
    if not expected["rms-claim"][1]:
        assert scene.fmt.fixed(rms.min(), 2) in line["rms"] and scene.fmt.fixed(rms.max(), 2) in line["rms"]
