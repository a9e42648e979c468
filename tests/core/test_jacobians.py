"""Laws of the LayerNorm and RMSNorm Jacobians (C3): J[i, j] = ∂yᵢ/∂xⱼ, checked by central differences."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from normgeo import ZeroVarianceError, ZeroVectorError, layer_norm, layer_norm_jacobian, rms_norm, rms_norm_jacobian
from tests.core.strategies import FD_STEP, FD_TOLERANCE, moderate_vectors

EPSILONS = st.sampled_from([0.0, 1e-5, 1e-2, 1.0])


def central_differences(fn, x):
    """J[..., i, j] ≈ (fn(x + h·eⱼ) − fn(x − h·eⱼ))ᵢ/(2h), one column j at a time."""
    n = x.shape[-1]
    columns = []
    for j in range(n):
        step = np.zeros(n)
        step[j] = FD_STEP
        columns.append((fn(x + step) - fn(x - step)) / (2 * FD_STEP))
    return np.stack(columns, axis=-1)


@given(moderate_vectors(), EPSILONS)
def test_layer_norm_jacobian_matches_finite_differences(x, eps):
    """∂LN(x)ᵢ/∂xⱼ equals central differences of layer_norm, for ε = 0 and ε > 0."""
    numeric = central_differences(lambda v: layer_norm(v, eps=eps), x)
    assert np.allclose(layer_norm_jacobian(x, eps=eps), numeric, rtol=0, atol=FD_TOLERANCE)


@given(moderate_vectors(), EPSILONS)
def test_rms_norm_jacobian_matches_finite_differences(x, eps):
    """∂RMSNorm(x)ᵢ/∂xⱼ equals central differences of rms_norm, for ε = 0 and ε > 0."""
    numeric = central_differences(lambda v: rms_norm(v, eps=eps), x)
    assert np.allclose(rms_norm_jacobian(x, eps=eps), numeric, rtol=0, atol=FD_TOLERANCE)


@given(moderate_vectors())
def test_layer_norm_jacobian_at_eps_zero_is_the_projector_formula(x):
    """ε = 0: J = (1/σ)(I − 11ᵀ/n − x̂x̂ᵀ/n), with σ and x̂ computed by hand; J is symmetric."""
    n = x.shape[-1]
    jacobian = layer_norm_jacobian(x)
    for index in np.ndindex(*x.shape[:-1]):
        row = x[index]
        mu = math.fsum(row) / n
        sigma = math.sqrt(math.fsum((row - mu) ** 2) / n)
        hat = (row - mu) / sigma
        expected = (np.eye(n) - np.ones((n, n)) / n - np.outer(hat, hat) / n) / sigma
        assert np.allclose(jacobian[index], expected, rtol=1e-9, atol=1e-12)
    assert np.allclose(jacobian, np.swapaxes(jacobian, -1, -2), rtol=0, atol=1e-12)


@given(moderate_vectors(), st.integers(0, 10_000))
def test_layer_norm_backward_is_orthogonal_to_ones_and_to_the_output(x, seed):
    """ε = 0: J·1 = 0 and J·x̂ = 0, so a backward pass Jᵀg is orthogonal to 1 and to x̂; its part
    that survives is g projected off both, scaled by 1/σ."""
    n = x.shape[-1]
    jacobian, hat = layer_norm_jacobian(x), layer_norm(x, eps=0.0)
    g = np.random.default_rng(seed).normal(size=x.shape)
    back = np.einsum("...ji,...j->...i", jacobian, g)  # Jᵀg
    scale = n * np.abs(g).max() / x.std(axis=-1).min()  # |J| ≤ 2/σ entrywise, |x̂ᵢ| ≤ √n
    assert np.allclose(np.einsum("...ij,j->...i", jacobian, np.ones(n)), 0.0, atol=1e-12 * scale)
    assert np.allclose(np.einsum("...ij,...j->...i", jacobian, hat), 0.0, atol=1e-12 * scale)
    assert np.allclose(back.sum(axis=-1), 0.0, atol=1e-12 * scale)
    assert np.allclose(np.sum(back * hat, axis=-1), 0.0, atol=1e-12 * scale)
    sigma = x.std(axis=-1, keepdims=True)
    off_both = g - g.mean(axis=-1, keepdims=True) - hat * np.sum(g * hat, axis=-1, keepdims=True) / n
    assert np.allclose(back, off_both / sigma, rtol=1e-9, atol=1e-9 * scale)


@given(moderate_vectors())
def test_rms_norm_jacobian_at_eps_zero_kills_x_and_is_the_projector_formula(x):
    """ε = 0: J = (1/rms)(I − x̂x̂ᵀ/n) with x̂ = x/rms, and J·x = 0 (scaling x does not move RMSNorm(x))."""
    n = x.shape[-1]
    jacobian = rms_norm_jacobian(x)
    rms = np.sqrt(np.mean(x * x, axis=-1))
    hat = x / rms[..., None]
    expected = (np.eye(n) - hat[..., :, None] * hat[..., None, :] / n) / rms[..., None, None]
    assert np.allclose(jacobian, expected, rtol=1e-9, atol=1e-12)
    assert np.allclose(np.einsum("...ij,...j->...i", jacobian, x), 0.0, atol=1e-12 * np.abs(x).max() * n / rms.min())


@given(moderate_vectors(), st.sampled_from([1e-2, 1.0]))
def test_with_eps_layer_norm_jacobian_no_longer_kills_the_output(x, eps):
    """ε > 0: J·1 = 0 still, but J·y = (1/s)(1 − ‖y‖²/n)·y ≠ 0 (‖y‖² < n), s = √(σ² + ε)."""
    n = x.shape[-1]
    jacobian, y = layer_norm_jacobian(x, eps=eps), layer_norm(x, eps=eps)
    s = np.sqrt(x.var(axis=-1) + eps)
    expected = y * ((1 - np.sum(y * y, axis=-1) / n) / s)[..., None]
    assert np.allclose(np.einsum("...ij,...j->...i", jacobian, y), expected, rtol=1e-9, atol=1e-12)
    assert np.all(np.abs(expected).max(axis=-1) > 0)


def test_degenerate_inputs_raise_like_the_layers():
    """ε = 0: a constant vector raises ZeroVarianceError, a zero vector ZeroVectorError; ε > 0 is fine."""
    with pytest.raises(ZeroVarianceError):
        layer_norm_jacobian([2.0, 2.0, 2.0])
    with pytest.raises(ZeroVectorError):
        rms_norm_jacobian([0.0, 0.0])
    assert np.allclose(layer_norm_jacobian([2.0, 2.0], eps=1e-5), (np.eye(2) - 0.5) / np.sqrt(1e-5))


def decimal_jacobian(x, eps, centre: bool) -> np.ndarray:
    """The closed form J = (I − [centre]·11ᵀ/n − yyᵀ/n)/s, s = √(σ² + ε) (or √(mean x² + ε)),
    y = (x − [centre]·μ)/s, worked in 40-digit decimals: their exponent range has no overflow
    at 1e±200, so this reference shares nothing with the core's rescaling."""
    import decimal

    context = decimal.Context(prec=40, Emax=10**6, Emin=-(10**6))
    values = [context.create_decimal_from_float(float(v)) for v in x]
    n = len(values)
    mean = context.divide(sum(values, decimal.Decimal(0)), n) if centre else decimal.Decimal(0)
    centred = [context.subtract(v, mean) for v in values]
    power = context.divide(sum((context.multiply(c, c) for c in centred), decimal.Decimal(0)), n)
    s = context.sqrt(context.add(power, context.create_decimal_from_float(eps)))
    y = [context.divide(c, s) for c in centred]
    rows = []
    for i in range(n):
        row = []
        for j in range(n):
            entry = (decimal.Decimal(int(i == j)) - (decimal.Decimal(1) / n if centre else 0)) - context.divide(context.multiply(y[i], y[j]), n)
            row.append(float(context.divide(entry, s)))
        rows.append(row)
    return np.array(rows)


@pytest.mark.parametrize("scale", [1e200, 1e-200, 3e-300, 1e150])
@pytest.mark.parametrize("base", [(1.0, -2.0, 4.5, 0.25), (3.0, 4.0, -1.0), (1.0, 1.0, 1.0, 1.0, -7.0)])
def test_jacobians_at_1e_plus_minus_200_are_the_closed_form_in_decimals(base, scale):
    """At 1e±200 squaring the entries overflows or underflows float64; J must still be the closed
    form (entries of size 1/|x| ≈ 1e∓200), not 0, inf or NaN. Checked against 40-digit decimals."""
    x = np.array(base) * scale
    for function, centre in ((layer_norm_jacobian, True), (rms_norm_jacobian, False)):
        got = function(x)
        expected = decimal_jacobian(x, 0.0, centre)
        assert np.isfinite(got).all(), (function.__name__, scale, got)
        biggest = np.abs(expected).max()
        assert np.abs(got - expected).max() <= 1e-12 * biggest, (function.__name__, scale, got, expected)


@pytest.mark.parametrize("scale", [1e200, 1e-200])
def test_jacobians_at_1e_plus_minus_200_with_eps_are_the_closed_form_in_decimals(scale):
    """With ε > 0: at 1e200 ε is negligible (J ≈ the ε = 0 form), at 1e-200 it dominates (J ≈ I/√ε
    minus the centring): both from the decimal closed form."""
    x = np.array([1.0, -2.0, 4.5, 0.25]) * scale
    for function, centre in ((layer_norm_jacobian, True), (rms_norm_jacobian, False)):
        got = function(x, eps=1e-5)
        expected = decimal_jacobian(x, 1e-5, centre)
        assert np.abs(got - expected).max() <= 1e-12 * np.abs(expected).max(), (function.__name__, scale, got, expected)


@pytest.mark.parametrize("jacobian", [layer_norm_jacobian, rms_norm_jacobian])
def test_a_negative_eps_is_refused_by_name(jacobian):
    with pytest.raises(ValueError, match=r"\beps\b"):
        jacobian([1.0, 2.0, 4.0], eps=-1.0)
