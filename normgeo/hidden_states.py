"""Real hidden states at a normalization layer's input, token by token (D1, D2).

``states`` is an array (tokens, n): one row per token, the vector a LayerNorm or RMSNorm sees.
Every function measures along the last axis and is exact in float64:

- ‖x‖₂, the length that normalization removes (its growth across depth is the drift);
- |μ|·√n/‖x‖₂ = ‖μ·1‖₂/‖x‖₂, the mean part's share of the length: the cosine of the angle
  between x and 1, 0 on the zero-mean hyperplane;
- arctan(|μ|/σ), the angle between RMSNorm(x) and LN(x) (``normgeo.centring_angle``);
- the radius of the output before γ: √n·r/√(r² + ε), r the RMS (RMSNorm) or σ (LayerNorm);
- tokens whose norm is many times the layer's median (massive norms).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from normgeo.centring import centring_angle
from normgeo.errors import InvalidParameterError, ShapeError, ZeroVarianceError, ZeroVectorError
from normgeo.norms import euclidean_norm, root_mean_square
from normgeo.output_set import layer_norm_output_radius
from normgeo.validation import as_finite_array, as_nonnegative_number, as_positive_number

__all__ = [
    "as_token_states",
    "token_norms",
    "mean_share",
    "token_mean_and_spread",
    "token_centring_angles",
    "normalized_radius",
    "MassiveTokens",
    "massive_tokens",
]


def as_token_states(states, name: str = "states") -> np.ndarray:
    """``states`` as a finite float64 array (tokens, n) with n ≥ 2; (n,) is one token."""
    array = as_finite_array(states, name)
    if array.ndim == 1:
        array = array[None, :]
    if array.ndim != 2:
        raise ShapeError(f"{name} must have shape (tokens, n), got {array.shape}")
    if array.shape[1] < 2:
        raise ShapeError(f"{name} must have at least 2 features per token, got shape {array.shape}")
    return array


def token_norms(states) -> np.ndarray:
    """‖x‖₂ of every token, shape (tokens,).

    >>> token_norms([[3.0, 4.0], [6.0, 8.0]])
    array([ 5., 10.])
    """
    return euclidean_norm(as_token_states(states))


def token_mean_and_spread(states) -> tuple[np.ndarray, np.ndarray]:
    """μ and the biased σ of every token (σ² = mean((x − μ)²)), each of shape (tokens,).

    Computed on x/m, m = max|xᵢ|, so large states neither overflow nor lose digits.
    """
    x = as_token_states(states)
    scale = np.max(np.abs(x), axis=1, keepdims=True)
    safe = np.where(scale > 0, scale, 1.0)
    unit = x / safe
    mean = unit.mean(axis=1, keepdims=True)
    spread = np.sqrt(np.mean((unit - mean) ** 2, axis=1, keepdims=True))
    return (mean * safe)[:, 0], (spread * safe)[:, 0]


def mean_share(states) -> np.ndarray:
    """|μ|·√n/‖x‖₂ per token: the share of x's length in its mean part μ·1, in [0, 1].

    It is |cos ∠(x, 1)|; 0 means x lies on the zero-mean hyperplane, 1 that x is a multiple of 1.
    A zero token has no direction (``ZeroVectorError``).

    >>> mean_share([[1.0, 1.0], [1.0, -1.0], [3.0, 1.0]]).round(6)
    array([1.      , 0.      , 0.894427])
    """
    x = as_token_states(states)
    norms = euclidean_norm(x)
    if (norms == 0).any():
        raise ZeroVectorError(f"token {int(np.argmin(norms))} is the zero vector: it has no mean share")
    mean, _ = token_mean_and_spread(x)
    return np.minimum(np.abs(mean) * math.sqrt(x.shape[1]) / norms, 1.0)


def token_centring_angles(states) -> np.ndarray:
    """arctan(|μ|/σ) per token, in radians: the angle between RMSNorm(x) and LN(x).

    Needs σ > 0 for every token (LN(x) = 0 has no direction otherwise).

    >>> float(np.degrees(token_centring_angles([[2.0, 0.0]])[0]))
    45.0
    """
    mean, spread = token_mean_and_spread(states)
    if (spread == 0).any():
        raise ZeroVarianceError(f"token {int(np.argmin(spread))} is constant (σ = 0): LN of it has no direction")
    return centring_angle(mean / spread)


def normalized_radius(states, eps: float, centre: bool) -> np.ndarray:
    """‖x̂‖₂ before γ and β for every token: √n·r/√(r² + ε) with r = RMS(x) (RMSNorm, ``centre``
    False) or r = σ (LayerNorm, ``centre`` True). Equal to √n at ε = 0, below √n for ε > 0.

    >>> normalized_radius([[3.0, 4.0]], eps=0.0, centre=False).round(6), normalized_radius([[1.0, -1.0]], 1.0, True)
    (array([1.414214]), array([1.]))
    """
    x = as_token_states(states)
    eps = as_nonnegative_number(eps, "eps")
    if centre:
        _, spread = token_mean_and_spread(x)
        return layer_norm_output_radius(spread, x.shape[1], eps)
    rms = root_mean_square(x)
    if eps == 0 and (rms == 0).any():
        raise ZeroVectorError(f"token {int(np.argmin(rms))} is the zero vector: RMSNorm with ε = 0 is undefined")
    safe = np.where(rms > 0, rms, 1.0)
    ratio = np.where(rms > 0, math.sqrt(eps) / safe, np.inf)
    return math.sqrt(x.shape[1]) / np.hypot(1.0, ratio)


@dataclass(frozen=True)
class MassiveTokens:
    """Tokens whose norm is at least ``factor`` times the median token norm of the layer."""

    factor: float
    median: float
    indices: tuple[int, ...]
    ratios: np.ndarray  # every token's norm / median, shape (tokens,)

    @property
    def largest_ratio(self) -> float:
        return float(self.ratios.max())


def massive_tokens(norms, factor: float = 10.0) -> MassiveTokens:
    """The tokens of one layer whose ‖x‖₂ is ≥ ``factor`` × the median ‖x‖₂ of all its tokens.

    >>> massive_tokens([20000.0, 150.0, 140.0, 160.0]).indices
    (0,)
    """
    norms = as_finite_array(norms, "norms")
    if norms.ndim != 1:
        raise ShapeError(f"norms must have shape (tokens,), got {norms.shape}")
    if (norms < 0).any():
        raise InvalidParameterError("norms must be ≥ 0")
    factor = as_positive_number(factor, "factor")
    median = float(np.median(norms))
    if median == 0:
        raise ZeroVectorError("the median token norm is 0: no scale to compare with")
    ratios = norms / median
    return MassiveTokens(factor, median, tuple(int(i) for i in np.flatnonzero(ratios >= factor)), ratios)
