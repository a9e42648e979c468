"""Laws of view_angles: the camera angles (φ, θ) that look along a direction."""

import numpy as np
import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from normgeo import ZeroVectorError, view_angles

directions = arrays(np.float64, (3,), elements=st.floats(-1e3, 1e3, allow_nan=False))


@given(directions)
@example(np.array([-1.0, -7.15455728e-130, -1.0]))  # found by hypothesis: arctan2 rounded θ to −π
def test_the_unit_vector_rebuilt_from_the_angles_is_the_direction(v):
    """(sin φ cos θ, sin φ sin θ, cos φ) = v/‖v‖, with φ ∈ [0, π] and θ ∈ (−π, π]."""
    assume(np.linalg.norm(v) > 1e-6)
    phi, theta = view_angles(v)
    rebuilt = np.array([np.sin(phi) * np.cos(theta), np.sin(phi) * np.sin(theta), np.cos(phi)])
    assert np.allclose(rebuilt, v / np.linalg.norm(v), rtol=0, atol=1e-12)
    assert 0 <= phi <= np.pi and -np.pi < theta <= np.pi


def test_along_ones_phi_is_arccos_one_over_root_three_and_theta_a_quarter_turn():
    """1 = (1, 1, 1): φ = arccos(1/√3) ≈ 54.74°, θ = π/4."""
    phi, theta = view_angles([1.0, 1.0, 1.0])
    assert phi == pytest.approx(np.arccos(1 / np.sqrt(3)), abs=1e-15)
    assert theta == pytest.approx(np.pi / 4, abs=1e-15)


def test_axes_and_bad_input():
    """+z gives (0, 0), −x gives (π/2, π); the zero vector and non-3-D input raise."""
    assert view_angles([0.0, 0.0, 5.0]) == (0.0, 0.0)
    assert view_angles([-1.0, -0.0, 0.0]) == pytest.approx((np.pi / 2, np.pi))
    with pytest.raises(ZeroVectorError):
        view_angles([0.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="shape"):
        view_angles([1.0, 1.0])
