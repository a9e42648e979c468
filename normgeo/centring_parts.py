"""The numbers a picture of LN(x) = RMSNorm(x − μ·1) shows (C2): an input's mean and spread, their
ratio μ/σ (the one number the angle between RMSNorm(x) and LN(x) depends on), and the arc that
marks an angle between two directions.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from normgeo.centring import angle_between
from normgeo.decomposition import decompose
from normgeo.errors import InvalidParameterError, ZeroVarianceError
from normgeo.norms import root_mean_square
from normgeo.projection import unit_direction
from normgeo.validation import as_dimension, as_finite_array, as_positive_number, describe_index

__all__ = ["MeanAndSpread", "mean_and_spread", "arc_between"]


@dataclass(frozen=True)
class MeanAndSpread:
    """μ, the (biased) spread σ = RMS(x − μ·1), and μ/σ, each along the last axis."""

    mean: np.ndarray
    spread: np.ndarray
    ratio: np.ndarray


def mean_and_spread(x) -> MeanAndSpread:
    """μ, σ and μ/σ of each row of x (σ as LayerNorm takes it: biased, RMS of the centred part).

    σ is 0 for a constant row, where μ/σ has no value: that raises ``ZeroVarianceError`` naming the
    row. ``centring_angle(ratio)`` is then the angle between RMSNorm(x) and LN(x).

    >>> parts = mean_and_spread([2.2, 0.6])
    >>> [round(float(v), 12) for v in (parts.mean, parts.spread, parts.ratio)]
    [1.4, 0.8, 1.75]
    """
    parts = decompose(as_finite_array(x))
    spread = root_mean_square(parts.centred_part)
    zero = spread == 0
    if np.any(zero):
        if np.ndim(spread) == 0:
            raise ZeroVarianceError("x has all entries equal: σ = 0, so μ/σ has no value")
        row = tuple(int(i) for i in np.argwhere(zero)[0])
        raise ZeroVarianceError(f"row {describe_index(row)} of x has all entries equal: σ = 0, so μ/σ has no value")
    return MeanAndSpread(parts.mean, spread, parts.mean / spread)


def arc_between(a, b, radius: float, samples: int = 32) -> np.ndarray:
    """``samples`` points of the shorter arc of the circle of ``radius`` about the origin, from the
    direction of a to that of b, evenly spaced in angle; shape (samples, d).

    a and b are non-zero vectors of one dimension d ≥ 2, not pointing in opposite directions
    (then no arc is shorter). The points are spherical interpolations r·(sin((1−t)θ)·â +
    sin(tθ)·b̂)/sin θ, θ = ∠(a, b); for θ = 0 every point is r·â.

    >>> arc_between([1.0, 0.0], [0.0, 2.0], 1.0, samples=3).round(6) + 0.0
    array([[1.      , 0.      ],
           [0.707107, 0.707107],
           [0.      , 1.      ]])
    """
    ua, ub = unit_direction(as_finite_array(a, "a")), unit_direction(as_finite_array(b, "b"))
    if ua.ndim != 1 or ua.shape != ub.shape or ua.size < 2:
        raise InvalidParameterError(f"a and b must be single vectors of one dimension ≥ 2, "
                                    f"got {ua.shape} and {ub.shape}")
    radius = as_positive_number(radius, "radius")
    samples = as_dimension(samples, "samples", minimum=2)
    theta = float(angle_between(ua, ub))
    if np.pi - theta < 1e-9:
        raise InvalidParameterError("a and b point in opposite directions: no arc between them is the shorter")
    t = np.linspace(0.0, 1.0, samples)[:, None]
    if theta == 0.0:
        return np.repeat(radius * ua[None, :], samples, axis=0)
    points = (np.sin((1 - t) * theta) * ua + np.sin(t * theta) * ub) / np.sin(theta)
    return radius * unit_direction(points)
