"""Points of circles and spheres, for drawing the sets the layers land on."""

from __future__ import annotations

import numpy as np

from normgeo.validation import as_dimension, as_finite_array, as_positive_number

__all__ = ["hyperplane_basis", "circle_in_plane", "sphere_rings", "unit_angles", "square_in_plane"]


def hyperplane_basis(n: int) -> np.ndarray:
    """An orthonormal basis of the zero-mean hyperplane {Σvᵢ = 0}, shape (n − 1, n).

    Row k is (1, …, 1, −k, 0, …)/√(k(k+1)) with k ones (the Helmert basis): each row sums
    to 0, has length 1, and rows are orthogonal.

    >>> (hyperplane_basis(2) * np.sqrt(2)).round(12)
    array([[ 1., -1.]])
    """
    n = as_dimension(n, minimum=2)
    basis = np.zeros((n - 1, n))
    for k in range(1, n):
        basis[k - 1, :k] = 1.0
        basis[k - 1, k] = -float(k)
        basis[k - 1] /= np.sqrt(k * (k + 1))
    return basis


def unit_angles(samples: int) -> np.ndarray:
    """``samples`` angles evenly spaced over [0, 2π)."""
    return np.linspace(0.0, 2 * np.pi, as_dimension(samples, "samples", minimum=3), endpoint=False)


def circle_in_plane(u, w, radius: float, samples: int = 96, center=None) -> np.ndarray:
    """Points center + r(cos t·u + sin t·w) of the circle spanned by orthonormal u, w; shape (samples, d)."""
    u = as_finite_array(u, "u")
    w = as_finite_array(w, "w")
    radius = as_positive_number(radius, "radius")
    t = unit_angles(samples)[:, None]
    points = radius * (np.cos(t) * u + np.sin(t) * w)
    return points if center is None else points + as_finite_array(center, "center")


def sphere_rings(radius: float, latitudes: int = 5, longitudes: int = 6, samples: int = 72) -> list[np.ndarray]:
    """Rings of the sphere ‖v‖₂ = r in 3-D: ``latitudes`` parallels and ``longitudes`` meridians."""
    radius = as_positive_number(radius, "radius")
    rings = []
    for polar in np.linspace(0, np.pi, as_dimension(latitudes, "latitudes") + 2)[1:-1]:
        rings.append(
            circle_in_plane([1.0, 0, 0], [0, 1.0, 0], radius * np.sin(polar), samples, center=[0, 0, radius * np.cos(polar)])
        )
    for azimuth in np.linspace(0, np.pi, as_dimension(longitudes, "longitudes"), endpoint=False):
        rings.append(circle_in_plane([np.cos(azimuth), np.sin(azimuth), 0], [0, 0, 1.0], radius, samples))
    return rings


def square_in_plane(u, w, half_side: float) -> np.ndarray:
    """The corners ±a·u ± a·w (in order around the square) of a square spanned by u, w; shape (4, d)."""
    u = as_finite_array(u, "u")
    w = as_finite_array(w, "w")
    a = as_positive_number(half_side, "half_side")
    return a * np.array([u + w, -u + w, -u - w, u - w])
