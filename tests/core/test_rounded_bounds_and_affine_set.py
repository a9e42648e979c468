"""The bound shown for |cos∠(∇W, W)| is rounded up, never below the true maximum; LayerNorm with
ε > 0 keeps σ in its output's length; where β moves the circle S ∩ H (issue 34)."""

import math
from decimal import Decimal

import numpy as np
import pytest
from hypothesis import assume, given, strategies as st

from normgeo import affine_output_set, layer_norm, layer_norm_output_curve, spread_of_output_radius
from normgeo.gradient_orthogonality import norm_growth_summary, round_up
from normgeo.scale_invariance import norm_growth_run


@given(st.floats(min_value=1e-300, max_value=1e300, allow_nan=False, allow_infinity=False))
def test_round_up_is_the_least_three_digit_number_at_or_above(value):
    bound = round_up(value)
    digits, exponent = f"{bound:.2e}".split("e")
    below = float(f"{Decimal(digits) - Decimal('0.01')}e{exponent}")  # the next 3-digit number down
    assert bound >= value > below
    assert float(f"{digits}e{exponent}") == bound  # three significant digits


def test_round_up_of_the_runs_largest_cosine_is_above_it_where_round_to_nearest_is_below():
    for seed in range(12):
        summary = norm_growth_summary(norm_growth_run(steps=60, seed=seed))
        bound = round_up(summary.largest_cosine)
        assert bound >= summary.largest_cosine
    assert round_up(1.284e-16) == 1.29e-16 and float(f"{1.284e-16:.2e}") < 1.284e-16


def test_round_up_refuses_negative_and_non_finite():
    for bad in (-1e-3, math.inf, math.nan):
        with pytest.raises(ValueError):
            round_up(bad)


@given(st.floats(0.01, 30), st.floats(1e-6, 4), st.integers(2, 800))
def test_with_eps_the_output_length_gives_back_sigma(sigma, eps, n):
    """σ read back from the length of a real LayerNorm output (computed by layer_norm, not the formula)."""
    x = np.zeros(n)
    x[0], x[1] = sigma * math.sqrt(n / 2), -sigma * math.sqrt(n / 2)  # biased spread exactly σ
    length = float(np.linalg.norm(layer_norm(x, eps=eps)))
    assert spread_of_output_radius(length, n, eps) == pytest.approx(sigma, rel=1e-6)


def test_spread_of_output_radius_refuses_eps_zero_and_lengths_at_or_past_root_n():
    with pytest.raises(ValueError):
        spread_of_output_radius(1.0, 3, 0.0)
    with pytest.raises(ValueError):
        spread_of_output_radius(math.sqrt(3), 3, 0.1)


@given(st.lists(st.floats(0.1, 3), min_size=3, max_size=3), st.lists(st.floats(-3, 3), min_size=3, max_size=3))
def test_the_set_leaves_the_hyperplane_exactly_when_its_points_do_not_sum_to_zero(gamma, beta):
    assume(sum(map(abs, beta)) >= 1e-3)  # the spec refuses β = 0
    placement = affine_output_set(gamma, beta)
    centroid_sum = abs(float(layer_norm_output_curve(gamma, beta, samples=360).mean(axis=0).sum()))
    scale = max(sum(map(abs, beta)), 1.0)
    assume(not 1e-12 * scale < centroid_sum < 1e-6 * scale)  # clear of rounding in the sampled centroid
    assert placement.leaves_hyperplane == (centroid_sum > 1e-9 * scale)
    assert np.allclose(placement.centre, beta)
    # tilted: some point of γ ⊙ (S ∩ H) does not sum to 0
    stretched_sums = layer_norm_output_curve(gamma, None, samples=36).sum(axis=1)
    assert placement.tilted == bool(np.abs(stretched_sums).max() > 1e-9 * max(gamma))


def test_beta_summing_to_zero_keeps_the_centre_in_the_plane():
    assert not affine_output_set([1.5, 0.6, 1.0], [0.5, -0.8, 0.3]).leaves_hyperplane
    assert affine_output_set([1.5, 0.6, 1.0], [0.5, -0.4, 0.3]).leaves_hyperplane
    assert not affine_output_set([2, 2, 2], [1, 0, 0]).tilted
