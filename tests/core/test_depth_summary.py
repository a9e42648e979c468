"""depth_summary against numbers worked out by hand: layer profiles made up field by field (so that
every statistic of the summary has a value chosen here, not computed by the code under test), their
medians, largest values, arg-max tokens, NaN where a layer lacks a statistic, and the trend."""

from __future__ import annotations

import math

import numpy as np
import pytest

from normgeo.depth_profile import LayerProfile, depth_summary
from normgeo.effective_dimension import EffectiveDimension
from normgeo.errors import ShapeError
from normgeo.hidden_states import MassiveTokens


def profile(norms, shares, angles, radii, measured, ratio, ratios, massive) -> LayerProfile:
    """A layer of three tokens with these statistics (None where the layer lacks one)."""
    arr = lambda values: None if values is None else np.array(values, float)  # noqa: E731
    return LayerProfile(
        n=4, eps=0.0, centred=True, norms=arr(norms), mean_shares=arr(shares), angles=arr(angles),
        radii=arr(radii), measured_radii=arr(measured),
        massive=MassiveTokens(10.0, float(np.median(norms)), tuple(massive), arr(ratios)),
        dimension=None if ratio is None else EffectiveDimension(ratio, 2, 3, 4, 4), ellipsoid=None)


FIRST = profile([3.0, 1.0, 2.0], [0.1, 0.5, 0.3], [0.2, 0.4, 0.9], [2.0, 1.5, 1.75], [1.9, 1.4, 1.8], 1.25,
                [1.5, 0.5, 1.0], [])
SECOND = profile([4.0, 40.0, 5.0], [0.0, 0.25, 0.75], None, [2.0, 2.0, 2.0], None, None, [0.8, 8.0, 1.0], [1])
THIRD = profile([6.0, 7.0, 9.0], [0.2, 0.2, 0.6], [0.1, 0.3, 0.2], [1.0, 3.0, 2.5], [0.5, 0.6, 0.7], 2.5,
                [6 / 7, 1.0, 9 / 7], [2])


def test_every_field_is_the_statistic_of_each_layer_by_hand():
    summary = depth_summary([FIRST, SECOND, THIRD])
    assert summary.median_norms.tolist() == [2.0, 5.0, 7.0]
    assert summary.max_norms.tolist() == [3.0, 40.0, 9.0]
    assert summary.max_tokens.tolist() == [0, 1, 2]
    assert summary.median_shares.tolist() == [0.3, 0.25, 0.2]
    assert summary.max_shares.tolist() == [0.5, 0.75, 0.6]
    assert summary.median_angles[[0, 2]].tolist() == [0.4, 0.2] and math.isnan(summary.median_angles[1])
    assert summary.max_angles[[0, 2]].tolist() == [0.9, 0.3] and math.isnan(summary.max_angles[1])
    assert summary.min_radii.tolist() == [1.5, 2.0, 1.0]
    assert summary.max_radii.tolist() == [2.0, 2.0, 3.0]
    assert summary.min_measured[[0, 2]].tolist() == [1.4, 0.5] and math.isnan(summary.min_measured[1])
    assert summary.max_measured[[0, 2]].tolist() == [1.9, 0.7] and math.isnan(summary.max_measured[1])
    assert summary.ratios[[0, 2]].tolist() == [1.25, 2.5] and math.isnan(summary.ratios[1])
    assert summary.largest_ratios.tolist() == [1.5, 8.0, 9 / 7]
    assert summary.massive_counts.tolist() == [0, 1, 1]
    trend = summary.norm_trend  # medians 2 → 5 → 7: two rises in two steps, ×3.5
    assert (trend.first, trend.last, trend.rises, trend.steps, trend.ratio) == (2.0, 7.0, 2, 2, 3.5)
    assert summary.median_norms.dtype == np.float64 and summary.max_tokens.dtype.kind == "i"


def test_the_order_of_the_layers_is_kept_and_a_generator_is_taken():
    summary = depth_summary(p for p in [THIRD, FIRST])
    assert summary.median_norms.tolist() == [7.0, 2.0] and summary.max_tokens.tolist() == [2, 0]
    assert (summary.norm_trend.rises, summary.norm_trend.steps) == (0, 1)


@pytest.mark.parametrize("layers", [[], [FIRST]])
def test_fewer_than_two_layers_are_refused(layers):
    with pytest.raises(ShapeError, match=f"at least 2 layers, got {len(layers)}"):
        depth_summary(layers)

