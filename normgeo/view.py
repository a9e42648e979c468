"""The camera angles that look along a direction (Manim's ``set_camera_orientation(phi, theta)``)."""

from __future__ import annotations

import numpy as np

from normgeo.errors import ShapeError, ZeroVectorError
from normgeo.norms import euclidean_norm
from normgeo.validation import as_finite_array

__all__ = ["view_angles"]


def view_angles(direction) -> tuple[float, float]:
    """The polar angle φ (from +z) and azimuth θ (from +x in the xy plane), in radians, of a
    non-zero 3-D direction: its unit vector is (sin φ cos θ, sin φ sin θ, cos φ).

    φ lies in [0, π] and θ in (−π, π]; on the z axis (φ = 0 or π) θ is 0. Manim's camera at
    (φ, θ) sits on this ray and looks back through the origin. Along 1 = (1, 1, 1):
    φ = arccos(1/√3) ≈ 54.74°, θ = π/4.

    >>> [round(float(np.degrees(a)), 2) for a in view_angles([1.0, 1.0, 1.0])]
    [54.74, 45.0]
    """
    v = as_finite_array(direction, "direction")
    if v.shape != (3,):
        raise ShapeError(f"direction must have shape (3,), got {v.shape}")
    length = float(euclidean_norm(v))
    if length == 0:
        raise ZeroVectorError("the zero vector has no direction to look along")
    x, y, z = v / length
    phi = float(np.arctan2(np.hypot(x, y), z))
    theta = float(np.arctan2(y, x)) if (x, y) != (0.0, 0.0) else 0.0
    if theta <= -np.pi:  # y = −0 or a y so small that −π + |y/x| rounds to −π: the same ray as θ = π
        theta = float(np.pi)
    return phi, theta
