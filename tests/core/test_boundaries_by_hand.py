"""The core's predicates at their exact boundaries and its helpers at their extremes, each against
numbers worked by hand (chosen to be exact in binary floating point, so "equal to the bound" is
really equal), and its refusals compared word for word (the message is what the user reads).

* ``NormGrowthRun.settled``: the mean of the last quarter of ‖W‖ (quarter = max(1, ⌊steps/4⌋)
  values) against the quarter before, within ``rtol`` of the last, bound included;
* ``norm_trend``: "beyond rtol" is strict, so an end exactly at (1 ± rtol)·start is "flat";
* ``decay_effect``: "barely" when the decayed run's last norm is above (1 − rtol)·plain's last norm;
* ``l2_normalize`` with ε > 0 is x/max(‖x‖, ε) (``F.normalize``) also where ‖x‖² under- or
  overflows (‖x‖ = 5·10⁻²⁰⁰ or √2·10²⁰⁰);
* the conditioning helpers: the largest eigenvalue of a 3×3 (not the middle one), symmetry up to
  rounding relative to H's scale, a relative tolerance met exactly, the refusals' words.
"""

import math
import warnings

import numpy as np
import pytest

from normgeo import (
    InvalidParameterError,
    NormGrowthRun,
    ShapeError,
    ZeroVarianceError,
    ZeroVectorError,
    distance_to_sphere,
    dynamic_tanh,
    gradient_descent_path,
    l2_normalize,
    largest_stable_step,
    layer_norm_gradient_split,
    layer_norm_output_curve,
    mean_and_spread,
    on_zero_mean_hyperplane,
    rms_layer_norm_angle,
    steps_to_tolerance,
)
from normgeo.dynamic_tanh import DynamicTanhFit


def run(norms) -> NormGrowthRun:
    """A made-up run (η = 0.1, λ = 0.5) whose gradient gives back each step what decay takes,
    η²‖∇_t‖² = (1 − (1 − ηλ)²)‖W_t‖², so that it is ``balanced`` and only its norms decide."""
    norms = np.array(norms, float)
    gradients = np.sqrt(1.0 - (1.0 - 0.1 * 0.5) ** 2) * norms[:-1] / 0.1
    return NormGrowthRun(norms, gradients, np.zeros(norms.size - 1), 0.1, 0.5)


def message(error, call) -> str:
    with pytest.raises(error) as info:
        call()
    return str(info.value)


# --- NormGrowthRun.settled: quarter = max(1, ⌊(size − 1)/4⌋) -----------------------------------

def test_settled_with_five_norms_compares_the_last_with_the_one_before():
    """size 5 → quarter 1: last = 2, before = 2 (equal), although norms 1 and 2 are 1."""
    assert run([1, 1, 1, 2, 2]).settled()
    assert run([1, 1, 5, 1, 1]).settled()  # norm 2 (index 2) is outside both quarters


def test_settled_with_seven_norms_uses_quarters_of_one():
    """size 7 → quarter ⌊6/4⌋ = 1: last = 2 and before = 2; quarters of 2 would give 2 against 1."""
    assert run([1, 1, 1, 1, 1, 2, 2]).settled()


def test_settled_with_nine_norms_uses_quarters_of_two():
    """size 9 → quarter 2: last = mean(3, 3) = 3, before = mean(1, 1) = 1: not settled
    (quarters of 1 would compare 3 with 3)."""
    assert not run([1, 1, 1, 1, 1, 1, 1, 3, 3]).settled()


def test_settled_includes_its_bound():
    """|last − before| = |2 − 1| = 1 = rtol·last with rtol = ½: settled (≤), exactly at the bound."""
    assert run([1, 1, 1, 1, 2]).settled(rtol=0.5)
    assert not run([1, 1, 1, 1, 2]).settled(rtol=0.25)


# --- norm_trend: strictly beyond rtol ------------------------------------------------------------

def test_norm_trend_is_flat_exactly_at_its_bounds():
    assert run([1.0, 0.5]).norm_trend(rtol=0.5) == "flat"  # 0.5 = (1 − ½)·1: not below it
    assert run([1.0, 1.5]).norm_trend(rtol=0.5) == "flat"  # 1.5 = (1 + ½)·1: not above it
    assert run([1.0, 0.25]).norm_trend(rtol=0.5) == "falls"
    assert run([1.0, 1.75]).norm_trend(rtol=0.5) == "rises"


# --- decay_effect: the last norms only -----------------------------------------------------------

def test_balanced_compares_what_decay_takes_with_what_the_gradient_adds_over_the_last_quarter():
    """η = 0.1, λ = 0.5: decay takes 1 − 0.95² = 0.0975 of ‖W‖² per step. Nine norms of 2 (quarter
    = 8 // 4 = 2 steps): it takes 0.39 a step, 0.78 in all; gradients adding a·0.39 a step in the
    last two steps are balanced while |0.78 − 0.78·a| ≤ 0.2·0.78·a, i.e. 1/1.2 ≤ a ≤ 1/0.8; the
    steps before the quarter do not count."""
    norms, taken = np.full(9, 2.0), 0.0975 * 4.0

    def added(share: float, earlier: float = taken) -> NormGrowthRun:
        per_step = np.array([earlier] * 6 + [share * taken] * 2)  # η²‖∇_t‖², with η = 0.1
        return NormGrowthRun(norms, np.sqrt(per_step) / 0.1, np.zeros(8), 0.1, 0.5)

    assert added(1.0).balanced() and added(1.0, earlier=0.0).balanced() and added(1.0, earlier=9.0).balanced()
    assert added(1.24).balanced() and not added(1.26).balanced()
    assert added(0.84).balanced() and not added(0.82).balanced()
    assert added(1.1).balanced(rtol=0.1) and not added(1.12).balanced(rtol=0.1)


def test_decay_effect_reads_the_last_norm_of_each_run():
    plain = run([1.0, 1.0, 1.0, 1.0, 1.0])
    # Decayed run ends at 0.5, below 0.9·1 although its previous norm (5) is far above: not "barely"
    # (and, ending below 0.9 of its own start, it shrank).
    assert run([1.0, 1.0, 1.0, 5.0, 0.5]).decay_effect(plain) == "shrinks"
    # Plain SGD's previous norm (0.1) is irrelevant: 0.5 < 0.9·1 still.
    assert run([1.0, 0.5, 0.5, 0.5, 0.5]).decay_effect(run([1.0, 1.0, 1.0, 0.1, 1.0])) == "holds"


def test_decay_effect_is_barely_only_above_its_bound():
    """1 = (1 − ½)·2 exactly: not above, so the decay counts (and the run has settled: "holds")."""
    assert run([1.0, 1.0, 1.0, 1.0, 1.0]).decay_effect(run([1.0, 2.0, 2.0, 2.0, 2.0]), rtol=0.5) == "holds"
    assert run([1.0, 1.0, 1.0, 1.0, 1.01]).decay_effect(run([1.0, 2.0, 2.0, 2.0, 2.0]), rtol=0.5) == "barely"


# --- l2_normalize with ε > 0: x / max(‖x‖, ε) -----------------------------------------------------

def test_l2_normalize_with_eps_below_the_norm_is_the_direction_even_at_extreme_scales():
    assert np.allclose(l2_normalize([3e-200, 4e-200], eps=1e-300), [0.6, 0.8], rtol=1e-15, atol=0)
    assert np.allclose(l2_normalize([1e200, 1e200], eps=1e-12), [math.sqrt(0.5)] * 2, rtol=1e-15, atol=0)
    assert np.allclose(l2_normalize([0.3, 0.4], eps=0.1), [0.6, 0.8], rtol=1e-15, atol=0)


def test_l2_normalize_with_eps_above_the_norm_divides_by_eps():
    """‖(0.1, 0)‖ = 0.1 < ε = 1: x/1 = x (not the unit vector); ε = 2: x/2."""
    assert l2_normalize([0.1, 0.0], eps=1.0).tolist() == [0.1, 0.0]
    assert l2_normalize([0.5, 0.0], eps=2.0).tolist() == [0.25, 0.0]
    assert l2_normalize([0.0, 0.0], eps=1.0).tolist() == [0.0, 0.0]


# --- sets ------------------------------------------------------------------------------------------

def test_distance_to_the_unit_sphere_by_default():
    assert float(distance_to_sphere([0.6, 0.8])) == pytest.approx(0.0, abs=1e-15)
    assert float(distance_to_sphere([0.0, 3.0])) == 2.0


def test_on_zero_mean_hyperplane_tolerance():
    """tol = 0 keeps exactly the plane (≤); the tolerance is relative to ‖v‖ only above ‖v‖ = 1."""
    assert bool(on_zero_mean_hyperplane([1.0, -1.0], tol=0.0))
    # v = (1, 0.1): distance 1.1/√2 = 0.7778, ‖v‖ = 1.005; tol 0.7 → bound 0.7035: off the plane.
    assert not bool(on_zero_mean_hyperplane([1.0, 0.1], tol=0.7))
    assert bool(on_zero_mean_hyperplane([1.0, 0.1], tol=0.78))
    # v = (0.3, 0.4): distance 0.7/√2 = 0.495, ‖v‖ = 0.5 < 1 → bound tol·1 = 0.4: off the plane.
    assert not bool(on_zero_mean_hyperplane([0.3, 0.4], tol=0.4))


# --- the angle between RMSNorm and LayerNorm needs σ > 0 ------------------------------------------

def test_rms_layer_norm_angle_refuses_a_constant_vector_at_eps_zero():
    """A constant x has σ = 0: LN(x) has no value at ε = 0 (the default), which must be said."""
    assert message(ZeroVarianceError, lambda: rms_layer_norm_angle([2.0, 2.0, 2.0])) == (
        "the group is constant (σ = 0); use eps > 0 to normalize it")
    assert message(ZeroVectorError, lambda: rms_layer_norm_angle([0.0, 0.0, 0.0])) == (
        "the group is all zeros (RMS = 0); use eps > 0 to normalize it")


def test_rms_layer_norm_angle_by_hand():
    """x = (1, 2, 3): x̂ ∝ (1, 2, 3), LN(x) ∝ (−1, 0, 1): cos = 2/(√14·√2) = 1/√7, for any ε."""
    expected = math.acos(1 / math.sqrt(7))
    assert float(rms_layer_norm_angle([1.0, 2.0, 3.0])) == pytest.approx(expected, rel=1e-14)
    assert float(rms_layer_norm_angle([1.0, 2.0, 3.0], eps=0.5)) == pytest.approx(expected, rel=1e-14)


# --- conditioning ------------------------------------------------------------------------------------

def test_largest_stable_step_uses_the_largest_of_three_eigenvalues():
    """diag(1, 2, 8): 2/8; rotated by a Householder reflection (same eigenvalues): still 2/8."""
    assert largest_stable_step(np.diag([1.0, 2.0, 8.0])) == 0.25
    v = np.array([1.0, 2.0, 2.0]) / 3.0
    reflection = np.eye(3) - 2 * np.outer(v, v)
    h = reflection @ np.diag([8.0, 1.0, 2.0]) @ reflection
    assert largest_stable_step(h) == pytest.approx(0.25, rel=1e-14)


def test_symmetry_is_judged_up_to_rounding_at_the_matrix_scale():
    """H's asymmetry is allowed up to 1e-10·max|Hᵢⱼ| (absolute, no relative term): 10⁻⁷ at scale 10⁶
    is rounding, 10⁻⁶ at scale 1 is not, nor 10⁻¹¹ at scale 10⁻³ (1e-10·10⁻³ = 10⁻¹³)."""
    big = np.array([[1e6, 1.0], [1.0 + 1e-7, 1e6]])
    assert largest_stable_step(big) == pytest.approx(2.0 / (1e6 + 1.0), rel=1e-12)
    for h in ([[1.0, 1.0 + 1e-6], [1.0, 1.0]], [[1.0, 1.5], [1.0, 1.0]], [[1e-3, 2e-3 + 1e-11], [2e-3, 1e-3]]):
        assert message(ShapeError, lambda h=h: largest_stable_step(h)) == "H must be symmetric"


def test_the_hessian_is_named_h_in_its_refusals():
    assert message(ShapeError, lambda: largest_stable_step([1.0, 2.0])) == (
        "H must have at least 2 dimension(s), got shape (2,)")
    assert message(ShapeError, lambda: largest_stable_step([[[1.0]]])) == "H must be a 2-D matrix, got shape (1, 1, 1)"
    assert message(ShapeError, lambda: largest_stable_step([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])) == (
        "H must be square, got shape (2, 3)")


def test_gradient_descent_refusals_word_for_word():
    assert message(ShapeError, lambda: gradient_descent_path(np.eye(2), [1.0, 2.0, 3.0], 0.1, 2)) == (
        "start must have shape (2,), got (3,)")
    with warnings.catch_warnings():  # numpy's own overflow warning on the way to infinity
        warnings.simplefilter("ignore", RuntimeWarning)
        assert message(InvalidParameterError, lambda: gradient_descent_path([[1.0]], [1.0], 1e300, 3)) == (
            "gradient descent diverged to infinity (step 1e+300 is far above 2/L)")


def test_steps_to_tolerance_is_zero_when_the_start_already_meets_it():
    """tol = 1 asks for ‖e‖ ≤ ‖e₀‖: step 0 meets it, however large (even divergent) the step,
    since the one component equals its share exactly (|e₀|·1/√1)."""
    assert steps_to_tolerance([[1.0]], [3.0], step=5.0, tol=1.0) == 0.0
    assert steps_to_tolerance([[1.0]], [3.0], step=1.0, tol=1.0) == 0.0
    # Four equal components of an identity: each is ‖e₀‖/√4, exactly its share at tol = 1.
    assert steps_to_tolerance(np.eye(4), [1.0, 1.0, 1.0, 1.0], step=3.0, tol=1.0) == 0.0


# --- dynamic tanh, the output curve, the gradient split: refusals and scalars -----------------------

def test_dynamic_tanh_names_itself_in_its_refusals():
    assert message(ShapeError, lambda: dynamic_tanh([1.0, 2.0], 0.5, weight=[1.0, 2.0, 3.0])) == (
        "dynamic_tanh weight must have shape (2,), got (3,)")
    assert message(ShapeError, lambda: dynamic_tanh([1.0, 2.0], 0.5, bias=[1.0])) == (
        "dynamic_tanh bias must have shape (2,), got (1,)")


def test_a_fitted_dyt_curve_takes_a_single_number():
    """γ·tanh(αx) + β at x = ½ with α = 2, γ = 3, β = −1: 3·tanh(1) − 1, a 0-d value."""
    fit = DynamicTanhFit(np.zeros((2, 2)), np.zeros((2, 2)), np.ones(2), np.zeros(2),
                         alpha=2.0, weight=3.0, bias=-1.0, residual=0.0,
                         line_slope=1.0, line_intercept=0.0, line_residual=0.0)
    value = fit.fitted(0.5)
    assert np.ndim(value) == 0
    assert float(value) == pytest.approx(3 * math.tanh(1.0) - 1, rel=1e-15)


def test_output_curve_has_96_points_by_default_and_names_its_parameters():
    """The scenes draw the default curve: 96 points of S ∩ H (radius √3, zero sum)."""
    curve = layer_norm_output_curve()
    assert curve.shape == (96, 3)
    assert np.allclose(np.linalg.norm(curve, axis=1), math.sqrt(3), rtol=1e-14)
    assert message(ShapeError, lambda: layer_norm_output_curve(weight=[1.0, 2.0])) == (
        "weight must have shape (3,), got (2,)")
    assert message(ShapeError, lambda: layer_norm_output_curve(bias=[1.0, 2.0, 3.0, 4.0])) == (
        "bias must have shape (3,), got (4,)")


def test_gradient_split_and_spread_refusals_word_for_word():
    assert message(ShapeError, lambda: layer_norm_gradient_split([1.0, 2.0], [1.0, 2.0, 3.0])) == (
        "x and gradient must be vectors of the same length, got shapes (2,) and (3,)")
    assert message(ZeroVarianceError, lambda: mean_and_spread([2.0, 2.0])) == (
        "x has all entries equal: σ = 0, so μ/σ has no value")


def test_a_constant_vector_with_eps_is_refused_as_constant_not_as_zero():
    """With ε > 0, LN((2, 2, 2)) = 0 exists but has no direction: the message names σ = 0, not a zero x."""
    assert message(ZeroVarianceError, lambda: rms_layer_norm_angle([2.0, 2.0, 2.0], eps=1.0)) == (
        "x is constant (σ = 0): LN(x) = 0 has no direction, so it makes no angle with RMSNorm(x)")
    batch = [[1.0, 2.0, 3.0], [5.0, 5.0, 5.0]]
    with pytest.raises(ZeroVarianceError):
        rms_layer_norm_angle(batch, eps=0.5)


def test_a_start_too_far_from_the_minimum_for_float64_is_refused_as_that_not_as_divergence():
    """1e308 − (−1e308) overflows: the first step would be infinite whatever the step size (0.5 is
    below 2/L = 2 here), so the descent is refused for what it is, before numpy's invalid value."""
    with pytest.raises(InvalidParameterError) as refused:
        gradient_descent_path(np.eye(2), [1e308, 1e308], 0.5, 3, minimum=[-1e308, -1e308])
    assert str(refused.value) == "start and minimum are too far apart: their difference overflows float64"


def test_a_diverging_descent_is_one_clear_error_without_numpys_overflow_warning():
    """Step 3 on H = diag(1, 10) multiplies w₂ by −29 each step: it overflows; the suite turns every
    RuntimeWarning into an error, so numpy's overflow warning would surface before the message."""
    with pytest.raises(InvalidParameterError, match="diverged to infinity"):
        gradient_descent_path([[1.0, 0.0], [0.0, 10.0]], [1.0, 1.0], 3.0, 400)


def test_decay_that_shrinks_the_norm_below_its_start_is_not_said_to_slow_growth():
    """20 → 3.79 is not "slowed growth": a run that has not settled and ends more than rtol below its
    own start shrinks; one that ends above (1 − rtol) of its start still only slows."""
    plain = run([20.0, 20.1, 20.2, 20.3, 20.4])
    assert run([20.0, 12.0, 8.0, 5.0, 3.8]).decay_effect(plain) == "shrinks"
    # 18.2 ≥ 0.9·20 and < 0.9·20.4; 18.9 → 18.2 is not settled
    assert run([20.0, 19.0, 18.5, 18.9, 18.2]).decay_effect(plain) == "slows"
