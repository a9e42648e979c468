"""The core's corners, each against a fact that does not share its code: the drawn sets (sphere
rings, squares and circles in a plane) are the sets they claim — closed, simple, every point on
the set; ``minimum=`` of the descent helpers against the closed form w* + (I − ηH)ᵏ(w₀ − w*)
and brute-force iteration; ``radius=`` of LayerNorm's output curve; ``output_radius`` at n = 1;
κ of the conditioning example against its eigenvalues in 40-digit decimals.

Tolerances: the drawn points are built from one cos/sin and a product or two, so each is within
a few ulps of the set: 1e-12 relative (1e-12·r absolute) is rounding, while a wrong formula
(cos for sin, r for r·sin θ, a missing centre) is off by O(r).
"""

import math
from decimal import Decimal, getcontext

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from normgeo import (
    InvalidParameterError,
    circle_in_plane,
    condition_number,
    conditioning_demo,
    contour_levels,
    gradient_descent_path,
    gradient_descent_run,
    hyperplane_basis,
    largest_stable_step,
    layer_norm_output_curve,
    layer_norm_output_radius,
    least_squares_hessian,
    output_radius,
    quadratic_contours,
    quadratic_value,
    scaled_features,
    scaled_outputs,
    sphere_rings,
    square_in_plane,
    standardize_features,
    steps_to_tolerance,
    unit_angles,
)
from normgeo.covariate_shift import TrainingRun

TOL = 1e-12


def segments_cross(p, q, r, s) -> bool:
    """Whether the closed segments pq and rs of a planar polygon properly cross (2-D coordinates)."""
    def orient(a, b, c):
        return np.sign((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]))
    return orient(p, q, r) * orient(p, q, s) < 0 and orient(r, s, p) * orient(r, s, q) < 0


def assert_closed_simple_polygon(points_2d, equal_chords: bool = True):
    """Consecutive points (the last joined to the first) make non-zero chords (equal ones for a
    circle sampled evenly), and no two edges that do not share a corner cross: the polygon closes
    and does not cut itself."""
    count = len(points_2d)
    chords = np.linalg.norm(np.roll(points_2d, -1, axis=0) - points_2d, axis=1)
    if equal_chords:
        np.testing.assert_allclose(chords, chords[0], rtol=1e-9)
    assert chords.min() > 0
    for i in range(count):
        for j in range(i + 2, count):
            if i == 0 and j == count - 1:
                continue
            assert not segments_cross(points_2d[i], points_2d[(i + 1) % count], points_2d[j], points_2d[(j + 1) % count])


# ------------------------------------------------------------------ drawn sets
@pytest.mark.parametrize("radius", [1.0, math.sqrt(3), 0.25, 40.0])
@pytest.mark.parametrize(("latitudes", "longitudes"), [(5, 6), (1, 1), (3, 4)])
def test_sphere_rings_lie_on_the_sphere_as_parallels_and_meridians(radius, latitudes, longitudes):
    samples = 24
    rings = sphere_rings(radius, latitudes, longitudes, samples)
    assert len(rings) == latitudes + longitudes
    for ring in rings:
        assert ring.shape == (samples, 3)
        np.testing.assert_allclose(np.linalg.norm(ring, axis=1), radius, rtol=TOL)
    # Parallels: z = r·cos(kπ/(L + 1)) for k = 1 … L, each a horizontal circle about the z axis.
    for k, ring in enumerate(rings[:latitudes], start=1):
        height = radius * math.cos(k * math.pi / (latitudes + 1))
        np.testing.assert_allclose(ring[:, 2], height, atol=TOL * radius)
        np.testing.assert_allclose(np.hypot(ring[:, 0], ring[:, 1]), radius * math.sin(k * math.pi / (latitudes + 1)),
                                   rtol=1e-9)
        assert_closed_simple_polygon(ring[:, :2])
    # Meridians: great circles through both poles at azimuths jπ/M, j = 0 … M − 1.
    for j, ring in enumerate(rings[latitudes:]):
        azimuth = j * math.pi / longitudes
        np.testing.assert_allclose(math.sin(azimuth) * ring[:, 0] - math.cos(azimuth) * ring[:, 1], 0, atol=TOL * radius)
        along = math.cos(azimuth) * ring[:, 0] + math.sin(azimuth) * ring[:, 1]
        assert_closed_simple_polygon(np.stack([along, ring[:, 2]], axis=1))
        assert np.isclose(ring[:, 2].max(), radius, rtol=1e-9) and np.isclose(ring[:, 2].min(), -radius, rtol=1e-9)


def test_meridians_are_distinct():
    rings = sphere_rings(1.0, 2, 6, 12)[2:]
    normals = [np.cross(ring[1], ring[4]) for ring in rings]
    normals = [n / np.linalg.norm(n) for n in normals]
    for i in range(6):
        for j in range(i + 1, 6):
            assert abs(np.dot(normals[i], normals[j])) < 1 - 1e-6


@pytest.mark.parametrize("n", [3, 4, 7])
@pytest.mark.parametrize("radius", [1.0, 2.5])
def test_a_circle_in_the_zero_mean_plane_is_on_the_sphere_and_the_plane(n, radius):
    """Spanned by two rows of the Helmert basis: every point has length r and mean 0; the
    angles are k·2π/samples (point k at r(cos t·u + sin t·w))."""
    u, w = hyperplane_basis(n)[:2]
    circle = circle_in_plane(u, w, radius, samples=30)
    np.testing.assert_allclose(np.linalg.norm(circle, axis=1), radius, rtol=TOL)
    np.testing.assert_allclose(circle.sum(axis=1), 0, atol=TOL * radius * n)
    t = 2 * math.pi * np.arange(30) / 30
    np.testing.assert_allclose(circle @ u, radius * np.cos(t), atol=TOL * radius)
    np.testing.assert_allclose(circle @ w, radius * np.sin(t), atol=TOL * radius)
    assert_closed_simple_polygon(np.stack([circle @ u, circle @ w], axis=1))
    shifted = circle_in_plane(u, w, radius, samples=30, center=np.arange(n, dtype=float))
    np.testing.assert_allclose(shifted - np.arange(n), circle, atol=TOL * max(radius, n))


def test_unit_angles_are_evenly_spaced_and_stop_short_of_a_full_turn():
    np.testing.assert_allclose(unit_angles(4), [0, math.pi / 2, math.pi, 3 * math.pi / 2], atol=1e-15)
    with pytest.raises(ValueError):
        unit_angles(2)


@pytest.mark.parametrize("half_side", [0.5, 1.0, 3.0])
def test_a_square_in_the_plane_is_a_closed_simple_square_of_side_2a_in_that_plane(half_side):
    u, w = hyperplane_basis(3)
    corners = square_in_plane(u, w, half_side)
    assert corners.shape == (4, 3)
    np.testing.assert_allclose(corners.sum(axis=1), 0, atol=TOL * 3 * half_side)  # in the zero-mean plane
    coordinates = np.stack([corners @ u, corners @ w], axis=1)
    np.testing.assert_allclose(coordinates, half_side * np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]]), atol=TOL)
    sides = np.roll(corners, -1, axis=0) - corners
    np.testing.assert_allclose(np.linalg.norm(sides, axis=1), 2 * half_side, rtol=TOL)
    for k in range(4):
        assert abs(np.dot(sides[k], sides[(k + 1) % 4])) < TOL * half_side**2  # right angles
    assert_closed_simple_polygon(coordinates)


def test_bad_radius_or_half_side_is_refused():
    u, w = hyperplane_basis(3)
    for call in (lambda: square_in_plane(u, w, 0.0), lambda: circle_in_plane(u, w, -1.0), lambda: sphere_rings(0.0)):
        with pytest.raises(ValueError):
            call()


# ------------------------------------------------------------------ output set and radius
@pytest.mark.parametrize("radius", [0.3, 1.0, 2.0, 17.0])
def test_the_output_curve_of_a_given_radius_is_that_circle_in_the_zero_mean_plane(radius):
    curve = layer_norm_output_curve(samples=40, radius=radius)
    np.testing.assert_allclose(np.linalg.norm(curve, axis=1), radius, rtol=TOL)
    np.testing.assert_allclose(curve.sum(axis=1), 0, atol=TOL * radius * 3)
    gamma, beta = np.array([2.0, -0.5, 1.5]), np.array([0.3, 0.1, -1.0])
    affine = layer_norm_output_curve(gamma, beta, samples=40, radius=radius)
    np.testing.assert_allclose(np.linalg.norm((affine - beta) / gamma, axis=1), radius, rtol=1e-12)
    np.testing.assert_allclose(affine.mean(axis=0), beta, atol=1e-12 * radius)


def test_the_output_curve_with_the_radius_for_eps_is_where_layer_norm_lands():
    """With ε = 1, inputs of spread σ = 0.5 land at radius √3·0.5/√1.25 (torch's layer_norm)."""
    radius = float(layer_norm_output_radius(0.5, 3, 1.0))
    assert radius == pytest.approx(math.sqrt(3) * 0.5 / math.sqrt(1.25), rel=1e-15)
    x = torch.tensor([[0.5 * math.sqrt(1.5), 0.0, -0.5 * math.sqrt(1.5)]], dtype=torch.float64)  # mean 0, σ = 0.5
    assert float(x.std(unbiased=False)) == pytest.approx(0.5, rel=1e-15)
    assert float(F.layer_norm(x, (3,), eps=1.0).norm()) == pytest.approx(radius, rel=1e-14)


@pytest.mark.parametrize(("sigma", "n", "eps"), [(1.0, 4, 3.0), (0.1, 768, 1e-5), (1e-200, 3, 1e-5), (1e200, 3, 1e-5),
                                                  (2.0, 2, 0.0), (0.0, 5, 0.1), (3e-3, 896, 1e-6)])
def test_output_radius_against_40_digit_decimals(sigma, n, eps):
    getcontext().prec = 40
    s, e = Decimal(sigma), Decimal(eps)
    expected = Decimal(n).sqrt() * s / (s * s + e).sqrt() if s or e else None
    assert float(layer_norm_output_radius(sigma, n, eps)) == pytest.approx(float(expected), rel=1e-15, abs=1e-300)


def test_output_radius_of_layernorm_for_one_number_is_refused_while_rmsnorm_and_l2_have_one():
    """LayerNorm of a single number is 0 whatever it is: no sphere; RMSNorm's has radius √1 = 1."""
    with pytest.raises(InvalidParameterError, match=r"single number.*n must be ≥ 2"):
        output_radius("layernorm", 1)
    assert output_radius("rmsnorm", 1) == 1.0 and output_radius("l2", 1) == 1.0
    assert output_radius("layernorm", 2) == math.sqrt(2) and output_radius("rmsnorm", 9) == 3.0
    assert output_radius("l2", 10**6) == 1.0
    with pytest.raises(InvalidParameterError, match="no fixed length"):
        output_radius("none", 3)


# ------------------------------------------------------------------ descent helpers with minimum=
H = np.array([[3.0, 1.0], [1.0, 2.0]])
W_STAR = np.array([1.5, -2.0])


def test_gradient_descent_path_about_a_minimum_is_the_closed_form():
    """w_k = w* + (I − ηH)ᵏ(w₀ − w*)."""
    start, step = np.array([-1.0, 4.0]), 0.3
    path = gradient_descent_path(H, start, step, 12, minimum=W_STAR)
    assert path.shape == (13, 2)
    iteration = np.eye(2) - step * H
    for k, point in enumerate(path):
        np.testing.assert_allclose(point, W_STAR + np.linalg.matrix_power(iteration, k) @ (start - W_STAR), atol=1e-12)
    assert np.linalg.norm(path[-1] - W_STAR) < np.linalg.norm(start - W_STAR)


def test_steps_to_tolerance_about_a_minimum_is_the_first_iterate_within_the_tolerance():
    """Brute force: iterate about w* and stop at the first step whose error is within
    tol·‖e₀‖/√d in every eigen-direction; about the origin the same start takes another count."""
    start, step, tol = np.array([-1.0, 4.0]), 0.3, 1e-6
    count = steps_to_tolerance(H, start, step, tol, minimum=W_STAR)
    vectors = np.linalg.eigh(H)[1]
    error = start - W_STAR
    share = tol * np.linalg.norm(error) / math.sqrt(2)
    k = 0
    while np.any(np.abs(vectors.T @ error) > share):
        error = error - step * H @ error
        k += 1
    assert count == k
    assert steps_to_tolerance(H, W_STAR, step, tol, minimum=W_STAR) == 0.0
    assert steps_to_tolerance(H, start, 0.99 * 2 / np.linalg.eigvalsh(H)[-1] * 1.02, tol, minimum=W_STAR) == math.inf


def test_quadratic_value_and_contours_about_a_minimum():
    points = np.array([[0.0, 0.0], [1.5, -2.0], [2.0, 1.0]])
    expected = [0.5 * sum((p - W_STAR)[i] * H[i, j] * (p - W_STAR)[j] for i in range(2) for j in range(2))
                for p in points]
    np.testing.assert_allclose(quadratic_value(H, points, minimum=W_STAR), expected, rtol=1e-15)
    assert quadratic_value(H, W_STAR, minimum=W_STAR) == 0.0
    np.testing.assert_allclose(quadratic_value(H, points), [0.5 * p @ H @ p for p in points], rtol=1e-15)
    for level, curve in zip([0.5, 2.0], quadratic_contours(H, [0.5, 2.0], samples=50, minimum=W_STAR)):
        np.testing.assert_allclose(quadratic_value(H, curve, minimum=W_STAR), level, rtol=1e-12)
        np.testing.assert_allclose(curve.mean(axis=0), W_STAR, atol=1e-12)
        assert_closed_simple_polygon(curve - W_STAR, equal_chords=False)
    # Semi-axes √(2c/λᵢ): the farthest and nearest points of the c = 2 ellipse from w*.
    curve = quadratic_contours(H, [2.0], samples=4000, minimum=W_STAR)[0]
    lam = np.linalg.eigvalsh(H)
    distance = np.linalg.norm(curve - W_STAR, axis=1)
    assert distance.max() == pytest.approx(math.sqrt(4 / lam[0]), rel=1e-6)
    assert distance.min() == pytest.approx(math.sqrt(4 / lam[1]), rel=1e-6)


def test_contour_levels_are_the_start_value_times_powers_of_the_ratio():
    """f(start) = ½·(2, 1)·H·(2, 1) = ½(3·4 + 2·2·1 + 2·1) = 9; levels 9, 2.7, 0.81."""
    np.testing.assert_allclose(contour_levels(H, [2.0, 1.0], count=3, ratio=0.3), [9.0, 2.7, 0.81], rtol=1e-15)


# ------------------------------------------------------------------ conditioning in exact numbers
def _kappa_and_top_eigenvalue(a: Decimal, b: Decimal, d: Decimal) -> tuple[Decimal, Decimal]:
    """Eigenvalues of [[a, b], [b, d]]: (a + d)/2 ± √(((a − d)/2)² + b²), in 40 digits."""
    half_sum, root = (a + d) / 2, (((a - d) / 2) ** 2 + b * b).sqrt()
    top, bottom = half_sum + root, (a * d - b * b) / (half_sum + root)
    return top / bottom, top


def test_kappa_of_the_raw_example_is_its_eigenvalue_ratio_in_decimals():
    """Scales 1 and 10⁴ with correlation 0.9: H = [[1, 9000], [9000, 10⁸]] exactly (the data are
    whitened), κ = 526 315 798.0… . eigvalsh's smallest eigenvalue (≈ 0.19) errs by up to
    ε·‖H‖ ≈ 2e-8, so κ agrees to 1e-6 relative; "within a factor 10" would pass κ = 2·10⁸."""
    getcontext().prec = 40
    kappa, top = _kappa_and_top_eigenvalue(Decimal(1), Decimal(9000), Decimal(10) ** 8)
    h = least_squares_hessian(scaled_features(scales=(1.0, 1e4), correlation=0.9))
    np.testing.assert_allclose(h, [[1.0, 9000.0], [9000.0, 1e8]], rtol=1e-12)
    assert condition_number(h) == pytest.approx(float(kappa), rel=1e-6)
    demo = conditioning_demo()
    assert demo.kappa_raw == pytest.approx(float(kappa), rel=1e-6)
    assert demo.step_limit_raw == pytest.approx(float(2 / top), rel=1e-12)
    assert demo.kappa_standardized == pytest.approx(19.0, rel=1e-9)  # (1 + 0.9)/(1 − 0.9)
    assert largest_stable_step(least_squares_hessian(standardize_features(scaled_features()))) == \
        pytest.approx(2 / 1.9, rel=1e-12)


def test_the_standardized_step_count_is_the_first_iterate_within_tolerance():
    """Brute force on the standardized problem (κ = 19) at 0.9·2/L from (−2.6, 0.5)."""
    demo = conditioning_demo()
    h = demo.drawn_after.hessian
    step, error = demo.drawn_after.step, np.array([-2.6, 0.5])
    vectors = np.linalg.eigh(h)[1]
    share = 1e-6 * np.linalg.norm(error) / math.sqrt(2)
    k = 0
    while np.any(np.abs(vectors.T @ error) > share):
        error = error - step * h @ error
        k += 1
    assert demo.steps_standardized == k
    np.testing.assert_allclose(demo.drawn_after.path[0], [-2.6, 0.5])
    assert demo.drawn_before.kappa == pytest.approx(60.0, rel=1e-12)


# ------------------------------------------------------------------ scaled outputs, smoothed losses
def test_scaled_outputs_scale_the_pre_activations_and_leave_torchs_layer_norm_unchanged():
    result = scaled_outputs(factors=(1.0, 2.0, 0.5, 1e3), d_in=5, d_out=4, seed=3)
    np.testing.assert_array_equal(result.factors, [1.0, 2.0, 0.5, 1e3])
    assert result.pre_activations.shape == (4, 4) and result.outputs.shape == (4, 4)
    for c, pre in zip(result.factors, result.pre_activations):
        np.testing.assert_allclose(pre, c * result.pre_activations[0], rtol=1e-13)
    for pre, out in zip(result.pre_activations, result.outputs):
        theirs = F.layer_norm(torch.tensor(pre, dtype=torch.float64), (4,), eps=0.0).numpy()
        np.testing.assert_allclose(out, theirs, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(out, result.outputs[0], rtol=1e-12, atol=1e-12)
    rng = np.random.default_rng(3)
    x = rng.normal(size=(1, 5))
    w = rng.normal(size=(4, 5)) / math.sqrt(5)
    np.testing.assert_allclose(result.pre_activations[0], (w @ x.T).ravel(), rtol=1e-15)
    assert not np.allclose(scaled_outputs(seed=4).pre_activations, scaled_outputs(seed=3).pre_activations)
    with pytest.raises(ValueError, match="positive"):
        scaled_outputs(factors=(1.0, -2.0))


def test_smoothed_losses_are_trailing_means_by_brute_force():
    losses = np.array([4.0, 2.0, 6.0, 0.0, 8.0, 1.0])
    run = TrainingRun("none", losses, np.zeros(5), np.zeros(5))
    expected = [np.mean(losses[max(0, k + 1 - 3):k + 1]) for k in range(6)]  # 4, 3, 4, 8/3, 14/3, 3
    np.testing.assert_allclose(run.smoothed_losses(window=3), expected, rtol=1e-15)
    np.testing.assert_allclose(run.smoothed_losses(window=1), losses)
    np.testing.assert_allclose(run.smoothed_losses(window=100), np.cumsum(losses) / np.arange(1, 7))
    np.testing.assert_allclose(run.smoothed_losses(), [np.mean(losses[:k + 1]) for k in range(6)])


def test_smoothed_losses_default_to_a_window_of_ten():
    losses = np.arange(1.0, 31.0)  # 1 … 30: the trailing mean of ten ending at k is k − 4.5 from k = 10 on
    run = TrainingRun("none", losses, np.zeros(29), np.zeros(29))
    smoothed = run.smoothed_losses()
    np.testing.assert_allclose(smoothed[9:], losses[9:] - 4.5, rtol=1e-15)
    np.testing.assert_allclose(smoothed[:9], (losses[:9] + 1) / 2, rtol=1e-15)


def test_the_study_summaries_are_means_over_the_stated_windows():
    from normgeo.covariate_shift import CovariateShiftStudy

    run = TrainingRun("none", np.arange(1.0, 41.0), np.array([1.0, 3.0]), np.array([2.0, 6.0]))
    study = CovariateShiftStudy({"none": run})
    assert study.final_loss("none") == pytest.approx(30.5)  # mean of 21 … 40
    assert study.final_loss("none", window=4) == pytest.approx(38.5)
    assert study.mean_loss("none") == pytest.approx(20.5)
    assert study.mean_shift("none") == 2.0 and study.mean_landscape_variation("none") == 4.0


def test_contour_points_start_on_the_first_axis_and_turn_towards_the_second():
    """Point k is at t = 2πk/samples: w* + cos t·a₁v₁ + sin t·a₂v₂ with aᵢ = √(2c/λᵢ)."""
    lam, vec = np.linalg.eigh(H)
    curve = quadratic_contours(H, [2.0], samples=8, minimum=W_STAR)[0]
    np.testing.assert_allclose(curve[0], W_STAR + math.sqrt(4 / lam[0]) * vec[:, 0], atol=1e-12)
    np.testing.assert_allclose(curve[2], W_STAR + math.sqrt(4 / lam[1]) * vec[:, 1], atol=1e-12)
    assert len(quadratic_contours(H, [1.0])[0]) == 120


def test_descent_runs_keep_their_defaults_and_pass_the_tolerance_on():
    run = gradient_descent_run(H, [1.0, 1.0])
    assert run.path.shape == (41, 2) and run.step == pytest.approx(0.9 * 2 / np.linalg.eigvalsh(H)[-1])
    loose = gradient_descent_run(H, [1.0, 1.0], tol=1e-2)
    assert loose.steps_to_tolerance < run.steps_to_tolerance
    assert loose.steps_to_tolerance == steps_to_tolerance(H, [1.0, 1.0], run.step, 1e-2)
    np.testing.assert_allclose(contour_levels(H, [1.0, 0.0]), 1.5 * 0.3 ** np.arange(5), rtol=1e-15)


def test_scaled_features_are_seeded_and_allow_any_positive_definite_correlation():
    np.testing.assert_array_equal(scaled_features(), scaled_features(seed=0))
    np.testing.assert_array_equal(scaled_features(seed=3), scaled_features(seed=3))
    data = scaled_features(correlation=-0.6)  # two features: any ρ in (−1, 1)
    np.testing.assert_allclose(np.corrcoef(data.T)[0, 1], -0.6, rtol=1e-12)


def test_the_demo_passes_its_step_fraction_and_tolerance_to_the_raw_problem():
    base = conditioning_demo()
    assert conditioning_demo(step_fraction=0.5).steps_raw > base.steps_raw
    assert conditioning_demo(tol=1e-3).steps_raw < base.steps_raw
    assert conditioning_demo(correlation=0.5).kappa_standardized == pytest.approx(3.0, rel=1e-9)  # (1 + ρ)/(1 − ρ)
    assert conditioning_demo(scales=(1.0, 10.0)).kappa_raw < 1e3
    np.testing.assert_array_equal(conditioning_demo(seed=0).drawn_after.hessian, base.drawn_after.hessian)
