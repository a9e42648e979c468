"""LayerNorm is RMSNorm of the centred vector, and the angle the centring turns (C2).

LN(x) = RMSNorm(x − μ·1) exactly, with the same ε (the centred vector's mean square is σ²).
RMSNorm(x) points along x and LN(x) along x − μ·1, for every ε, so the angle between them
is the angle between x and its centred part: arctan(|μ|/σ), which is also |π/2 − ∠(x, 1)|.
Inputs nearly orthogonal to 1 (μ ≈ 0) make the two layers coincide.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from normgeo.decomposition import project_to_zero_mean_hyperplane
from normgeo.errors import ZeroVarianceError
from normgeo.normalize import layer_norm, rms_norm
from normgeo.norms import euclidean_norm
from normgeo.projection import unit_direction
from normgeo.validation import as_dimension, as_finite_array, as_nonnegative_number

__all__ = ["angle_between", "rms_layer_norm_angle", "centring_angle", "CentringSweep", "centring_angle_sweep"]


def angle_between(a, b) -> np.ndarray:
    """The angle in [0, π] between non-zero vectors a and b along the last axis.

    2·atan2(‖â − b̂‖, ‖â + b̂‖) on the unit vectors â, b̂: accurate also near 0 and π, where
    arccos of the cosine loses half the digits.

    >>> round(float(np.degrees(angle_between([1.0, 0.0], [1.0, 1.0]))), 9)
    45.0
    """
    ua, ub = unit_direction(as_finite_array(a, "a")), unit_direction(as_finite_array(b, "b"))
    return 2 * np.arctan2(euclidean_norm(ua - ub), euclidean_norm(ua + ub))


def rms_layer_norm_angle(x, eps: float = 0.0) -> np.ndarray:
    """The angle between RMSNorm(x) and LN(x) (no γ, β), measured on the two outputs.

    Needs σ > 0 (LN(x) ≠ 0). The value does not depend on ε: both outputs are positive
    multiples of x and x − μ·1 whatever ε is.
    """
    eps = as_nonnegative_number(eps, "eps")
    scaled, centred = rms_norm(x, eps=eps), layer_norm(x, eps=eps)
    if np.any(np.all(centred == 0, axis=-1)):
        raise ZeroVarianceError("x is constant (σ = 0): LN(x) = 0 has no direction, so it makes no angle with RMSNorm(x)")
    return angle_between(scaled, centred)


def centring_angle(mean_over_std) -> np.ndarray:
    """arctan(|μ|/σ): the closed form of the angle between RMSNorm(x) and LN(x) for an input
    with mean μ and (biased) spread σ > 0; 0 exactly when μ = 0 (x orthogonal to 1).

    cos = ⟨x, x − μ·1⟩/(‖x‖·‖x − μ·1‖) = ‖x − μ·1‖/‖x‖ = σ/√(σ² + μ²).

    >>> round(float(np.degrees(centring_angle(1.0))), 9)
    45.0
    """
    return np.arctan(np.abs(as_finite_array(mean_over_std, "mean_over_std", min_ndim=0)))


@dataclass(frozen=True)
class CentringSweep:
    """For each ratio μ/σ: the input built with it, the angle measured between RMSNorm(x) and
    LN(x), and the closed form arctan(|μ|/σ)."""

    ratios: np.ndarray
    inputs: np.ndarray
    measured: np.ndarray
    predicted: np.ndarray


def centring_angle_sweep(ratios=None, n: int = 8, seed: int = 0) -> CentringSweep:
    """Inputs x = μ·1 + c with one seeded centred direction c scaled to σ = 1 and μ = each
    ratio (default 41 ratios from −4 to 4), and the angle between RMSNorm(x) and LN(x)."""
    ratios = np.linspace(-4.0, 4.0, 41) if ratios is None else as_finite_array(ratios, "ratios")
    n = as_dimension(n, minimum=2)
    rng = np.random.default_rng(seed)
    centred = project_to_zero_mean_hyperplane(rng.normal(size=n))
    centred /= centred.std()
    inputs = ratios[:, None] + centred
    return CentringSweep(ratios, inputs, rms_layer_norm_angle(inputs), centring_angle(ratios))
