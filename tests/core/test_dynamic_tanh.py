"""Laws of dynamic tanh, DyT(x) = γ·tanh(αx) + β (Zhu et al. 2025), and of the S-curve it fits (C5)."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from normgeo import ShapeError, dynamic_tanh, dynamic_tanh_fit, layer_norm
from tests.core.strategies import vectors

alphas = st.floats(-10.0, 10.0)
positive_alphas = st.floats(1e-3, 10.0)


def parameters(n, low=-5.0, high=5.0):
    return arrays(np.float64, (n,), elements=st.floats(low, high))


@given(vectors(), alphas, st.data())
def test_matches_the_formula_entry_by_entry(x, alpha, data):
    """y[..., i] = γᵢ·tanh(α·x[..., i]) + βᵢ, written with math.tanh per entry (γ, β along the last axis)."""
    n = x.shape[-1]
    gamma, beta = data.draw(parameters(n)), data.draw(parameters(n))
    y = dynamic_tanh(x, alpha, gamma, beta)
    for index in np.ndindex(*x.shape):
        i = index[-1]
        assert math.isclose(y[index], gamma[i] * math.tanh(alpha * x[index]) + beta[i], rel_tol=1e-12, abs_tol=1e-12)


@given(vectors(), alphas, st.data())
def test_odd_when_there_is_no_bias(x, alpha, data):
    """β = 0: DyT(−x) = −DyT(x)."""
    gamma = data.draw(parameters(x.shape[-1]))
    assert np.array_equal(dynamic_tanh(-x, alpha, gamma), -dynamic_tanh(x, alpha, gamma))


@given(vectors(), alphas, st.data())
def test_outputs_stay_in_a_box(x, alpha, data):
    """|DyT(x)ᵢ − βᵢ| ≤ |γᵢ|, so |DyT(x)ᵢ| ≤ |γᵢ| + |βᵢ|: a box, however large x is (no sphere).
    Checked up to two roundings of the sum γᵢ·tanh + βᵢ (a few ulps of |γᵢ| + |βᵢ|)."""
    n = x.shape[-1]
    gamma, beta = data.draw(parameters(n)), data.draw(parameters(n))
    y = dynamic_tanh(x, alpha, gamma, beta)
    bound = np.abs(gamma) + np.abs(beta)
    rounding = 4 * np.spacing(bound)
    assert np.all(np.abs(y - beta) <= np.abs(gamma) + rounding)
    assert np.all(np.abs(y) <= bound + rounding)


@given(positive_alphas, parameters(3, 0.01, 5.0), parameters(3))
def test_increasing_for_positive_alpha_and_gamma_with_slope_alpha_gamma_at_zero(alpha, gamma, beta):
    """α, γᵢ > 0: non-decreasing along a sorted grid (strictly where tanh has not saturated in
    float64), and the central difference at 0 is α·γᵢ."""
    grid = np.linspace(-20.0, 20.0, 401)[:, None] * np.ones(3)
    y = dynamic_tanh(grid, alpha, gamma, beta)
    assert np.all(np.diff(y, axis=0) >= 0)
    h = 1e-6
    up, down = dynamic_tanh(np.full(3, h), alpha, gamma, beta), dynamic_tanh(np.full(3, -h), alpha, gamma, beta)
    slope = (up - down) / (2 * h)
    assert np.allclose(slope, alpha * gamma, rtol=1e-6, atol=1e-9)


def test_alpha_must_be_one_number():
    """α is a single scalar shared by every entry."""
    with pytest.raises(ValueError, match="one number"):
        dynamic_tanh([1.0, 2.0], [1.0, 2.0])


@pytest.fixture
def fit():
    """Built for each test (not once per module): mutation testing links a function to the tests
    that call it, and a module fixture would be linked to the first test alone."""
    return dynamic_tanh_fit()


def test_each_token_lies_on_its_own_straight_line(fit):
    """Token t's points (x, LN(x)) satisfy y = x/σ_t − μ_t/σ_t, with μ_t, σ_t computed by fsum, and
    the stored slopes and intercepts are those numbers."""
    channels = fit.inputs.shape[1]
    assert np.array_equal(fit.outputs, layer_norm(fit.inputs, eps=0.0))
    for t, row in enumerate(fit.inputs):
        mu = math.fsum(row) / channels
        sigma = math.sqrt(math.fsum((row - mu) ** 2) / channels)
        assert math.isclose(fit.slopes[t], 1 / sigma, rel_tol=1e-12)
        assert math.isclose(fit.intercepts[t], -mu / sigma, rel_tol=1e-9, abs_tol=1e-12)
        assert np.allclose(fit.outputs[t], fit.slopes[t] * row + fit.intercepts[t], rtol=0, atol=1e-12)


def test_tokens_have_different_slopes_so_no_single_line_fits(fit):
    """The slopes 1/σ_t differ by a factor of more than 5 across tokens; the fitted tanh's RMS
    residual is well below the best single straight line's, on the same union of points."""
    assert fit.slopes.max() > 5 * fit.slopes.min()
    assert fit.residual < 0.7 * fit.line_residual
    xs, ys = fit.inputs.ravel(), fit.outputs.ravel()
    assert math.isclose(fit.residual, float(np.sqrt(np.mean((fit.fitted(xs) - ys) ** 2))), rel_tol=1e-9)
    line = np.polyfit(xs, ys, 1)
    assert math.isclose(fit.line_residual, float(np.sqrt(np.mean((np.polyval(line, xs) - ys) ** 2))), rel_tol=1e-9)


def test_the_fit_is_a_least_squares_optimum(fit):
    """No nearby α, γ or β does better: nudging each by ±1% raises the residual, and γ, β are the
    closed-form linear fit at the fitted α (as numpy's polyfit finds)."""
    xs, ys = fit.inputs.ravel(), fit.outputs.ravel()
    rms = lambda a, g, b: float(np.sqrt(np.mean((g * np.tanh(a * xs) + b - ys) ** 2)))  # noqa: E731
    best = rms(fit.alpha, fit.weight, fit.bias)
    for factor in (0.99, 1.01):
        assert rms(fit.alpha * factor, fit.weight, fit.bias) > best
        assert rms(fit.alpha, fit.weight * factor, fit.bias) > best
    assert rms(fit.alpha, fit.weight, fit.bias + 0.01) > best and rms(fit.alpha, fit.weight, fit.bias - 0.01) > best
    assert np.allclose(np.polyfit(np.tanh(fit.alpha * xs), ys, 1), [fit.weight, fit.bias], rtol=1e-9, atol=1e-12)
    assert fit.alpha > 0 and fit.weight > 0


def test_the_simulation_is_deterministic_for_a_seed(fit):
    """Same seed, same fit; another seed, other inputs."""
    again, other = dynamic_tanh_fit(), dynamic_tanh_fit(seed=1)
    assert np.array_equal(fit.inputs, again.inputs) and fit.alpha == again.alpha
    assert not np.array_equal(fit.inputs, other.inputs)


def test_the_fitted_alpha_is_the_best_on_a_fine_grid_and_the_line_is_numpys(fit):
    """Brute force: on 4001 log-spaced α over the searched range [10⁻³, 10], none gives a
    smaller RMS residual (with its own best γ, β by polyfit) than the fitted α, beyond rounding;
    the straight line is numpy's least-squares line."""
    xs, ys = fit.inputs.ravel(), fit.outputs.ravel()

    def best_rms(alpha):
        features = np.tanh(alpha * xs)
        g, b = np.polyfit(features, ys, 1)
        return float(np.sqrt(np.mean((g * features + b - ys) ** 2)))

    grid = np.geomspace(1e-3, 10.0, 4001)
    assert fit.residual <= min(best_rms(a) for a in grid) + 1e-12
    assert 1e-3 <= fit.alpha <= 10.0
    slope, intercept = np.polyfit(xs, ys, 1)
    assert math.isclose(fit.line_slope, slope, rel_tol=1e-9) and math.isclose(fit.line_intercept, intercept,
                                                                               rel_tol=1e-9, abs_tol=1e-12)
    assert np.allclose(fit.fitted(xs), fit.weight * np.tanh(fit.alpha * xs) + fit.bias, rtol=1e-15)


def test_the_simulation_is_the_one_its_docstring_describes():
    """Token means m_t ~ N(0, 0.3²), channels N(m_t, 1); ``massive_channels`` distinct channels
    get ±M_t·U(0.5, 1) with M_t geometric from 1 to ``largest_massive``: rebuilt here from the
    seeded generator in the documented order of draws."""
    tokens, channels, massive, largest, seed = 7, 10, 3, 40.0, 5
    fit = dynamic_tanh_fit(tokens, channels, massive, largest, seed)
    rng = np.random.default_rng(seed)
    means = rng.normal(0.0, 0.3, size=(tokens, 1))
    expected = rng.normal(means, 1.0, size=(tokens, channels))
    which = rng.choice(channels, size=massive, replace=False)
    assert len(set(which)) == massive
    sizes = np.array([largest ** (t / (tokens - 1)) for t in range(tokens)])[:, None]
    signs = rng.choice([-1.0, 1.0], size=(tokens, massive))
    expected[:, which] += sizes * signs * rng.uniform(0.5, 1.0, size=(tokens, massive))
    np.testing.assert_allclose(fit.inputs, expected, rtol=1e-12)
    assert fit.inputs.shape == (tokens, channels)
    plain = dynamic_tanh_fit(tokens, channels, 0, largest, seed)
    rng = np.random.default_rng(seed)
    np.testing.assert_allclose(plain.inputs, rng.normal(rng.normal(0.0, 0.3, size=(tokens, 1)), 1.0,
                                                        size=(tokens, channels)), rtol=1e-12)
    # A largest size below 1 is raised to 1: every massive entry is then within ±1 of plain noise.
    small = dynamic_tanh_fit(tokens, channels, massive, 0.5, seed)
    rng = np.random.default_rng(seed)
    base = rng.normal(rng.normal(0.0, 0.3, size=(tokens, 1)), 1.0, size=(tokens, channels))
    assert np.all(np.abs(small.inputs - base) <= 1.0 + 1e-12)
    assert np.any(np.abs(small.inputs - base) >= 0.5)


def test_the_fit_defaults_are_those_documented_and_too_many_massive_channels_are_refused():
    """12 tokens of 64 channels, 2 massive ones up to 60, seed 0; as many massive channels as
    channels (none left ordinary) is refused, naming both counts."""
    default, spelled = dynamic_tanh_fit(), dynamic_tanh_fit(tokens=12, channels=64, massive_channels=2,
                                                            largest_massive=60.0, seed=0)
    assert default.inputs.shape == (12, 64) and np.array_equal(default.inputs, spelled.inputs)
    assert default.alpha == spelled.alpha
    with pytest.raises(ShapeError, match=r"^massive_channels \(8\) must be fewer than channels \(8\)$"):
        dynamic_tanh_fit(channels=8, massive_channels=8)
