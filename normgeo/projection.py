"""Radial projection: slide a vector along its ray from the origin onto a sphere."""

from __future__ import annotations

import numpy as np

from normgeo.errors import ZeroVectorError
from normgeo.norms import largest_magnitude
from normgeo.validation import as_finite_array, as_positive_number, describe_index

__all__ = ["radial_projection", "unit_direction"]


def unit_direction(x) -> np.ndarray:
    """x/‖x‖₂ along the last axis; raises ``ZeroVectorError`` for a zero row.

    Computed as u/‖u‖₂ with u = x/max|xᵢ|, so it never overflows or underflows.

    >>> unit_direction([3.0, 4.0])
    array([0.6, 0.8])
    """
    array = as_finite_array(x)
    scale = largest_magnitude(array)
    zero_rows = scale[..., 0] == 0
    if zero_rows.any():
        if array.ndim == 1:
            raise ZeroVectorError("x is the zero vector, which has no direction to project along")
        row = tuple(int(i) for i in np.argwhere(zero_rows)[0])
        raise ZeroVectorError(f"row {describe_index(row)} of x is the zero vector, which has no direction to project along")
    unit = array / scale
    return unit / np.sqrt(np.sum(unit * unit, axis=-1, keepdims=True))


def radial_projection(x, radius: float = 1.0) -> np.ndarray:
    """x·R/‖x‖₂ along the last axis: the point of the sphere of radius R on the ray through x.

    The result has length R, points the same way as x, and projecting it again changes
    nothing. A zero vector raises ``ZeroVectorError`` naming its row.

    >>> radial_projection([3.0, 4.0])
    array([0.6, 0.8])
    >>> radial_projection([[6.0, 8.0], [0.0, -2.0]], radius=2.0)
    array([[ 1.2,  1.6],
           [ 0. , -2. ]])
    """
    return unit_direction(x) * as_positive_number(radius, "radius")
