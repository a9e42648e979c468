"""Laws of mean_and_spread (μ, σ, μ/σ of an input) and arc_between (the arc marking an angle)."""

import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from normgeo import angle_between, centring_angle, layer_norm, rms_layer_norm_angle, rms_norm
from normgeo.centring_parts import arc_between, mean_and_spread
from normgeo.errors import InvalidParameterError, ZeroVarianceError
from tests.core.strategies import close, moderate_vectors, spread_vectors, vectors


@given(spread_vectors())
def test_mean_and_spread_are_those_layer_norm_uses(x):
    """x = μ·1 + σ·LN(x) (ε = 0): the mean and spread are exactly the ones LayerNorm divides out,
    and μ/σ is their ratio."""
    parts = mean_and_spread(x)
    rebuilt = parts.mean[..., None] + parts.spread[..., None] * layer_norm(x, eps=0.0)
    scale = float(np.max(np.abs(x)))
    assert close(rebuilt, x, scale=scale)
    assert np.array_equal(parts.ratio, parts.mean / parts.spread)
    assert np.all(parts.spread > 0)


@given(moderate_vectors())
def test_the_ratio_fixes_the_angle_between_rms_norm_and_layer_norm(x):
    """arctan(|μ/σ|) from the ratio = the angle measured between RMSNorm(x) and LN(x)."""
    assume(np.all(np.max(np.abs(x), axis=-1) > 0))
    measured = rms_layer_norm_angle(x)
    assert np.allclose(centring_angle(mean_and_spread(x).ratio), measured, rtol=0, atol=1e-7)


@given(spread_vectors(batch=()), st.floats(0.01, 100), st.floats(-100, 100))
def test_ratio_is_unchanged_by_scaling_and_moved_by_shifting(x, c, shift):
    """μ/σ is invariant under x → c·x (c > 0); a shift x → x + s·1 adds s/σ (σ unchanged)."""
    parts = mean_and_spread(x)
    size = max(float(np.max(np.abs(x))), 1.0)
    assume(float(parts.spread) > 1e-3 * size)
    assert math.isclose(float(mean_and_spread(c * x).ratio), float(parts.ratio), rel_tol=1e-9, abs_tol=1e-9)
    shifted = mean_and_spread(x + shift)
    assert math.isclose(float(shifted.spread), float(parts.spread), rel_tol=1e-6, abs_tol=1e-9 * (size + abs(shift)))
    assert math.isclose(float(shifted.ratio), float(parts.ratio) + shift / float(parts.spread), rel_tol=1e-6,
                        abs_tol=1e-6 * (1 + abs(shift) / float(parts.spread)))


def test_a_constant_row_has_no_ratio():
    with pytest.raises(ZeroVarianceError, match="row"):
        mean_and_spread([[1.0, 2.0], [3.0, 3.0]])
    with pytest.raises(ZeroVarianceError):
        mean_and_spread([0.5, 0.5, 0.5])


@given(vectors(batch=()), st.data(), st.floats(1e-2, 1e2), st.integers(2, 50))
def test_the_arc_runs_on_the_circle_from_a_to_b_in_equal_steps(a, data, radius, samples):
    """Every point is at distance r; the ends are r·â and r·b̂; consecutive points are θ/(k − 1)
    apart in angle; every point lies in the span of a and b."""
    b = data.draw(vectors(n=a.size, batch=()))
    theta = float(angle_between(a, b))
    assume(theta < math.pi - 1e-3)
    arc = arc_between(a, b, radius, samples)
    assert arc.shape == (samples, a.size)
    assert np.allclose(np.linalg.norm(arc, axis=1), radius, rtol=1e-9)
    assert np.allclose(arc[0], radius * a / np.linalg.norm(a), rtol=0, atol=1e-9 * radius)
    assert np.allclose(arc[-1], radius * b / np.linalg.norm(b), rtol=0, atol=1e-7 * radius)
    steps = angle_between(arc[:-1], arc[1:])
    assert np.allclose(steps, theta / (samples - 1), rtol=0, atol=1e-7)
    basis, _ = np.linalg.qr(np.column_stack([a / np.linalg.norm(a), b / np.linalg.norm(b)]))
    in_span = arc @ basis @ basis.T
    assert np.allclose(in_span, arc, rtol=0, atol=1e-6 * radius)


def test_the_arc_marks_the_angle_between_rms_norm_and_layer_norm():
    """For x = (2.2, 0.6): from RMSNorm(x) to LN(x) = (1, −1) the arc spans arctan(1.75)."""
    x = np.array([2.2, 0.6])
    arc = arc_between(rms_norm(x, eps=0.0), layer_norm(x, eps=0.0), 0.8, samples=40)
    assert math.isclose(float(angle_between(arc[0], arc[-1])), math.atan(1.75), abs_tol=1e-12)


def test_opposite_directions_have_no_shorter_arc():
    with pytest.raises(InvalidParameterError):
        arc_between([1.0, 0.0], [-2.0, 0.0], 1.0)
