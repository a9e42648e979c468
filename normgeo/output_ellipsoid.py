"""γ's stretch: the principal axes of the output ellipsoid γ ⊙ S or γ ⊙ (S ∩ H) (after Riechers 2024).

Before γ (ε = 0) RMSNorm's outputs lie on the sphere S of radius √n and LayerNorm's on S ∩ H,
H the zero-mean hyperplane. y = γ ⊙ x̂ maps that sphere onto an ellipsoid: for RMSNorm its
semi-axes are √n·|γᵢ| along the coordinate axes; for LayerNorm they are √n times the singular
values of diag(γ) restricted to H, i.e. √n·√λ for the non-zero eigenvalues λ of P·diag(γ²)·P,
P = I − 11ᵀ/n (one eigenvalue is 0, along 1). β only moves the ellipsoid.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from normgeo.errors import ShapeError
from normgeo.validation import as_finite_array

__all__ = ["OutputEllipsoid", "output_ellipsoid"]


@dataclass(frozen=True)
class OutputEllipsoid:
    """The semi-axes of the output set after γ, longest first, and the radius √n before γ."""

    semi_axes: np.ndarray
    radius: float

    @property
    def stretch(self) -> float:
        """Longest semi-axis over the shortest (inf if γ flattens a direction to 0)."""
        shortest = float(self.semi_axes[-1])
        return math.inf if shortest == 0 else float(self.semi_axes[0]) / shortest

    @property
    def is_round(self) -> bool:
        """Every semi-axis equal (to 1e-9 relative): γ scales the sphere by one factor, so the output
        set is still a sphere (in 2-D a circle), not an ellipsoid.

        >>> output_ellipsoid([2.0, 2.0], centred=False).is_round, output_ellipsoid([1.7, 0.55], centred=False).is_round
        (True, False)
        """
        return bool(self.semi_axes[0] - self.semi_axes[-1] <= 1e-9 * self.semi_axes[0])

    @property
    def longest(self) -> float:
        return float(self.semi_axes[0])

    @property
    def shortest(self) -> float:
        return float(self.semi_axes[-1])


def output_ellipsoid(weight, centred: bool) -> OutputEllipsoid:
    """The ellipsoid γ ⊙ S (``centred`` False: RMSNorm, n semi-axes) or γ ⊙ (S ∩ H) (``centred``
    True: LayerNorm, n − 1 semi-axes), S of radius √n, n = len(γ), at ε = 0.

    >>> output_ellipsoid([1.0, 2.0, 0.5, 1.0], centred=False).semi_axes
    array([4., 2., 2., 1.])
    >>> output_ellipsoid([3.0, 3.0, 3.0], centred=True).semi_axes.round(6)
    array([5.196152, 5.196152])
    """
    gamma = as_finite_array(weight, "weight")
    if gamma.ndim != 1 or gamma.size < 2:
        raise ShapeError(f"weight must have shape (n,) with n ≥ 2, got {gamma.shape}")
    n = gamma.size
    radius = math.sqrt(n)
    if not centred:
        return OutputEllipsoid(np.sort(np.abs(gamma))[::-1] * radius, radius)
    scale = float(np.max(np.abs(gamma))) or 1.0
    g = gamma / scale
    projector = np.eye(n) - 1.0 / n
    eigenvalues = np.linalg.eigvalsh(projector @ np.diag(g * g) @ projector)
    kept = np.sort(np.clip(eigenvalues, 0.0, None))[::-1][: n - 1]  # drop the zero along 1
    return OutputEllipsoid(np.sqrt(kept) * scale * radius, radius)
