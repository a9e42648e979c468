"""Euclidean length and root mean square that neither overflow nor underflow.

Squaring 1e200 overflows and squaring 1e-200 underflows, so every norm here divides by
the largest magnitude first: ‖x‖₂ = m·‖x/m‖₂ with m = max|xᵢ|.
"""

from __future__ import annotations

import numpy as np

from normgeo.validation import as_finite_array

__all__ = ["euclidean_norm", "root_mean_square", "largest_magnitude", "distance"]


def largest_magnitude(x: np.ndarray, axis=-1) -> np.ndarray:
    """max |xᵢ| along ``axis``, kept as a length-1 axis so it broadcasts against ``x``."""
    return np.max(np.abs(x), axis=axis, keepdims=True)


def euclidean_norm(x, axis: int = -1) -> np.ndarray:
    """‖x‖₂ along ``axis``, exact for entries as large as 1e300 or as small as 1e-300.

    >>> float(euclidean_norm([3.0, 4.0]))
    5.0
    >>> round(float(euclidean_norm([3e200, 4e200])) / 1e200, 12)
    5.0
    """
    array = as_finite_array(x)
    scale = largest_magnitude(array, axis)
    safe_scale = np.where(scale > 0, scale, 1.0)
    unit = array / safe_scale
    norm = safe_scale * np.sqrt(np.sum(unit * unit, axis=axis, keepdims=True))
    return np.squeeze(norm, axis=axis)


def root_mean_square(x, axis: int = -1) -> np.ndarray:
    """RMS(x) = ‖x‖₂/√n along ``axis``.

    >>> float(root_mean_square([1.0, -1.0]))
    1.0
    """
    array = as_finite_array(x)
    return euclidean_norm(array, axis) / np.sqrt(array.shape[axis])


def distance(a, b) -> np.ndarray:
    """‖a − b‖₂ along the last axis.

    >>> round(float(distance([0.6, 0.8], [0.8, 0.6])), 6)
    0.282843
    """
    return euclidean_norm(as_finite_array(a, "a") - as_finite_array(b, "b"))
