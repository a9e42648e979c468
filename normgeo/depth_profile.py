"""One normalization layer's real inputs summarized, and how a statistic changes across depth.

``layer_profile`` gathers, for the tokens at one layer, everything ``hidden_states``,
``output_ellipsoid`` and ``effective_dimension`` measure, and checks the captured outputs
against the law: before γ and β, ‖(y − β)/γ‖₂ = √n·r/√(r² + ε).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from normgeo.effective_dimension import EffectiveDimension, output_span, participation_ratio
from normgeo.errors import ShapeError, ZeroVarianceError
from normgeo.hidden_states import (
    MassiveTokens,
    as_token_states,
    massive_tokens,
    mean_share,
    normalized_radius,
    token_centring_angles,
    token_norms,
)
from normgeo.normalize import layer_norm, rms_norm
from normgeo.norms import euclidean_norm
from normgeo.output_ellipsoid import OutputEllipsoid, output_ellipsoid
from normgeo.validation import as_finite_array, as_nonnegative_number

__all__ = ["LayerProfile", "layer_profile", "DepthTrend", "depth_trend", "median_norm_trend", "DepthSummary", "depth_summary"]


@dataclass(frozen=True)
class LayerProfile:
    """Per token: ‖x‖₂, the mean's share, the RMSNorm–LN angle (None if a token has σ = 0), the
    radius before γ by the law and as captured (None without outputs or with a γᵢ = 0); for the
    layer: the massive tokens, the participation ratio of the normalized states, γ's ellipsoid."""

    n: int
    eps: float
    centred: bool
    norms: np.ndarray
    mean_shares: np.ndarray
    angles: np.ndarray | None
    radii: np.ndarray
    measured_radii: np.ndarray | None
    massive: MassiveTokens
    dimension: EffectiveDimension | None
    ellipsoid: OutputEllipsoid | None


def layer_profile(inputs, eps: float, centred: bool, weight=None, bias=None, outputs=None,
                  factor: float = 10.0) -> LayerProfile:
    """Profile one layer: LayerNorm if ``centred``, else RMSNorm, with this ε, γ (weight), β (bias)
    and, if given, the outputs it produced (same shape as ``inputs``)."""
    x = as_token_states(inputs, "inputs")
    eps = as_nonnegative_number(eps, "eps")
    n = x.shape[1]
    gamma = None if weight is None else _vector(weight, "weight", n)
    beta = None if bias is None else _vector(bias, "bias", n)
    try:
        angles = token_centring_angles(x)
    except ZeroVarianceError:
        angles = None
    normalized = layer_norm(x, eps=eps) if centred else rms_norm(x, eps=eps)
    try:
        dimension = participation_ratio(normalized, output_span(centred, n))
    except (ShapeError, ValueError):
        dimension = None
    measured = None
    if outputs is not None:
        y = as_token_states(outputs, "outputs")
        if y.shape != x.shape:
            raise ShapeError(f"outputs have shape {y.shape}, inputs {x.shape}")
        if gamma is None or (gamma != 0).all():
            before_gamma = (y - (0.0 if beta is None else beta)) / (1.0 if gamma is None else gamma)
            measured = euclidean_norm(before_gamma)
    norms = token_norms(x)
    return LayerProfile(n, eps, centred, norms, mean_share(x), angles, normalized_radius(x, eps, centred), measured,
                        massive_tokens(norms, factor), dimension,
                        None if gamma is None else output_ellipsoid(gamma, centred))


def _vector(values, name: str, n: int) -> np.ndarray:
    array = as_finite_array(values, name)
    if array.shape != (n,):
        raise ShapeError(f"{name} must have shape ({n},), got {array.shape}")
    return array


@dataclass(frozen=True)
class DepthTrend:
    """A statistic from the first layer to the last: its ends, their ratio, and how many of the
    steps between neighbouring layers rise."""

    first: float
    last: float
    rises: int
    steps: int

    @property
    def ratio(self) -> float:
        return self.last / self.first

    @property
    def grows(self) -> bool:
        """The last value is above the first (a net growth, whatever happens between)."""
        return self.last > self.first


def depth_trend(values) -> DepthTrend:
    """The trend of a positive statistic given per layer, in order of depth.

    >>> t = depth_trend([2.0, 50.0, 40.0, 600.0]); (t.grows, t.rises, t.steps, t.ratio)
    (True, 2, 3, 300.0)
    """
    values = as_finite_array(values, "values")
    if values.ndim != 1 or values.size < 2:
        raise ShapeError(f"a trend needs values for at least 2 layers, got shape {values.shape}")
    if (values <= 0).any():
        raise ShapeError("a trend is taken of positive values only")
    return DepthTrend(float(values[0]), float(values[-1]), int(np.sum(np.diff(values) > 0)), values.size - 1)


def median_norm_trend(layers) -> DepthTrend:
    """The trend of the median token's ‖x‖₂ over normalization layers given in order of depth, each
    as its input token states (tokens × n): in a pre-norm stack each layer reads the residual stream,
    so this is how the length the layers remove from what they output drifts in the stream itself.

    >>> t = median_norm_trend([[[3.0, 4.0], [0.0, 1.0], [1.0, 0.0]], [[6.0, 8.0], [0.0, 2.0], [9.0, 0.0]]])
    >>> (t.first, t.last, t.steps)
    (1.0, 9.0, 1)
    """
    return depth_trend([float(np.median(token_norms(as_token_states(x, "layer states")))) for x in layers])


@dataclass(frozen=True)
class DepthSummary:
    """Per layer, in order of depth: the median and largest token norm (and which token is largest),
    the median and largest mean share, the median and largest RMSNorm–LN angle (radians), the
    smallest and largest radius before γ by the law and as captured, and the participation ratio."""

    median_norms: np.ndarray
    max_norms: np.ndarray
    max_tokens: np.ndarray
    median_shares: np.ndarray
    max_shares: np.ndarray
    median_angles: np.ndarray
    max_angles: np.ndarray
    min_radii: np.ndarray
    max_radii: np.ndarray
    min_measured: np.ndarray  # NaN where a layer has no captured output to measure
    max_measured: np.ndarray
    ratios: np.ndarray  # participation ratios (NaN where undefined)
    largest_ratios: np.ndarray  # per layer, the largest token norm over the median
    massive_counts: np.ndarray  # per layer, how many tokens are massive
    norm_trend: DepthTrend


def depth_summary(profiles) -> DepthSummary:
    """Summarize ``LayerProfile`` s given in order of depth (at least 2)."""
    profiles = list(profiles)
    if len(profiles) < 2:
        raise ShapeError(f"a depth summary needs at least 2 layers, got {len(profiles)}")

    def each(function):
        return np.array([function(p) for p in profiles], dtype=np.float64)

    nan = float("nan")
    median_norms = each(lambda p: np.median(p.norms))
    return DepthSummary(
        median_norms=median_norms,
        max_norms=each(lambda p: p.norms.max()),
        max_tokens=np.array([int(np.argmax(p.norms)) for p in profiles]),
        median_shares=each(lambda p: np.median(p.mean_shares)),
        max_shares=each(lambda p: p.mean_shares.max()),
        median_angles=each(lambda p: nan if p.angles is None else np.median(p.angles)),
        max_angles=each(lambda p: nan if p.angles is None else p.angles.max()),
        min_radii=each(lambda p: p.radii.min()),
        max_radii=each(lambda p: p.radii.max()),
        min_measured=each(lambda p: nan if p.measured_radii is None else p.measured_radii.min()),
        max_measured=each(lambda p: nan if p.measured_radii is None else p.measured_radii.max()),
        ratios=each(lambda p: nan if p.dimension is None else p.dimension.ratio),
        largest_ratios=each(lambda p: p.massive.largest_ratio),
        massive_counts=np.array([len(p.massive.indices) for p in profiles]),
        norm_trend=depth_trend(median_norms),
    )
