"""Laws of conditioning (B4, B5): κ before and after standardization, the step limit 2/L."""

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from normgeo import (
    condition_number,
    conditioning_demo,
    gradient_descent_path,
    gradient_descent_run,
    largest_stable_step,
    least_squares_hessian,
    quadratic_contours,
    scaled_features,
    standardize_features,
    steps_to_tolerance,
)


def test_scales_one_and_ten_thousand_give_kappa_of_order_ten_to_the_eight():
    """B4: features with scales 1 and 10⁴ (ρ = 0.9) give H = [[1, 9000], [9000, 10⁸]], whose
    eigenvalues (a + d)/2 ± √(((a − d)/2)² + b²) give κ = 5.26315798…·10⁸ (to 1e-6: eigvalsh's
    small eigenvalue ≈ 0.19 errs by up to ε·‖H‖ ≈ 2e-8)."""
    kappa = condition_number(least_squares_hessian(scaled_features(scales=(1.0, 1e4), correlation=0.9)))
    half_sum, root = (1 + 1e8) / 2, np.hypot((1e8 - 1) / 2, 9000.0)
    top = half_sum + root
    assert kappa == pytest.approx(top / ((1e8 - 9000.0**2) / top), rel=1e-6)
    assert kappa == pytest.approx(526_315_798, rel=1e-6)


def test_standardized_features_have_kappa_in_the_tens():
    """B4: after standardization κ is that of the correlation matrix, (1 + ρ)/(1 − ρ) = 19 for ρ = 0.9."""
    features = standardize_features(scaled_features(scales=(1.0, 1e4), correlation=0.9))
    kappa = condition_number(least_squares_hessian(features))
    assert kappa == pytest.approx(19.0, rel=1e-9)
    assert 10 <= kappa < 100


@given(st.floats(0.0, 0.95), st.floats(1.0, 1e5), st.integers(0, 100))
def test_standardizing_removes_the_dependence_on_scale(rho, scale, seed):
    """κ after standardization depends only on the correlation, not on the feature scales."""
    features = scaled_features(scales=(1.0, scale), correlation=rho, seed=seed)
    kappa = condition_number(least_squares_hessian(standardize_features(features)))
    assert kappa == pytest.approx((1 + rho) / (1 - rho), rel=1e-7)


@given(st.floats(0.1, 100), st.floats(0.1, 100))
def test_step_limit_is_two_over_the_largest_curvature(a, b):
    """2/L with L = λ_max; just below it descent contracts, just above it diverges."""
    h = np.diag([a, b])
    limit = largest_stable_step(h)
    assert limit == pytest.approx(2 / max(a, b))
    start = np.array([1.0, 1.0])
    below = gradient_descent_path(h, start, 0.99 * limit, 200)
    above = gradient_descent_path(h, start, 1.01 * limit, 200)
    assert np.linalg.norm(below[-1]) < np.linalg.norm(start)
    assert np.linalg.norm(above[-1]) > np.linalg.norm(start)


@given(st.floats(1.0, 50.0), st.floats(0.2, 0.95), st.floats(1e-8, 1e-2))
def test_closed_form_step_count_matches_iteration(kappa, fraction, tol):
    """steps_to_tolerance equals the first iteration whose error is within tol in every direction."""
    h = np.diag([1.0, kappa])
    start = np.array([1.0, 1.0])
    step = fraction * largest_stable_step(h)
    count = steps_to_tolerance(h, start, step, tol)
    path = gradient_descent_path(h, start, step, int(count))
    share = tol * np.linalg.norm(start) / np.sqrt(2)
    assert np.all(np.abs(path[-1]) <= share * (1 + 1e-9))
    assert count == 0 or np.any(np.abs(path[-2]) > share)


def test_badly_conditioned_descent_zig_zags_and_takes_far_more_steps():
    """B5: at 0.9·2/L the steep coordinate flips sign each step when κ is large, and the
    step count grows with κ; after standardization the path heads almost straight in."""
    raw = scaled_features(scales=(1.0, 1e4))
    before = gradient_descent_run(least_squares_hessian(raw), [1.0, 1e-4])
    after = gradient_descent_run(least_squares_hessian(standardize_features(raw)), [1.0, -0.3])
    steepest = np.linalg.eigh(before.hessian)[1][:, -1]
    moves_along_steepest = np.diff(before.path, axis=0) @ steepest
    assert np.all(moves_along_steepest[1:] * moves_along_steepest[:-1] < 0)  # zig-zag
    assert before.steps_to_tolerance > 1e6 * after.steps_to_tolerance
    assert after.steps_to_tolerance < 1000


def test_bad_inputs_to_conditioning_raise():
    """A singular Hessian, a non-square one, a constant feature or a step at 2/L raise ValueError."""
    with pytest.raises(ValueError, match="positive definite"):
        condition_number([[1.0, 0.0], [0.0, 0.0]])
    with pytest.raises(ValueError, match="square"):
        condition_number([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    with pytest.raises(ValueError, match="constant"):
        standardize_features([[1.0, 2.0], [1.0, 3.0]])
    with pytest.raises(ValueError, match="below 1"):
        gradient_descent_run(np.eye(2), [1.0, 1.0], step_fraction=1.0)


@given(st.floats(1.0, 100.0), st.floats(0.0, 3.0), st.floats(0.01, 5.0))
@example(1.0000000000000002, 1.0, 1.0)  # found by hypothesis: R·D·Rᵀ is symmetric only up to rounding
def test_contours_are_level_sets(kappa, angle, level):
    """Every contour point w satisfies ½wᵀHw = c."""
    rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    h = rotation @ np.diag([1.0, kappa]) @ rotation.T
    (curve,) = quadratic_contours(h, [level])
    values = 0.5 * np.einsum("ki,ij,kj->k", curve, h, curve)
    assert np.allclose(values, level, rtol=1e-9)


def test_conditioning_demo_computes_the_scene_numbers():
    """Real κ ≈ 10⁸ before, 19 after; exact step counts differ by more than a million; the
    drawn problem has the κ asked for and its path starts where stated."""
    demo = conditioning_demo(drawn_kappa=60.0)
    assert demo.kappa_raw == pytest.approx(526_315_798, rel=1e-6) and demo.kappa_standardized == pytest.approx(19.0)
    assert demo.steps_raw > 1e6 * demo.steps_standardized
    assert demo.drawn_before.kappa == pytest.approx(60.0)
    assert demo.step_limit_raw == pytest.approx(2 / ((1 + 1e8) / 2 + np.hypot((1e8 - 1) / 2, 9000.0)), rel=1e-12)


def test_hessians_must_be_symmetric_up_to_rounding():
    """An H whose transpose differs by more than rounding raises; one off by 1e-17 is accepted."""
    with pytest.raises(ValueError, match="symmetric"):
        quadratic_contours([[1.0, 0.5], [0.0, 1.0]], [1.0])
    (curve,) = quadratic_contours([[1.0, 1e-17], [0.0, 1.0]], [1.0])
    assert np.isfinite(curve).all()


@given(st.floats(-0.95, 0.95), st.floats(1.0, 1e4))
def test_standardized_kappa_is_one_plus_abs_rho_over_one_minus_abs_rho(rho, scale):
    """For two features, the standardized κ is (1 + |ρ|)/(1 − |ρ|), also for ρ < 0 (where
    (1 + ρ)/(1 − ρ) would be below 1, which no condition number is): eigenvalues 1 ± ρ."""
    features = standardize_features(scaled_features(scales=(1.0, scale), correlation=rho))
    kappa = condition_number(least_squares_hessian(features))
    assert kappa == pytest.approx((1 + abs(rho)) / (1 - abs(rho)), rel=1e-7)


def test_the_demo_separates_what_scale_and_correlation_each_cause():
    """Scales 1 and 10⁴: κ = 10⁸ without correlation (the squared ratio of the scales), 5.3·10⁸ with
    ρ = 0.9; standardized, 1 and 19. The step count is relative: tol of the starting error."""
    demo = conditioning_demo()
    assert demo.kappa_raw_uncorrelated == pytest.approx(1e8, rel=1e-7)
    assert demo.kappa_raw == pytest.approx(5.3e8, rel=0.01)
    assert demo.kappa_standardized_uncorrelated == pytest.approx(1.0)
    assert demo.tolerance == 1e-6


@pytest.mark.parametrize("fraction, zigzags", [(0.9, True), (0.6, True), (0.4, False), (0.05, False)])
def test_a_step_above_one_over_l_zig_zags_across_the_valley(fraction, zigzags):
    """overshoots ⇔ η > 1/L, read off the path: the steep coordinate flips sign every step or never."""
    h = np.diag([1.0, 60.0])
    run = gradient_descent_run(h, [-2.6, 0.5], step_fraction=fraction, n_steps=12)
    steep = run.path[:, 1]
    flips = np.sign(steep[1:]) != np.sign(steep[:-1])
    assert run.overshoots is zigzags
    assert flips.all() if zigzags else not flips.any()
