"""nGPT's update: a step along the unit sphere toward the block's output (E3).

Loshchilov et al. (ICLR 2025) keep every hidden vector on the unit sphere and update
h ← Norm(h + α(h_B − h)) with h_B = Norm(block(h)) and α the eigen learning rate (in nGPT a
learned vector, one rate per dimension; here one number in [0, 1], so the step stays in the plane
of h and h_B, between them).

With θ = ∠(h, h_B) ∈ [0, π), the new h points along (1 − α)h + αh_B, at the angle
φ(α) = atan2(α·sin θ, 1 − α + α·cos θ) from h, on the great circle through h and h_B. So the step's
fraction of the arc, φ/θ, is not α itself: it equals α at α = 0, ½ and 1 and tends to α as θ → 0,
is below α for 0 < α < ½ and above it for ½ < α < 1 (0 < θ < π), and f(1 − α) = 1 − f(α).
The plain residual update h + h_B (no norm) has length 2·cos(θ/2): off the unit sphere for every θ
except 2π/3.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from normgeo.centring import angle_between
from normgeo.errors import InvalidParameterError, ShapeError, ZeroVectorError
from normgeo.norms import euclidean_norm
from normgeo.projection import unit_direction
from normgeo.validation import as_finite_array

__all__ = ["NGPTStep", "arc_fraction", "ngpt_step", "ngpt_update"]


def _pair(h, h_block) -> tuple[np.ndarray, np.ndarray]:
    a, b = as_finite_array(h, "h"), as_finite_array(h_block, "h_block")
    if a.ndim != 1 or a.shape != b.shape or a.size < 2:
        raise ShapeError(f"h and h_block must be single vectors of one dimension ≥ 2, got {a.shape} and {b.shape}")
    return unit_direction(a), unit_direction(b)


def _alpha(alpha) -> float:
    value = as_finite_array(alpha, "alpha", min_ndim=0)
    if value.ndim:
        raise InvalidParameterError(f"alpha must be one number here, got shape {value.shape}")
    if not 0 <= value <= 1:
        raise InvalidParameterError(f"alpha must lie in [0, 1] (a step between h and h_B), got {float(value)}")
    return float(value)


def ngpt_update(h, h_block, alpha: float) -> np.ndarray:
    """Norm(h + α(h_B − h)) after putting h and h_B on the unit sphere (their directions).

    >>> ngpt_update([1.0, 0.0], [0.0, 1.0], 0.5).round(6)
    array([0.707107, 0.707107])
    """
    a, b = _pair(h, h_block)
    alpha = _alpha(alpha)
    step = a + alpha * (b - a)
    if euclidean_norm(step) == 0:
        raise ZeroVectorError("h + α(h_B − h) = 0 (h_B = −h and α = ½): the update has no direction")
    return unit_direction(step)


def arc_fraction(theta, alpha) -> np.ndarray:
    """φ(α)/θ with φ(α) = atan2(α sin θ, 1 − α + α cos θ): the closed form of the step's share of the
    arc from h to h_B, for angles 0 < θ < π (elementwise, broadcast).

    >>> arc_fraction(np.pi / 2, [0.0, 0.25, 0.5, 1.0]).round(6)
    array([0.      , 0.204833, 0.5     , 1.      ])
    """
    theta = as_finite_array(theta, "theta", min_ndim=0)
    alpha = as_finite_array(alpha, "alpha", min_ndim=0)
    if np.any(theta <= 0) or np.any(theta >= math.pi):
        raise InvalidParameterError("theta must lie in (0, π): at 0 there is no arc, at π no shorter one")
    return np.arctan2(alpha * np.sin(theta), 1 - alpha + alpha * np.cos(theta)) / theta


@dataclass(frozen=True)
class NGPTStep:
    """One update: h, h_B (unit), the new h, the plain residual h + h_B; the angle θ from h to h_B,
    the angle φ the step turns, their ratio (the fraction of the arc), and the lengths."""

    h: np.ndarray
    target: np.ndarray
    new: np.ndarray
    plain: np.ndarray
    alpha: float
    arc_angle: float
    step_angle: float
    fraction: float | None  # None when θ = 0 (h_B = h): there is no arc
    new_norm: float
    plain_norm: float

    @property
    def fraction_is_alpha(self) -> bool:
        """The step's share of the arc equals α to 1e-9 (true only for α ∈ {0, ½, 1} or θ → 0)."""
        return self.fraction is not None and abs(self.fraction - self.alpha) < 1e-9

    @property
    def plain_leaves_sphere(self) -> bool:
        """‖h + h_B‖ differs from 1 by more than 1e-9."""
        return abs(self.plain_norm - 1.0) > 1e-9


def ngpt_step(h, h_block, alpha: float) -> NGPTStep:
    """The update of h toward h_B with eigen learning rate α, and what it is measured against."""
    a, b = _pair(h, h_block)
    new = ngpt_update(a, b, alpha)
    theta = float(angle_between(a, b))
    phi = float(angle_between(a, new))
    plain = a + b
    return NGPTStep(a, b, new, plain, _alpha(alpha), theta, phi, phi / theta if theta > 0 else None,
                    float(euclidean_norm(new)), float(euclidean_norm(plain)))
