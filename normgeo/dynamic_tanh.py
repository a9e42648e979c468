"""Dynamic tanh (Zhu et al. 2025, "Transformers without Normalization") and the S-curve it fits (C5).

DyT(x) = γ·tanh(αx) + β, elementwise: no mean, no σ, no sphere, no lost degree of freedom;
its outputs are squashed into the box |yᵢ − βᵢ| ≤ |γᵢ|. Zhu et al. replaced LayerNorm by it
after plotting a trained LayerNorm's inputs against its outputs: for one token the map over
its channels is a straight line of slope 1/σ (intercept −μ/σ), and tokens with large-magnitude
channels have large σ, hence flat lines that reach far out; the union over tokens is S-shaped.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from normgeo.errors import ShapeError
from normgeo.normalize import _apply_affine, layer_norm
from normgeo.validation import as_dimension, as_finite_array, as_positive_number

__all__ = ["dynamic_tanh", "DynamicTanhFit", "dynamic_tanh_fit"]


def dynamic_tanh(x, alpha: float, weight=None, bias=None) -> np.ndarray:
    """γ·tanh(αx) + β elementwise, γ (``weight``) and β (``bias``) of length n broadcast over the last axis.

    With β = 0 it is odd; |DyT(x)ᵢ| ≤ |γᵢ| + |βᵢ| always; for α > 0 and γᵢ > 0 it is increasing
    in xᵢ, with slope α·γᵢ at xᵢ = 0.

    >>> dynamic_tanh([0.0, 100.0], alpha=0.5, weight=[2.0, 2.0], bias=[1.0, 0.0])
    array([1., 2.])
    """
    array = as_finite_array(x)
    alpha = as_finite_array(alpha, "alpha", min_ndim=0)
    if alpha.ndim:
        raise ShapeError(f"alpha must be one number, got shape {alpha.shape}")
    return _apply_affine(np.tanh(float(alpha) * array), weight, bias, -1, "dynamic_tanh")


def _linear_fit(features: np.ndarray, ys: np.ndarray) -> tuple[float, float, float]:
    """Least-squares a, b of y ≈ a·f + b (closed form) and the RMS residual."""
    f_mean, y_mean = features.mean(), ys.mean()
    centred = features - f_mean
    a = float(np.sum(centred * (ys - y_mean)) / np.sum(centred * centred))
    b = float(y_mean - a * f_mean)
    return a, b, float(np.sqrt(np.mean((a * features + b - ys) ** 2)))


_GOLDEN = (math.sqrt(5) - 1) / 2


def _fit_alpha(xs: np.ndarray, ys: np.ndarray, low: float, high: float, grid: int = 200, rounds: int = 60):
    """α minimizing the RMS residual of the best γ·tanh(αx) + β: a grid over log α on
    [low, high], then golden-section search between the best grid point's neighbours."""
    residual = lambda log_alpha: _linear_fit(np.tanh(math.exp(log_alpha) * xs), ys)[2]  # noqa: E731
    logs = np.linspace(math.log(low), math.log(high), grid)
    values = [residual(v) for v in logs]
    best = int(np.argmin(values))
    a, b = logs[max(best - 1, 0)], logs[min(best + 1, grid - 1)]
    c, d = b - _GOLDEN * (b - a), a + _GOLDEN * (b - a)
    fc, fd = residual(c), residual(d)
    for _ in range(rounds):
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - _GOLDEN * (b - a)
            fc = residual(c)
        else:
            a, c, fc = c, d, fd
            d = a + _GOLDEN * (b - a)
            fd = residual(d)
    candidates = [(values[best], logs[best]), (fc, c), (fd, d)]
    return math.exp(min(candidates)[1])


@dataclass(frozen=True)
class DynamicTanhFit:
    """A seeded LayerNorm input/output picture and the DyT curve fitted to it.

    ``inputs`` and ``outputs`` are (tokens, channels), outputs = LN(inputs) at ε = 0 without
    γ, β. Token t's points lie on the line y = slopes[t]·x + intercepts[t] (slope 1/σ_t,
    intercept −μ_t/σ_t). ``alpha``, ``weight``, ``bias`` are the least-squares fit of
    γ·tanh(αx) + β (one scalar each) to the union of all points, ``residual`` its RMS
    residual; ``line_*`` the best single straight line through the same union.
    """

    inputs: np.ndarray
    outputs: np.ndarray
    slopes: np.ndarray
    intercepts: np.ndarray
    alpha: float
    weight: float
    bias: float
    residual: float
    line_slope: float
    line_intercept: float
    line_residual: float

    def is_s_curve(self, ratio: float = 0.8) -> bool:
        """The union is S-shaped in the sense that a tanh fits it clearly better than a straight line:
        the tanh's RMS residual is at most ``ratio`` times the best line's."""
        return bool(self.residual <= ratio * self.line_residual)

    @property
    def last_token_flatter(self) -> bool:
        """The last token (largest large channels) has the flattest line of the first and the last:
        slope 1/σ_last < 1/σ_first, i.e. its large channels make its σ larger."""
        return bool(self.slopes[-1] < self.slopes[0])

    def fitted(self, x) -> np.ndarray:
        """The fitted DyT curve γ·tanh(αx) + β at ``x``."""
        return self.weight * np.tanh(self.alpha * as_finite_array(x, min_ndim=0)) + self.bias


def dynamic_tanh_fit(tokens: int = 12, channels: int = 64, massive_channels: int = 2,
                     largest_massive: float = 60.0, seed: int = 0) -> DynamicTanhFit:
    """Simulate a LayerNorm's inputs across tokens and fit DyT to its input→output points.

    Each token's channels are N(m_t, 1) with a token mean m_t ~ N(0, 0.3²); a few
    ``massive_channels`` (the same ones for every token, as in trained transformers) get an
    extra ±M_t·U(0.5, 1) with M_t running geometrically from 1 to ``largest_massive`` across
    tokens. Tokens with large M_t have large σ_t, so flat lines reaching far out; the others
    steep lines near 0: together an S-curve. α is searched on [10⁻³, 10].
    """
    tokens = as_dimension(tokens, "tokens", minimum=2)
    channels = as_dimension(channels, "channels", minimum=2)
    massive_channels = as_dimension(massive_channels, "massive_channels", minimum=0)
    if massive_channels >= channels:
        raise ShapeError(f"massive_channels ({massive_channels}) must be fewer than channels ({channels})")
    largest = as_positive_number(largest_massive, "largest_massive")
    rng = np.random.default_rng(seed)
    inputs = rng.normal(loc=rng.normal(scale=0.3, size=(tokens, 1)), size=(tokens, channels))
    if massive_channels:
        which = rng.choice(channels, size=massive_channels, replace=False)
        sizes = np.geomspace(1.0, max(largest, 1.0), tokens)[:, None]
        signs = rng.choice([-1.0, 1.0], size=(tokens, massive_channels))
        inputs[:, which] += sizes * signs * rng.uniform(0.5, 1.0, size=(tokens, massive_channels))
    outputs = layer_norm(inputs, eps=0.0)
    sigma = inputs.std(axis=1)
    slopes, intercepts = 1.0 / sigma, -inputs.mean(axis=1) / sigma
    xs, ys = inputs.ravel(), outputs.ravel()
    alpha = _fit_alpha(xs, ys, 1e-3, 10.0)
    weight, bias, residual = _linear_fit(np.tanh(alpha * xs), ys)
    line_slope, line_intercept, line_residual = _linear_fit(xs, ys)
    return DynamicTanhFit(inputs, outputs, slopes, intercepts, alpha, weight, bias, residual,
                          line_slope, line_intercept, line_residual)
