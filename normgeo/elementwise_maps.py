"""Element-wise maps in place of a norm: DyT, Derf, DyISRU (E4), their boxes and an outlier channel.

Each acts on every entry alone (before any γ, β):

- dyt     tanh(αx)                      Zhu et al. (CVPR 2025); values in (−1, 1)
- derf    erf(αx + s)                   Chen et al. (2025); values in (−1, 1), erf(s) at x = 0
- dyisru  c·x/√(β + x²)                 Stollenwerk (2025); values in (−c, c). With c = √C (C the
                                        number of channels) it is RMSNorm's exact element-wise
                                        counterpart: RMSNorm(x)ᵢ = √C·xᵢ/√(Σⱼ≠ᵢ xⱼ² + xᵢ²) at ε = 0, so
                                        DyISRU with β = Σⱼ≠ᵢ xⱼ² gives entry i exactly, and both are
                                        bounded by ±√C per entry; the learned β is one number for all.

So a batch of tokens lands in a box (an open cube of half-width 1, or c), not on a sphere. An
outlier channel: RMSNorm divides the whole token by its RMS, so one huge entry shrinks every other
entry of that token; an element-wise map leaves the others exactly as they were.
The four properties Chen et al. name (zero-centred, bounded, sensitive near 0, monotonic) are
checked here numerically on samples, so a setting (say s ≠ 0) that breaks one is reported.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from normgeo.dynamic_tanh import dynamic_tanh
from normgeo.errors import InvalidParameterError, ShapeError
from normgeo.hidden_states import as_token_states
from normgeo.normalize import rms_norm
from normgeo.validation import as_dimension, as_finite_array, as_positive_number

__all__ = [
    "ELEMENTWISE_MAPS",
    "MapProperties",
    "MapsOnTokens",
    "OutlierEffect",
    "elementwise_map",
    "map_bound",
    "map_properties",
    "maps_on_tokens",
    "outlier_effect",
]

ELEMENTWISE_MAPS = ("dyt", "derf", "dyisru")
_erf = np.frompyfunc(math.erf, 1, 1)


def _number(value, name: str) -> float:
    array = as_finite_array(value, name, min_ndim=0)
    if array.ndim:
        raise InvalidParameterError(f"{name} must be one number, got shape {array.shape}")
    return float(array)


def elementwise_map(name: str, x, alpha: float = 1.0, shift: float = 0.0, beta: float = 1.0,
                    scale: float = 1.0) -> np.ndarray:
    """The map ``name`` on every entry of x: dyt tanh(αx), derf erf(αx + s), dyisru c·x/√(β + x²)
    (module docstring); "identity" returns x (a control that is not bounded).

    >>> elementwise_map("dyisru", [0.0, 3.0], beta=16.0, scale=5.0)
    array([0., 3.])
    """
    array = as_finite_array(x)
    alpha, shift = _number(alpha, "alpha"), _number(shift, "shift")
    if name == "dyt":
        return dynamic_tanh(array, alpha)
    if name == "derf":
        return _erf(alpha * array + shift).astype(np.float64)
    if name == "dyisru":
        beta, scale = as_positive_number(beta, "beta"), as_positive_number(scale, "scale")
        # x/√(β + x²) = sign(x)/√(β/x² + 1), written on x/m (m = max(|x|, √β)) so x² never overflows
        m = np.maximum(np.abs(array), math.sqrt(beta))
        return scale * (array / m) / np.sqrt((math.sqrt(beta) / m) ** 2 + (array / m) ** 2)
    if name == "identity":
        return array
    raise InvalidParameterError(f"unknown map {name!r}; choose one of {', '.join(ELEMENTWISE_MAPS)} or identity")


def map_bound(name: str, scale: float = 1.0) -> float:
    """The supremum of |f| (never reached): 1 for dyt and derf, c (``scale``) for dyisru."""
    if name in ("dyt", "derf"):
        return 1.0
    if name == "dyisru":
        return as_positive_number(scale, "scale")
    raise InvalidParameterError(f"map {name!r} has no bound; choose one of {', '.join(ELEMENTWISE_MAPS)}")


@dataclass(frozen=True)
class MapProperties:
    """The four properties, measured: f(0), the central-difference slope at 0, the largest sampled
    slope, the largest |f| near and far; and the verdicts drawn from them."""

    name: str
    value_at_zero: float
    slope_at_zero: float
    largest_slope: float
    largest_near: float  # max |f| over |x| ≤ span
    largest_middle: float  # max |f| over |x| ≤ span·10³
    largest_far: float  # max |f| over |x| ≤ span·10⁶
    zero_centred: bool
    bounded: bool
    sensitive_near_zero: bool
    monotonic: bool


def map_properties(name: str, alpha: float = 1.0, shift: float = 0.0, beta: float = 1.0, scale: float = 1.0,
                   span: float = 1e3, samples: int = 20001, tolerance: float = 1e-9) -> MapProperties:
    """Check the four properties of one map on samples:

    - zero-centred: |f(0)| ≤ ``tolerance``;
    - bounded: with g(X) the largest |f| over |x| ≤ X, the growth g(span·10⁶) − g(span·10³) is at
      most 1% of g(span·10³) − g(span) (or below 10⁻¹² of g): the values stop growing, where x, log x
      or any unbounded map keeps growing as much or more over the second factor 10³;
    - sensitive near 0: the slope at 0 (central difference, h = 10⁻⁶) is positive and at least half
      the largest slope found on the grid (no flat zone around 0);
    - monotonic: non-decreasing along ``samples`` sorted points of [−span, span] (and the far ones).
    """
    span = as_positive_number(span, "span")
    samples = as_dimension(samples, "samples", minimum=3)
    f = lambda x: elementwise_map(name, x, alpha, shift, beta, scale)  # noqa: E731
    near = np.concatenate([-np.geomspace(span, 1e-6, samples // 2), [0.0], np.geomspace(1e-6, span, samples // 2)])
    far = np.concatenate([-np.geomspace(span * 1e6, span, 61), near, np.geomspace(span, span * 1e6, 61)])
    values_near, values_far = f(near), f(far)
    largest_middle = float(np.max(np.abs(values_far[np.abs(far) <= span * 1e3])))
    h = 1e-6
    slope_zero = float((f(np.array([h]))[0] - f(np.array([-h]))[0]) / (2 * h))
    slopes = np.diff(values_near) / np.diff(near)
    largest_near, largest_far = float(np.max(np.abs(values_near))), float(np.max(np.abs(values_far)))
    value_zero = float(f(np.array([0.0]))[0])
    largest_slope = float(max(slopes.max(), slope_zero))
    first, second = largest_middle - largest_near, largest_far - largest_middle
    return MapProperties(
        name, value_zero, slope_zero, largest_slope, largest_near, largest_middle, largest_far,
        zero_centred=abs(value_zero) <= tolerance,
        bounded=second <= 0.01 * first or second <= 1e-12 * largest_far,
        sensitive_near_zero=slope_zero > 0 and slope_zero >= 0.5 * largest_slope,
        monotonic=bool(np.all(np.diff(values_far) >= 0)),
    )


@dataclass(frozen=True)
class OutlierEffect:
    """One token before and after channel ``channel`` is set to ``value``. Per map (``names``,
    RMSNorm last): ``others`` = the median over the other channels of output after/before (1 for
    every element-wise map; RMS(before)/RMS(after) for RMSNorm), and the outlier's own output."""

    names: tuple[str, ...]
    channel: int
    value: float
    others: tuple[float, ...]
    outlier_outputs: tuple[float, ...]

    def factor(self, name: str) -> float:
        return self.others[self.names.index(name)]

    def shrinks_others(self, name: str, tolerance: float = 1e-12) -> bool:
        """The outlier scales the token's other outputs down (by more than ``tolerance``)."""
        return self.factor(name) < 1 - tolerance


def outlier_effect(token, channel: int, value: float, alpha: float = 1.0, shift: float = 0.0, beta: float = 1.0,
                   scale: float = 1.0) -> OutlierEffect:
    """Set ``token[channel]`` to ``value`` and compare every other channel's output with what it was,
    for dyt, derf, dyisru and RMSNorm (ε = 0). The other channels must be non-zero."""
    x = as_token_states(token, "token")
    if x.shape[0] != 1:
        raise ShapeError(f"token must be one vector, got shape {x.shape}")
    x = x[0]
    if isinstance(channel, bool) or not isinstance(channel, (int, np.integer)) or not 0 <= channel < x.size:
        raise InvalidParameterError(f"channel must be an index in [0, {x.size}), got {channel!r}")
    others = np.arange(x.size) != channel
    if np.any(x[others] == 0):
        raise InvalidParameterError("the other channels must be non-zero: a ratio of outputs needs them")
    changed = x.copy()
    changed[channel] = _number(value, "value")
    names = (*ELEMENTWISE_MAPS, "rmsnorm")
    factors, outputs = [], []
    for name in names:
        if name == "rmsnorm":
            before, after = rms_norm(x, eps=0.0), rms_norm(changed, eps=0.0)
        else:
            before = elementwise_map(name, x, alpha, shift, beta, scale)
            after = elementwise_map(name, changed, alpha, shift, beta, scale)
        if np.any(before[others] == 0):
            raise InvalidParameterError(f"{name} maps another channel to 0 here: no ratio to report")
        factors.append(float(np.median(after[others] / before[others])))
        outputs.append(float(after[channel]))
    return OutlierEffect(names, int(channel), float(changed[channel]), tuple(factors), tuple(outputs))


@dataclass(frozen=True)
class MapsOnTokens:
    """The same tokens (rows of ``inputs``) through each of ``ELEMENTWISE_MAPS`` (``outputs`` in that
    order) and RMSNorm at ε = 0: each map's box half-width (``bounds``) and the largest |y| it
    reached, and the RMSNorm outputs' token lengths (all √n: a sphere, not a box)."""

    inputs: np.ndarray
    outputs: tuple[np.ndarray, ...]
    bounds: tuple[float, ...]
    largest: tuple[float, ...]
    rms_outputs: np.ndarray
    rms_lengths: np.ndarray

    def inside_box(self, name: str) -> bool:
        """Every output entry of ``name`` lies in its box, |y| ≤ bound. (The maps never reach the
        bound, but in float64 tanh and erf round to exactly ±1 once |αx| is beyond about 19 and 6.)"""
        index = ELEMENTWISE_MAPS.index(name)
        return bool(self.largest[index] <= self.bounds[index])


def maps_on_tokens(tokens, alpha: float = 1.0, shift: float = 0.0, beta: float = 1.0,
                   scale: float = 1.0) -> MapsOnTokens:
    """Each element-wise map and RMSNorm on the tokens (tokens, n), e.g. ``dynamic_tanh_fit().inputs``."""
    x = as_token_states(tokens, "tokens")
    outputs = tuple(elementwise_map(name, x, alpha, shift, beta, scale) for name in ELEMENTWISE_MAPS)
    rms = rms_norm(x, eps=0.0)
    return MapsOnTokens(x, outputs, tuple(map_bound(name, scale) for name in ELEMENTWISE_MAPS),
                        tuple(float(np.max(np.abs(y))) for y in outputs), rms, np.linalg.norm(rms, axis=1))
