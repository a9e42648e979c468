"""The participation ratio's bound is the rank the normalized states can have: min(T − 1, n) for
RMSNorm's outputs, min(T − 1, n − 1) for LayerNorm's (they lie in the zero-mean hyperplane).
Checked against numpy's matrix_rank of the centred outputs, on real and constructed states."""

import numpy as np
import pytest

from normgeo import layer_profile, output_span, participation_ratio
from normgeo_models.states_file import read_states
from scenes.kit.real_states import STATES_DIR


def centred_rank(outputs: np.ndarray) -> int:
    return int(np.linalg.matrix_rank(outputs - outputs.mean(axis=0)))


def ln(x, eps=0.0):
    centred = x - x.mean(axis=1, keepdims=True)
    return centred / np.sqrt(centred.var(axis=1, keepdims=True) + eps)


def rms(x, eps=0.0):
    return x / np.sqrt(np.mean(x**2, axis=1, keepdims=True) + eps)


@pytest.mark.parametrize("tokens", [2, 3, 4, 50])
def test_layernorm_outputs_in_three_dimensions_span_at_most_two(tokens):
    """n = 3, T = 50: LayerNorm's outputs lie in a plane, rank 2, and the bound says 2 (not 3)."""
    x = np.random.default_rng(tokens).normal(size=(tokens, 3)) * [1.0, 3.0, 0.5] + [2.0, -1.0, 5.0]
    profile = layer_profile(x, 0.0, centred=True)
    assert profile.dimension.rank_bound == centred_rank(ln(x)) == min(tokens - 1, 2)
    assert profile.dimension.ratio <= profile.dimension.rank_bound + 1e-9


@pytest.mark.parametrize("tokens", [2, 3, 4, 50])
def test_rmsnorm_outputs_in_three_dimensions_span_all_three(tokens):
    """RMSNorm's outputs lie on a sphere, which is not flat: 50 tokens reach rank 3."""
    x = np.random.default_rng(tokens).normal(size=(tokens, 3)) + [2.0, -1.0, 5.0]
    profile = layer_profile(x, 1e-6, centred=False)
    assert profile.dimension.rank_bound == centred_rank(rms(x, 1e-6)) == min(tokens - 1, 3)


@pytest.mark.parametrize("name, centred", [("smollm2.safetensors", False), ("minilm.safetensors", True)])
def test_the_bound_is_the_rank_of_the_real_normalized_states(name, centred):
    """On the shipped files the bound equals the rank numpy finds (T − 1 < n there), and it never
    exceeds the span the layer allows."""
    for layer in read_states(STATES_DIR / name).layers:
        x = layer.tokens()
        out = (ln if centred else rms)(x, layer.eps)
        profile = layer_profile(x, layer.eps, centred)
        assert profile.dimension.rank_bound == centred_rank(out)
        assert profile.dimension.span == x.shape[1] - centred


def test_a_few_wide_layernorm_tokens_reach_the_hyperplane_s_dimension_and_no_more():
    """n = 6, T = 40 LayerNorm tokens: numpy finds rank 5 = n − 1; RMSNorm of the same tokens rank 6."""
    x = np.random.default_rng(7).normal(size=(40, 6)) * 4.0 + 1.0
    assert layer_profile(x, 1e-5, True).dimension.rank_bound == centred_rank(ln(x, 1e-5)) == 5
    assert layer_profile(x, 1e-5, False).dimension.rank_bound == centred_rank(rms(x, 1e-5)) == 6


def test_span_is_checked():
    assert (output_span(False, 384), output_span(True, 384)) == (384, 383)
    with pytest.raises(ValueError):
        participation_ratio(np.eye(3), span=4)
    assert participation_ratio(np.eye(3)).rank_bound == 2 and participation_ratio(np.eye(3)).span == 3
