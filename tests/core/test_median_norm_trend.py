"""median_norm_trend: the median token norm per layer, against a median taken by hand, and on the
bundled SmolLM2 states (pre-norm RMSNorm: the residual stream keeps and grows its length)."""

import math

import numpy as np
import pytest

from normgeo.depth_profile import median_norm_trend
from normgeo_models.states_file import read_states
from scenes.kit.real_states import STATES_DIR


def by_hand(tokens) -> float:
    lengths = sorted(math.sqrt(sum(v * v for v in row)) for row in tokens)
    middle = len(lengths) // 2
    return lengths[middle] if len(lengths) % 2 else (lengths[middle - 1] + lengths[middle]) / 2


def test_median_norms_by_hand():
    rng = np.random.default_rng(4)
    layers = [rng.normal(scale=s, size=(t, 5)) for s, t in ((1.0, 7), (3.0, 6), (0.5, 9))]
    trend = median_norm_trend(layers)
    assert trend.first == pytest.approx(by_hand(layers[0].tolist()))
    assert trend.last == pytest.approx(by_hand(layers[-1].tolist()))
    assert trend.steps == 2 and trend.rises == 1 and not trend.grows


def test_smollm2_stream_grows_from_about_2_6_to_about_553_over_61_calls():
    """The number issue 34 quotes, recomputed from the file with a median by hand."""
    layers = [layer.tokens() for layer in read_states(STATES_DIR / "smollm2.safetensors").of_kind("rmsnorm")]
    trend = median_norm_trend(layers)
    assert len(layers) == 61 and trend.steps == 60 and trend.grows
    assert trend.first == pytest.approx(by_hand(layers[0].tolist())) and round(trend.first, 1) == 2.6
    assert trend.last == pytest.approx(by_hand(layers[-1].tolist())) and round(trend.last) == 553
