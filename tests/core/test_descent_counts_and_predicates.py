"""Exact step counts of gradient descent against a brute-force run, κ of a 3 × 3 Hessian, the
refusals of the conditioning helpers, and the predicates the scenes choose sentences by, at their
boundaries (written out by hand: a tolerance is strict, a batch of two says "signs").

Brute force: on a diagonal H the eigen-directions are the coordinates, so plain gradient descent
w ← w − ηH(w − w*) is run step by step until every coordinate of the error is within its share
tol·‖e₀‖/√d; no eigendecomposition is shared with the code under test.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from normgeo import (
    InvalidParameterError,
    ShapeError,
    ZeroVarianceError,
    condition_number,
    conditioning_demo,
    count_nearest,
    degrees_of_freedom,
    norm_growth_run,
    sphere_rings,
    spread_pulled_inside,
    standardize_features,
    steps_to_tolerance,
)
from normgeo.batch_dependence import BatchMeanSpread, TwoBatches
from normgeo.scale_invariance import NormGrowthRun
from normgeo.statistic_groups import GroupStatistics


def brute_force_steps(diagonal, start, step, tol, minimum=None, cap=100_000):
    h = np.diag(diagonal)
    target = np.zeros(len(start)) if minimum is None else np.asarray(minimum, dtype=float)
    w = np.asarray(start, dtype=float)
    share = tol * math.sqrt(math.fsum((w - target) ** 2)) / math.sqrt(len(start))
    for t in range(cap):
        if np.all(np.abs(w - target) <= share):
            return t
        w = w - step * h @ (w - target)
    raise AssertionError("did not converge")


@pytest.mark.parametrize(("diagonal", "start", "step", "tol", "minimum"), [
    ([1.0, 10.0], [1.0, 1.0], 0.1, 1e-6, None),            # the default tolerance, κ = 10
    ([1.0, 10.0], [0.3, -2.0], 0.15, 1e-3, [1.0, -1.0]),    # a minimum off the origin
    ([2.0, 5.0, 9.0], [1.0, 1.0, 1.0], 0.2, 1e-4, None),    # three directions
    ([0.5, 4.0], [1e-9, 1.0], 0.2, 1e-2, None),             # the slow direction starts within its share
    ([3.0, 0.25], [1.0, 1.0], 1 / 3, 1e-5, None),           # η = 1/λ₁: that direction is done in one step
])
def test_steps_to_tolerance_is_the_brute_force_count(diagonal, start, step, tol, minimum):
    found = steps_to_tolerance(np.diag(diagonal), start, step, tol=tol, minimum=minimum)
    assert found == brute_force_steps(diagonal, start, step, tol, minimum)


def test_steps_to_tolerance_uses_one_millionth_by_default():
    assert steps_to_tolerance(np.diag([1.0, 10.0]), [1.0, 1.0], 0.1) == brute_force_steps([1.0, 10.0], [1.0, 1.0], 0.1,
                                                                                            1e-6)


def test_one_step_suffices_when_eta_is_one_over_every_eigenvalue():
    """H = 2I, η = 1/2: the first step lands on w* exactly (factor 1 − ηλ = 0)."""
    assert steps_to_tolerance(2 * np.eye(2), [1.0, -3.0], 0.5) == 1.0
    assert steps_to_tolerance(2 * np.eye(2), [1.0, 0.0], 0.5, minimum=[1.0, 0.0]) == 0.0  # already there
    assert steps_to_tolerance(np.eye(2), [1.0, 0.0], 0.5) > 0  # a unit-length error is not zero error


def test_a_step_of_two_over_l_never_converges():
    """η = 2/λ_max: that direction flips sign forever (|1 − ηλ| = 1), so the count is infinite."""
    assert steps_to_tolerance(np.diag([1.0, 4.0]), [1.0, 1.0], 0.5) == math.inf
    assert steps_to_tolerance(np.diag([1.0, 4.0]), [1.0, 1.0], 0.6) == math.inf


def test_kappa_is_largest_over_smallest_of_three_eigenvalues():
    """diag(1, 2, 10) turned by a rotation: κ = 10 (not 2, the middle one over the smallest)."""
    c, s = math.cos(0.3), math.sin(0.3)
    rotation = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
    assert condition_number(rotation @ np.diag([1.0, 2.0, 10.0]) @ rotation.T) == pytest.approx(10.0, rel=1e-12)


def test_an_indefinite_hessian_is_refused():
    with pytest.raises(InvalidParameterError, match="positive definite"):
        condition_number([[-1.0, 0.0], [0.0, 2.0]])


def test_standardize_features_by_hand_and_its_refusals():
    """One feature of three samples: (1, 2, 6) has mean 3 and biased σ = √(14/3)."""
    found = standardize_features([[1.0], [2.0], [6.0]])
    assert np.allclose(found[:, 0], np.array([-2.0, -1.0, 3.0]) / math.sqrt(14 / 3), rtol=0, atol=1e-15)
    with pytest.raises(ShapeError, match="^standardizing needs at least two samples$"):
        standardize_features([[1.0, 2.0, 3.0]])
    with pytest.raises(ZeroVarianceError, match="^feature 1 is constant: it cannot be standardized$"):
        standardize_features([[1.0, 5.0, 2.0], [2.0, 5.0, 3.0], [4.0, 5.0, 1.0]])
    with pytest.raises(ShapeError, match="X"):
        standardize_features([1.0, 2.0])


def test_layernorm_of_one_number_is_refused_in_so_many_words():
    with pytest.raises(InvalidParameterError,
                       match="^layernorm of a single number is always 0: n = 1 is not a valid width"):
        degrees_of_freedom("layernorm", 1)


def test_count_nearest_needs_two_dimensional_points_and_targets():
    with pytest.raises(ValueError):
        count_nearest([0.0, 0.0], [[0.0, 0.0]])
    with pytest.raises(ValueError):
        count_nearest([[0.0, 0.0]], [0.0, 0.0])
    with pytest.raises(ValueError, match="share n"):
        count_nearest([[0.0, 0.0]], [[0.0, 0.0, 0.0]])


def test_sphere_rings_default_to_five_latitudes_and_six_longitudes_of_72_points():
    rings = sphere_rings(2.0)
    assert len(rings) == 11 and all(ring.shape == (72, 3) for ring in rings)
    assert all(np.allclose(np.linalg.norm(ring, axis=1), 2.0) for ring in rings)
    # the six longitudes are great circles through the poles, their planes 30° apart
    normals = []
    for ring in rings[5:]:
        assert np.isclose(np.abs(ring[:, 2]).max(), 2.0)
        normal = np.cross(ring[0], ring[18])
        normals.append(normal / np.linalg.norm(normal))
    angles = sorted(round(math.degrees(math.acos(min(1.0, abs(float(normals[0] @ n))))), 6) for n in normals)
    assert angles == [0.0, 30.0, 30.0, 60.0, 60.0, 90.0]


def test_norm_growth_trend_compares_the_last_norm_with_the_first():
    """Plain SGD from ‖W‖ = 1: rises by more than 1 % over 300 steps; seen with rtol far above the
    growth, flat; a 2-step run at η = 0.002 that moves ‖W‖ by less than 1 % is flat (checked on its norms)."""
    plain = norm_growth_run()
    growth = plain.weight_norms[-1] / plain.weight_norms[0] - 1
    assert growth > 0.01 and plain.norm_trend() == "rises"
    assert plain.norm_trend(rtol=growth + 0.01) == "flat"
    short = norm_growth_run(steps=2, learning_rate=0.002)
    small = short.weight_norms[-1] / short.weight_norms[0] - 1
    assert abs(small) < 0.01 and short.norm_trend() == "flat"
    assert short.norm_trend(rtol=abs(small) / 2) == ("rises" if small > 0 else "falls")


def test_group_statistics_tolerances_are_strict():
    """A mean or an RMS off by exactly the tolerance is not within it (0.25 is exact in binary)."""
    stats = GroupStatistics(np.array([0.25, 0.0]), np.array([1.25, 1.0]), np.zeros(2))
    assert stats.zero_means(tolerance=0.25) == "some"
    assert not stats.unit_rms(tolerance=0.25)
    assert stats.unit_rms(tolerance=0.5)


def two_batches(a, b, size=3):
    batch = np.zeros((size, 2))
    return TwoBatches(np.zeros(2), batch, batch, np.array(a), np.array(b), np.zeros(2), np.zeros(2))


def test_the_batchnorm_outcome_says_differ_signs_or_agree():
    """Outputs apart by more than the tolerance differ; exactly the tolerance apart they do not; when
    they do not, a batch of two is the sign rule ("signs"), a larger one "agree"."""
    assert two_batches([0.0, 0.0], [0.5, 0.0]).batchnorm_outcome(tolerance=0.25) == "differ"
    assert two_batches([0.0, 0.0], [0.25, 0.0]).batchnorm_outcome(tolerance=0.25) == "agree"
    assert two_batches([1.0, -1.0], [1.0, -1.0], size=2).batchnorm_outcome() == "signs"
    assert two_batches([1.0, -1.0], [1.0, -1.0], size=4).batchnorm_outcome() == "agree"


def test_the_spread_follows_the_law_within_its_tolerance_inclusive():
    """measured/predicted − 1 equal to the tolerance (0.25, exact) still follows the law."""
    spread = BatchMeanSpread(np.array([1, 4]), np.array([1.25, 0.5]), np.array([1.0, 0.5]))
    assert spread.follows_law(rtol=0.25)
    assert not spread.follows_law(rtol=0.125)


def test_steps_to_tolerance_at_and_above_a_tolerance_of_one():
    """tol = 1 with equal components: each already sits on its share ‖e₀‖/√d, so 0 steps (brute
    force agrees); tol = 2: nothing to do either."""
    assert steps_to_tolerance(np.diag([1.0, 3.0]), [1.0, 1.0], 0.1, tol=1.0) == 0 == brute_force_steps(
        [1.0, 3.0], [1.0, 1.0], 0.1, 1.0)
    assert steps_to_tolerance(np.diag([1.0, 3.0]), [1.0, 2.0], 0.1, tol=2.0) == 0


def test_an_indefinite_hessian_names_its_smallest_eigenvalue():
    with pytest.raises(InvalidParameterError, match=r"smallest eigenvalue -1\)"):
        condition_number([[-1.0, 0.0], [0.0, 2.0]])


def test_a_matrix_argument_is_named_x_in_the_refusal():
    with pytest.raises(ShapeError, match=r"^X must have at least 2 dimension\(s\)"):
        standardize_features([1.0, 2.0])


def test_count_nearest_refuses_one_and_three_dimensional_inputs_by_name():
    with pytest.raises(ShapeError, match=r"^points must have at least 2 dimension\(s\)"):
        count_nearest([0.0, 0.0], [[0.0, 0.0]])
    with pytest.raises(ShapeError, match=r"^targets must have at least 2 dimension\(s\)"):
        count_nearest([[0.0, 0.0]], [0.0, 0.0])
    with pytest.raises(ShapeError):
        count_nearest(np.zeros((1, 2, 2)), [[0.0, 0.0]])


def test_spread_pulled_inside_in_closed_form_and_its_refusals():
    """σ = √ε·r/√(1 − r²), r = 1 − s: ε = 0.25, s = 0.5 gives 0.5·0.5/√0.75."""
    assert spread_pulled_inside(0.25, 0.5) == pytest.approx(0.25 / math.sqrt(0.75), rel=1e-15)
    for shortfall in (0.0, 1.0):
        with pytest.raises(InvalidParameterError, match="shortfall"):
            spread_pulled_inside(1e-5, shortfall)
    with pytest.raises(InvalidParameterError, match=r"^eps must be ≥ 0"):
        spread_pulled_inside(-1.0)


def test_norm_trend_default_tolerance_is_one_percent():
    """‖W‖ from 1 to 1.5 rises; from 1 to 1.005 is flat at the default 1 %."""
    assert NormGrowthRun(np.array([1.0, 1.5]), np.ones(1), np.zeros(1), 0.1, 0.0).norm_trend() == "rises"
    assert NormGrowthRun(np.array([1.0, 1.005]), np.ones(1), np.zeros(1), 0.1, 0.0).norm_trend() == "flat"
    assert NormGrowthRun(np.array([1.0, 0.5]), np.ones(1), np.zeros(1), 0.1, 0.0).norm_trend() == "falls"


def test_the_conditioning_demo_uses_its_scales_and_tolerance_everywhere():
    """Uncorrelated features of standard deviations 1 and 100: H ∝ diag(1, 10⁴), κ = 10⁴ exactly
    (in closed form, whatever the seed). The drawn descent on diag(1, 60) with η = 0.9·2/60 reaches
    tol = 10⁻³ in the brute-force count of steps."""
    demo = conditioning_demo(scales=(1.0, 100.0), tol=1e-3)
    assert demo.kappa_raw_uncorrelated == pytest.approx(1e4, rel=1e-9)
    assert demo.tolerance == 1e-3
    step = 0.9 * 2 / 60
    assert demo.drawn_before.steps_to_tolerance == brute_force_steps([1.0, 60.0], [-2.6, 0.5], step, 1e-3)
    assert demo.steps_standardized == demo.drawn_after.steps_to_tolerance
    assert demo.drawn_after.steps_to_tolerance < conditioning_demo(scales=(1.0, 100.0)).drawn_after.steps_to_tolerance
