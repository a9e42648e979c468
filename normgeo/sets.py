"""The two sets normalization lands on, read as sets of points.

* the sphere of radius R: {v : ‖v‖₂ = R};
* the zero-mean hyperplane: {v : Σᵢ vᵢ = 0}, a flat (n−1)-dimensional subspace through
  the origin, orthogonal to 1 = (1, …, 1) (a line in 2-D).
"""

from __future__ import annotations

import numpy as np

from normgeo.norms import euclidean_norm
from normgeo.validation import as_finite_array, as_nonnegative_number, as_positive_number

__all__ = [
    "distance_to_sphere",
    "distance_to_zero_mean_hyperplane",
    "on_sphere",
    "on_zero_mean_hyperplane",
    "DEFAULT_TOLERANCE",
]

DEFAULT_TOLERANCE = 1e-9


def distance_to_sphere(v, radius: float = 1.0) -> np.ndarray:
    """Euclidean distance from v to the sphere of radius R: | ‖v‖₂ − R |.

    >>> float(distance_to_sphere([3.0, 4.0], radius=1.0))
    4.0
    """
    return np.abs(euclidean_norm(v) - as_positive_number(radius, "radius"))


def distance_to_zero_mean_hyperplane(v) -> np.ndarray:
    """Euclidean distance from v to {Σ vᵢ = 0}: |Σ vᵢ|/√n (the length of the mean part μ·1).

    >>> round(float(distance_to_zero_mean_hyperplane([1.0, 1.0])), 12)
    1.414213562373
    """
    array = as_finite_array(v)
    n = array.shape[-1]
    return np.abs(np.mean(array, axis=-1)) * np.sqrt(n)


def on_sphere(v, radius: float = 1.0, tol: float = DEFAULT_TOLERANCE) -> np.ndarray:
    """True where v is within ``tol`` (relative to R) of the sphere of radius R."""
    radius = as_positive_number(radius, "radius")
    return distance_to_sphere(v, radius) <= as_nonnegative_number(tol, "tol") * max(radius, 1.0)


def on_zero_mean_hyperplane(v, tol: float = DEFAULT_TOLERANCE) -> np.ndarray:
    """True where v is within ``tol`` (relative to ‖v‖₂) of the zero-mean hyperplane."""
    array = as_finite_array(v)
    scale = np.maximum(euclidean_norm(array), 1.0)
    return distance_to_zero_mean_hyperplane(array) <= as_nonnegative_number(tol, "tol") * scale
