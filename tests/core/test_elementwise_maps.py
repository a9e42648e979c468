"""Laws of the element-wise maps DyT, Derf, DyISRU (E4), against PyTorch and scipy's tanh and erf,
RMSNorm computed by its own code path, and the closed forms of their values and slopes at 0."""

import math

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from scipy.special import erf

from normgeo import dynamic_tanh_fit, rms_norm
from normgeo.elementwise_maps import (
    ELEMENTWISE_MAPS,
    elementwise_map,
    map_bound,
    map_properties,
    maps_on_tokens,
    outlier_effect,
)
from normgeo.errors import InvalidParameterError, ShapeError

X = np.linspace(-30.0, 30.0, 601)


def test_the_maps_are_their_formulas():
    """tanh(αx) as torch computes it, erf(αx + s) as scipy and torch do, c·x/√(β + x²) in plain numpy."""
    np.testing.assert_allclose(elementwise_map("dyt", X, alpha=0.7), torch.tanh(torch.tensor(0.7 * X)).numpy(),
                               rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(elementwise_map("derf", X, alpha=0.3, shift=0.4), erf(0.3 * X + 0.4), rtol=1e-14,
                               atol=1e-15)
    np.testing.assert_allclose(elementwise_map("derf", X, alpha=0.3, shift=0.4),
                               torch.erf(torch.tensor(0.3 * X + 0.4)).numpy(), rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(elementwise_map("dyisru", X, beta=2.5, scale=3.0), 3.0 * X / np.sqrt(2.5 + X * X),
                               rtol=1e-14, atol=1e-15)
    huge = elementwise_map("dyisru", [-1e300, 1e300, 1e-300], beta=1e-200, scale=2.0)
    np.testing.assert_allclose(huge, [-2.0, 2.0, 2.0 * 1e-300 / 1e-100], rtol=1e-14)


@given(st.lists(st.floats(-100, 100).filter(lambda v: abs(v) > 1e-3), min_size=2, max_size=10))
def test_dyisru_is_rmsnorms_exact_elementwise_counterpart(entries):
    """RMSNorm(x)ᵢ (ε = 0) = √n·xᵢ/√(βᵢ + xᵢ²) with βᵢ = Σⱼ≠ᵢ xⱼ²: DyISRU with scale √n and that β."""
    x = np.array(entries)
    n = x.size
    expected = rms_norm(x, eps=0.0)
    for i in range(n):
        beta = math.fsum(x[j] ** 2 for j in range(n) if j != i)
        y = elementwise_map("dyisru", x[i:i + 1], beta=beta, scale=math.sqrt(n))[0]
        assert y == pytest.approx(expected[i], rel=1e-12, abs=1e-15)
        assert abs(y) < math.sqrt(n)  # the bound ±√C, never reached


@given(st.floats(0.05, 5.0), st.floats(-1.5, 1.5), st.floats(0.1, 10.0), st.floats(0.1, 10.0))
def test_measured_values_and_slopes_at_zero_are_the_closed_forms(alpha, shift, beta, scale):
    """f(0) = 0, erf(s), 0; f′(0) = α, (2/√π)·α·e^{−s²}, c/√β; the largest |f| never exceeds the bound."""
    dyt, derf, dyisru = (map_properties("dyt", alpha=alpha, samples=2001),
                         map_properties("derf", alpha=alpha, shift=shift, samples=2001),
                         map_properties("dyisru", beta=beta, scale=scale, samples=2001))
    assert dyt.value_at_zero == 0 and dyisru.value_at_zero == 0
    assert derf.value_at_zero == pytest.approx(math.erf(shift), abs=1e-15)
    assert dyt.slope_at_zero == pytest.approx(alpha, rel=1e-6)
    assert derf.slope_at_zero == pytest.approx(2 / math.sqrt(math.pi) * alpha * math.exp(-shift * shift), rel=1e-6)
    assert dyisru.slope_at_zero == pytest.approx(scale / math.sqrt(beta), rel=1e-6)
    for p, name in ((dyt, "dyt"), (derf, "derf"), (dyisru, "dyisru")):
        assert p.largest_far <= map_bound(name, scale) and p.bounded and p.monotonic


def test_the_four_properties_per_map_and_the_settings_that_break_them():
    """At their usual settings all three maps have all four; Derf with s = 2 is neither zero-centred
    nor sensitive near 0 (slope e^{−4} of its peak); the identity is not bounded; tanh(−x) is not monotonic
    increasing nor sensitive in the sense of a positive slope."""
    for name in ELEMENTWISE_MAPS:
        p = map_properties(name)
        assert (p.zero_centred, p.bounded, p.sensitive_near_zero, p.monotonic) == (True, True, True, True)
    shifted = map_properties("derf", shift=2.0)
    assert not shifted.zero_centred and not shifted.sensitive_near_zero and shifted.bounded and shifted.monotonic
    assert shifted.slope_at_zero / shifted.largest_slope == pytest.approx(math.exp(-4), rel=1e-3)
    assert map_properties("derf", shift=0.5).sensitive_near_zero  # e^{−¼} ≈ 0.78 of the peak
    identity = map_properties("identity")
    assert not identity.bounded and identity.zero_centred and identity.monotonic
    flipped = map_properties("dyt", alpha=-1.0)
    assert not flipped.monotonic and not flipped.sensitive_near_zero


def test_an_outlier_shrinks_the_other_channels_under_rmsnorm_only():
    """Setting channel k to M multiplies every other RMSNorm output by √(Σx²/(Σx² − x_k² + M²)); the
    element-wise maps leave every other output exactly unchanged."""
    x = np.random.default_rng(5).normal(size=12)
    effect = outlier_effect(x, 4, 80.0, alpha=0.5, shift=0.1, beta=3.0, scale=2.0)
    total = math.fsum(x * x)
    assert effect.factor("rmsnorm") == pytest.approx(math.sqrt(total / (total - x[4] ** 2 + 6400.0)), rel=1e-12)
    assert [effect.factor(name) for name in ELEMENTWISE_MAPS] == [1.0, 1.0, 1.0]
    assert effect.shrinks_others("rmsnorm") and not any(effect.shrinks_others(name) for name in ELEMENTWISE_MAPS)
    np.testing.assert_allclose(effect.outlier_outputs[:3], [math.tanh(40.0), math.erf(40.1),
                                                            2 * 80 / math.sqrt(3 + 6400)], rtol=1e-14)
    assert effect.outlier_outputs[3] == pytest.approx(80.0 / math.sqrt((total - x[4] ** 2 + 6400.0) / 12), rel=1e-12)


def test_on_the_dynamic_tanh_tokens_maps_make_boxes_and_rmsnorm_a_sphere():
    """The dynamic-tanh tokens: each map stays in its box (|y| ≤ 1, 1, c); RMSNorm puts every token at √n."""
    tokens = dynamic_tanh_fit().inputs
    result = maps_on_tokens(tokens, alpha=0.5, shift=0.2, beta=4.0, scale=8.0)
    assert result.bounds == (1.0, 1.0, 8.0) and all(result.inside_box(name) for name in ELEMENTWISE_MAPS)
    np.testing.assert_allclose(result.rms_lengths, math.sqrt(tokens.shape[1]), rtol=1e-12)
    np.testing.assert_allclose(result.outputs[1], erf(0.5 * tokens + 0.2), rtol=1e-14, atol=1e-15)
    assert np.array_equal(result.inputs, tokens)


def test_bad_input_is_refused():
    with pytest.raises(InvalidParameterError, match="unknown map 'gelu'"):
        elementwise_map("gelu", [1.0])
    with pytest.raises(InvalidParameterError, match="beta"):
        elementwise_map("dyisru", [1.0], beta=0.0)
    with pytest.raises(InvalidParameterError, match="channel"):
        outlier_effect([1.0, 2.0], 2, 5.0)
    with pytest.raises(InvalidParameterError, match="non-zero"):
        outlier_effect([1.0, 0.0, 2.0], 0, 5.0)
    with pytest.raises(ShapeError):
        outlier_effect([[1.0, 2.0], [3.0, 4.0]], 0, 5.0)
    with pytest.raises(InvalidParameterError, match="no bound"):
        map_bound("identity")
