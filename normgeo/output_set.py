"""Where LayerNorm's outputs really live once ε and the affine step are counted (C1).

The sphere statements hold at ε = 0. With ε > 0, ‖x̂‖₂ = √n·σ/√(σ² + ε) < √n: inputs
with a small spread land inside the sphere. After y = β + γ ⊙ x̂ the outputs (ε = 0) lie
on β + γ ⊙ (S ∩ H), S the sphere of radius √n and H the zero-mean hyperplane.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from normgeo.circles import circle_in_plane, hyperplane_basis
from normgeo.errors import InvalidParameterError, ShapeError, ZeroVarianceError
from normgeo.validation import as_dimension, as_finite_array, as_nonnegative_number

__all__ = ["layer_norm_output_radius", "layer_norm_output_curve", "TYPICAL_EPS", "SMALLEST_REAL_EPS",
           "spread_pulled_inside", "spread_of_output_radius", "AffineOutputSet", "affine_output_set"]

# Real layers use ε from 10⁻¹² (BERT's LayerNorm, so the bundled all-MiniLM-L6-v2) to 10⁻⁵ (PyTorch's
# torch.nn.LayerNorm default, the largest in common use): no single "typical" value.
TYPICAL_EPS = 1e-5  # PyTorch's default for torch.nn.LayerNorm: the largest ε in common use
SMALLEST_REAL_EPS = 1e-12  # BERT's LayerNorm (layer_norm_eps of the bundled MiniLM)


def layer_norm_output_radius(sigma, n: int, eps: float) -> np.ndarray:
    """‖LN(x)‖₂ = √n·σ/√(σ² + ε) for an input of n entries with (biased) spread σ ≥ 0, before γ, β.

    Vectorized over ``sigma``. Equal to √n at ε = 0 (for σ > 0), below √n for ε > 0, and 0 at
    σ = 0 with ε > 0; σ = 0 with ε = 0 raises ``ZeroVarianceError`` (LayerNorm is undefined there).

    >>> float(layer_norm_output_radius(1.0, 4, 0.0)), float(layer_norm_output_radius(1.0, 4, 3.0))
    (2.0, 1.0)
    """
    sigma = as_finite_array(sigma, "sigma", min_ndim=0)
    n = as_dimension(n, minimum=2)
    eps = as_nonnegative_number(eps, "eps")
    if (sigma < 0).any():
        raise InvalidParameterError(f"sigma must be ≥ 0, got {sigma[sigma < 0].ravel()[0]}")
    if eps == 0 and (sigma == 0).any():
        raise ZeroVarianceError("σ = 0 with ε = 0: LayerNorm of a constant vector is undefined")
    safe = np.where(sigma > 0, sigma, 1.0)
    ratio = np.where(sigma > 0, math.sqrt(eps) / safe, np.inf)  # √ε/σ: never overflows like σ² would
    return math.sqrt(n) / np.hypot(1.0, ratio)  # = √n·σ/√(σ² + ε), and never above √n after rounding


def spread_pulled_inside(eps: float, shortfall: float = 0.05) -> float:
    """The spread σ below which ε pulls LayerNorm's output more than ``shortfall`` (a fraction of √n)
    inside the sphere: √n·σ/√(σ² + ε) = (1 − s)·√n ⇔ σ = √ε·r/√(1 − r²), r = 1 − s.

    With PyTorch's default ε = 10⁻⁵ only σ below about 10⁻² loses more than 5 % (with BERT's 10⁻¹²,
    σ below about 3·10⁻⁶):

    >>> round(spread_pulled_inside(TYPICAL_EPS), 4), round(spread_pulled_inside(0.25), 3)
    (0.0096, 1.521)
    """
    eps = as_nonnegative_number(eps, "eps")
    if not 0 < shortfall < 1:
        raise InvalidParameterError(f"shortfall must be a fraction between 0 and 1, got {shortfall}")
    kept = 1.0 - shortfall
    return math.sqrt(eps) * kept / math.sqrt(1.0 - kept * kept)


def spread_of_output_radius(radius, n: int, eps: float) -> np.ndarray:
    """The spread σ of an input whose LayerNorm output (ε > 0, before γ, β) has length ``radius``:
    σ = √ε·r/√(n − r²), the inverse of :func:`layer_norm_output_radius`. The radius grows strictly
    with σ, so with ε > 0 the output keeps σ (compressed into [0, √n), not discarded).

    >>> round(float(spread_of_output_radius(layer_norm_output_radius(0.7, 3, 0.25), 3, 0.25)), 12)
    0.7
    """
    radius = as_finite_array(radius, "radius", min_ndim=0)
    n = as_dimension(n, minimum=2)
    eps = as_nonnegative_number(eps, "eps")
    if eps == 0:
        raise InvalidParameterError("at ε = 0 every output has length √n: its length tells nothing of σ")
    if (radius < 0).any() or (radius >= math.sqrt(n)).any():
        raise InvalidParameterError(f"with ε > 0 an output's length lies in [0, √{n}), got {radius.ravel()}")
    return math.sqrt(eps) * radius / np.sqrt(n - radius * radius)


@dataclass(frozen=True)
class AffineOutputSet:
    """Where y = β + γ ⊙ x̂ puts the circle S ∩ H (n = 3): ``tilted`` when γ is not a multiple of 1
    (the image plane is not parallel to H), ``leaves_hyperplane`` when Σβᵢ ≠ 0 (the centre β is off
    H; with Σβᵢ = 0 the centre moves within H); ``centre`` is β."""

    centre: np.ndarray
    tilted: bool
    leaves_hyperplane: bool


def affine_output_set(weight, bias, rtol: float = 1e-9) -> AffineOutputSet:
    """The predicates of :class:`AffineOutputSet` for γ = ``weight`` and β = ``bias`` (vectors of 3):
    Σβᵢ ≠ 0 beyond ``rtol``·‖β‖₁, and γ not equal entries beyond ``rtol``·max|γᵢ|.

    >>> affine_output_set([1.5, 0.6, 1.0], [0.5, -0.4, 0.3]).leaves_hyperplane
    True
    >>> affine_output_set([2.0, 2.0, 2.0], [1.0, -0.5, -0.5]).leaves_hyperplane
    False
    """
    gamma, beta = as_finite_array(weight, "weight"), as_finite_array(bias, "bias")
    for name, values in (("weight", gamma), ("bias", beta)):
        if values.shape != (3,):
            raise ShapeError(f"{name} must have shape (3,), got {values.shape}")
    tilted = bool(np.ptp(gamma) > rtol * np.abs(gamma).max())
    leaves = bool(abs(float(beta.sum())) > rtol * max(float(np.abs(beta).sum()), np.finfo(float).tiny))
    return AffineOutputSet(beta.copy(), tilted, leaves)


def layer_norm_output_curve(weight=None, bias=None, samples: int = 96, radius: float | None = None) -> np.ndarray:
    """Points β + γ ⊙ c of LayerNorm's output set in 3-D, c running round the circle S ∩ H;
    shape (samples, 3).

    S ∩ H is the circle of radius √3 (or ``radius``, e.g. ``layer_norm_output_radius`` for one
    σ under ε > 0) in the zero-mean plane, spanned by ``hyperplane_basis(3)``. With γ = 1 and
    β = 0 the curve is that circle. In general it is an ellipse centred at β (the samples'
    centroid is β; a segment or the point β if γ ⊙ u and γ ⊙ w are parallel), in the plane
    through β spanned by γ ⊙ u and γ ⊙ w; when no γᵢ is 0, (p − β)/γ undoes it onto S ∩ H.
    Each point's sum of entries is Σβᵢ + ⟨γ, c⟩, so the curve lies in H exactly when Σβᵢ = 0
    and γ is a multiple of 1 (⟨γ, c⟩ = 0 all round); for γ = g·1 it lies in the plane
    Σvᵢ = Σβᵢ, parallel to H at distance |Σβᵢ|/√3.

    >>> layer_norm_output_curve(samples=4).round(6) + 0.0  # + 0.0: no −0
    array([[ 1.224745, -1.224745,  0.      ],
           [ 0.707107,  0.707107, -1.414214],
           [-1.224745,  1.224745,  0.      ],
           [-0.707107, -0.707107,  1.414214]])
    """
    gamma = np.ones(3) if weight is None else as_finite_array(weight, "weight")
    beta = np.zeros(3) if bias is None else as_finite_array(bias, "bias")
    for name, values in (("weight", gamma), ("bias", beta)):
        if values.shape != (3,):
            raise ShapeError(f"{name} must have shape (3,), got {values.shape}")
    u, w = hyperplane_basis(3)
    circle = circle_in_plane(u, w, math.sqrt(3) if radius is None else radius, samples)
    return beta + gamma * circle
