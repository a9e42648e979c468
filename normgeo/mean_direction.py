"""Is the mean worth removing? Real tokens' angle to 1 and how far LayerNorm is from RMSNorm (E5).

Gupta, Ozdemir, Gong, Anumanchipalli (EACL Findings 2026) write LayerNorm as: remove the component
along 1, normalize, scale by √n; RMSNorm skips the first step. At ε = 0 and before γ, β both outputs
have length √n, and the angle ψ between them is arctan(|μ|/σ) (``centring_angle``), the complement
of the token's angle to the line of 1, atan2(σ, |μ|) = arccos(|⟨x, 1⟩|/(‖x‖·√n)). So
‖LN(x) − RMSNorm(x)‖/√n = 2·sin(ψ/2): tokens nearly orthogonal to 1 make the two layers nearly equal.

What a few tokens can show: in ℝⁿ a random direction is itself nearly orthogonal to 1 (its |cos|
is about 0.67/√n at the median), so "nearly orthogonal" is measured here against that chance level
too: the median angle to 1 of directions drawn uniformly on the sphere (``chance_angle_to_ones``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from normgeo.errors import ShapeError, ZeroVarianceError, ZeroVectorError
from normgeo.hidden_states import as_token_states, token_centring_angles, token_mean_and_spread
from normgeo.normalize import layer_norm, rms_norm
from normgeo.norms import euclidean_norm
from normgeo.validation import as_dimension

__all__ = ["MeanDirectionProfile", "angles_to_ones", "chance_angle_to_ones", "mean_direction_profile"]


def angles_to_ones(states) -> np.ndarray:
    """The angle (radians, in [0, π/2]) of every token to the line through 1: atan2(σ, |μ|).

    >>> np.degrees(angles_to_ones([[1.0, -1.0], [2.0, 2.0], [1.0, 0.0]])).round(6)
    array([90.,  0., 45.])
    """
    mean, spread = token_mean_and_spread(states)
    if np.any((mean == 0) & (spread == 0)):
        raise ZeroVectorError("a token is the zero vector: it makes no angle with 1")
    return np.arctan2(spread, np.abs(mean))


def chance_angle_to_ones(n: int) -> float:
    """The median angle (radians) between the line of 1 and a direction uniform on S^{n−1}.

    t = cos∠ has density ∝ (1 − t²)^{(n−3)/2} on [−1, 1]; the median m of |t| solves
    ∫₀^m (1 − t²)^{(n−3)/2} dt = ½∫₀¹ (same), found by the trapezoid rule on 200 001 points of
    [0, min(1, 12/√n)] (beyond which the density is below e^{−70} of its peak); n = 2 is π/4 exactly.
    Returns arccos m.

    >>> round(math.degrees(chance_angle_to_ones(2)), 9)
    45.0
    """
    n = as_dimension(n, "n", minimum=2)
    if n == 2:  # the density (1 − t²)^{−1/2} is singular at 1, but the angle itself is uniform
        return math.pi / 4
    t = np.linspace(0.0, min(1.0, 12.0 / math.sqrt(n)), 200_001)
    density = np.power(np.maximum(1.0 - t * t, 0.0), (n - 3) / 2)
    cumulative = np.concatenate([[0.0], np.cumsum((density[1:] + density[:-1]) / 2 * np.diff(t))])
    median = float(np.interp(cumulative[-1] / 2, cumulative, t))
    return math.acos(median)


@dataclass(frozen=True)
class MeanDirectionProfile:
    """Per layer (in order): the median and smallest angle of the tokens to 1, the median and largest
    angle ψ between LN(x) and RMSNorm(x), the median and largest ‖LN(x) − RMSNorm(x)‖/√n (ε = 0,
    before γ, β); and the chance level, the median angle to 1 of uniformly random directions."""

    n: int
    tokens: int
    median_angles: np.ndarray
    min_angles: np.ndarray
    median_centring_angles: np.ndarray
    max_centring_angles: np.ndarray
    median_distances: np.ndarray
    max_distances: np.ndarray
    chance_angle: float

    def nearly_orthogonal(self, degrees: float = 5.0) -> bool:
        """Every token of every layer is within ``degrees`` of orthogonal to 1."""
        return bool(np.all(self.min_angles >= math.radians(90.0 - degrees)))

    @property
    def layers_beyond_chance(self) -> int:
        """How many layers have their median angle to 1 closer to 90° than random directions do."""
        return int(np.sum(self.median_angles > self.chance_angle))


def mean_direction_profile(layers) -> MeanDirectionProfile:
    """The profile of a model's normalization inputs: ``layers`` is a sequence of (tokens, n) arrays,
    one per call, all of one n. Every token needs σ > 0 (LN of a constant token has no direction)."""
    arrays = [as_token_states(x, f"layers[{k}]") for k, x in enumerate(layers)]
    if not arrays:
        raise ShapeError("no layers to profile")
    if len({x.shape[1] for x in arrays}) > 1:
        raise ShapeError(f"every layer must have one width n; got {sorted({x.shape[1] for x in arrays})}")
    n = arrays[0].shape[1]
    angles, centring, distances = [], [], []
    for x in arrays:
        try:
            centring.append(token_centring_angles(x))
        except ZeroVarianceError as error:
            raise ZeroVarianceError(f"{error}; LN(x) has no direction to compare") from None
        angles.append(angles_to_ones(x))
        ln, rms = layer_norm(x, eps=0.0), rms_norm(x, eps=0.0)
        distances.append(euclidean_norm(ln - rms) / math.sqrt(n))

    def per_layer(values, reduce):
        return np.array([reduce(v) for v in values])

    return MeanDirectionProfile(n, int(sum(x.shape[0] for x in arrays)), per_layer(angles, np.median),
                                per_layer(angles, np.min), per_layer(centring, np.median),
                                per_layer(centring, np.max), per_layer(distances, np.median),
                                per_layer(distances, np.max), chance_angle_to_ones(n))
