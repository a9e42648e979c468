"""Laws of LayerNorm's output set under ε and the affine step (C1)."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from normgeo import (
    TYPICAL_EPS,
    ZeroVarianceError,
    circle_in_plane,
    euclidean_norm,
    hyperplane_basis,
    layer_norm,
    layer_norm_output_curve,
    layer_norm_output_radius,
    on_sphere,
    on_zero_mean_hyperplane,
    spread_pulled_inside,
)
from tests.core.strategies import close, spread_vectors

# γ entries kept away from 0 (|γᵢ| ≥ 0.1) so that (p − β)/γ is well conditioned; β anything moderate.
gammas = arrays(np.float64, (3,), elements=st.floats(0.1, 5.0) | st.floats(-5.0, -0.1))
betas = arrays(np.float64, (3,), elements=st.floats(-5.0, 5.0))


@given(spread_vectors(), st.sampled_from([0.0, 1e-5, 1e-2, 1.0, 100.0]))
def test_radius_formula_is_the_length_layer_norm_produces(x, eps):
    """‖LN(x)‖₂ = √n·σ/√(σ² + ε), σ the biased spread computed with fsum."""
    n = x.shape[-1]
    rows = x.reshape(-1, n)
    sigmas = np.array([math.sqrt(math.fsum((r - math.fsum(r) / n) ** 2) / n) for r in rows])
    lengths = euclidean_norm(layer_norm(x, eps=eps)).reshape(-1)
    assert np.allclose(lengths, layer_norm_output_radius(sigmas, n, eps), rtol=1e-9, atol=0)


@given(arrays(np.float64, st.integers(1, 5), elements=st.floats(1e-6, 1e6)), st.integers(2, 1000),
       st.floats(1e-8, 10.0))
def test_radius_is_below_root_n_with_eps_and_equal_without(sigma, n, eps):
    """ε > 0: radius < √n (in floating point, strictly while ε/σ² is above rounding, ≳ 1e-12), and it
    grows with σ toward √n; ε = 0: radius = √n."""
    radius = layer_norm_output_radius(sigma, n, eps)
    assert np.all(radius <= math.sqrt(n))
    visible = eps / sigma**2 > 1e-12
    assert np.all(radius[visible] < math.sqrt(n))
    order = np.argsort(sigma)
    assert np.all(np.diff(radius[order]) >= 0)
    assert np.allclose(layer_norm_output_radius(sigma, n, 0.0), math.sqrt(n), rtol=1e-15)


def test_radius_edge_cases():
    """σ = 0: radius 0 when ε > 0, undefined (raises) when ε = 0; huge σ does not overflow."""
    assert layer_norm_output_radius(0.0, 4, 1e-5) == 0.0
    with pytest.raises(ZeroVarianceError):
        layer_norm_output_radius([1.0, 0.0], 4, 0.0)
    assert layer_norm_output_radius(1e200, 4, 1.0) == pytest.approx(2.0)
    with pytest.raises(ValueError):
        layer_norm_output_radius(-1.0, 4, 0.0)


def test_without_affine_the_curve_is_the_circle_sphere_meets_plane():
    """γ = 1, β = 0: every point has length √3 and mean 0 (it is S ∩ H)."""
    curve = layer_norm_output_curve()
    assert on_sphere(curve, math.sqrt(3)).all() and on_zero_mean_hyperplane(curve).all()


@given(gammas, betas, st.integers(4, 200))
def test_undoing_the_affine_step_lands_every_point_on_the_circle(gamma, beta, samples):
    """(p − β)/γ lies on S ∩ H for every point p of the curve, and the samples' centroid is β."""
    curve = layer_norm_output_curve(gamma, beta, samples=samples)
    undone = (curve - beta) / gamma
    assert on_sphere(undone, math.sqrt(3)).all() and on_zero_mean_hyperplane(undone).all()
    assert close(curve.mean(axis=0), beta, scale=10.0)


@given(gammas, betas, st.integers(4, 50))
def test_the_curve_is_what_layer_norm_with_gamma_and_beta_outputs(gamma, beta, samples):
    """Point k of the curve is LN with γ, β (ε = 0) of point k of the circle √3(cos t·u + sin t·w)
    drawn by circle_in_plane on hyperplane_basis(3): each circle point is its own LayerNorm, so the
    scene can morph the circle into the curve point by point."""
    u, w = hyperplane_basis(3)
    circle = circle_in_plane(u, w, math.sqrt(3), samples)
    assert close(layer_norm(circle, eps=0.0), circle, scale=2.0)
    assert close(layer_norm(circle, eps=0.0, weight=gamma, bias=beta),
                 layer_norm_output_curve(gamma, beta, samples=samples), scale=10.0)


@given(st.floats(0.1, 5.0), betas.filter(lambda b: abs(b.sum()) > 1e-3))
def test_a_shift_with_nonzero_sum_moves_the_curve_off_the_hyperplane(g, beta):
    """γ = g·1: every point sums to Σβᵢ, so the curve lies in a plane parallel to H at |Σβᵢ|/√3."""
    curve = layer_norm_output_curve(np.full(3, g), beta)
    assert close(curve.sum(axis=1), beta.sum(), scale=10.0)
    assert not on_zero_mean_hyperplane(curve).any()


def test_unequal_gamma_tilts_the_curve_out_of_the_hyperplane_even_without_shift():
    """β = 0 but γ = (1, 2, 3): the points' sums ⟨γ, c⟩ vary round the curve, so it leaves H."""
    curve = layer_norm_output_curve([1.0, 2.0, 3.0], [0.0, 0.0, 0.0])
    assert np.ptp(curve.sum(axis=1)) > 1.0


@given(st.floats(1e-8, 10.0), st.floats(0.01, 0.5))
def test_spread_pulled_inside_is_where_layer_norm_loses_that_share(eps, shortfall):
    """At σ = spread_pulled_inside(ε, s) a real LayerNorm output (ε > 0) is (1 − s)·√n long; a
    smaller σ loses more, a larger one less. Checked on vectors built with that σ, not the formula."""
    sigma = spread_pulled_inside(eps, shortfall)
    direction = np.array([1.0, -2.0, 1.0]) / math.sqrt(2.0)  # zero mean, biased σ = 1
    for factor, compare in ((1.0, 0), (0.5, -1), (2.0, 1)):
        length = float(euclidean_norm(layer_norm(3.0 + factor * sigma * direction, eps=eps)))
        expected = (1 - shortfall) * math.sqrt(3)
        if compare == 0:
            assert math.isclose(length, expected, rel_tol=1e-6)
        else:
            assert (length - expected) * compare > 0


def test_a_typical_epsilon_moves_only_spreads_below_about_a_hundredth():
    """PyTorch's default ε = 10⁻⁵: only σ ≲ 10⁻² loses more than 5 % of √n (the scene's ε is exaggerated)."""
    assert TYPICAL_EPS == 1e-5
    assert 0.009 < spread_pulled_inside(TYPICAL_EPS, 0.05) < 0.0101
    with pytest.raises(Exception, match="shortfall"):
        spread_pulled_inside(1e-5, 1.5)
