"""Where the length goes with depth: the residual stream under four arrangements of the norm (E1). A toy.

The sub-layer is F(x) = W_ℓ·x with W_ℓ the random matrices of ``make_stack`` (entries N(0, s²/n)),
applied to every token (row) of a seeded batch; LN is LayerNorm at ε = 0 without γ, β:

- post    x ← LN(x + F(x))                 (the stream is renormalized: ‖x‖ = √n after every block)
- pre     x ← x + F(LN(x))                 (nothing removes the length: E‖x_L‖² = ‖x₀‖² + L·s²·n)
- peri    x ← x + LN(F(LN(x)))             (Kim et al. 2025: each update has length √n exactly, so
                                            ‖x_ℓ‖ ≤ ‖x₀‖ + ℓ·√n whatever W is, and W's scale drops out)
- scaled  x ← x + F(LN(x)/√ℓ), ℓ = 1 … L    (LayerNorm Scaling, Sun et al. 2025:
                                            E‖x_L‖² = ‖x₀‖² + s²·n·Σ 1/ℓ, a logarithmic growth)

Per depth: the median token norm, the median of the tokens' σ² (what LN divides by); per block: the
median relative change ‖x_{ℓ+1} − x_ℓ‖/‖x_ℓ‖ and the median cosine between x_ℓ and x_{ℓ+1}. A block
whose relative change is small is close to the identity map on the stream: "blocks drift toward
identity" means this number falls with depth. The expectations above are over the random W (fresh
W_ℓ is independent of x_ℓ); one stack shows them up to sampling noise.

What the toy cannot show: with fixed-scale random sub-layers pre-norm's σ² grows only linearly, so
the 1/√ℓ of LayerNorm Scaling makes deep blocks *closer* to the identity here, not farther; Sun et
al.'s argument concerns trained models whose variance grows much faster. Say only what it shows.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from normgeo.centring import angle_between
from normgeo.depth_profile import DepthTrend, depth_trend
from normgeo.errors import InvalidParameterError, ShapeError, ZeroVectorError
from normgeo.hidden_states import as_token_states, token_norms
from normgeo.normalize import layer_norm
from normgeo.norms import euclidean_norm
from normgeo.residual_stacks import make_stack
from normgeo.validation import as_dimension, as_finite_array, as_positive_number

__all__ = [
    "STREAM_ARRANGEMENTS",
    "StreamProfile",
    "StreamStudy",
    "stream_depth_study",
    "stream_profile",
    "stream_profile_of_calls",
    "stream_states",
]

STREAM_ARRANGEMENTS = ("post", "pre", "peri", "scaled")


def _check(arrangement: str) -> str:
    if arrangement not in STREAM_ARRANGEMENTS:
        choices = ", ".join(STREAM_ARRANGEMENTS)
        raise InvalidParameterError(f"unknown arrangement {arrangement!r}; choose one of {choices}")
    return arrangement


def _ln(x: np.ndarray) -> np.ndarray:
    return layer_norm(x, eps=0.0)


def stream_states(weights, start, arrangement: str) -> np.ndarray:
    """x₀ … x_L for the tokens ``start`` (tokens, n) through sub-layers ``weights`` (L, n, n) arranged
    as ``arrangement``; shape (L + 1, tokens, n). Neither input is changed."""
    _check(arrangement)
    x = as_token_states(start, "start")
    weights = as_finite_array(weights, "weights", min_ndim=3)
    if weights.ndim != 3 or weights.shape[1:] != (x.shape[1], x.shape[1]):
        raise ShapeError(f"weights must have shape (L, {x.shape[1]}, {x.shape[1]}) for tokens of width "
                         f"{x.shape[1]}, got {weights.shape}")
    states = [x]
    for depth, w in enumerate(weights, start=1):
        if arrangement == "post":
            x = _ln(x + x @ w.T)
        elif arrangement == "pre":
            x = x + _ln(x) @ w.T
        elif arrangement == "peri":
            x = x + _ln(_ln(x) @ w.T)
        else:
            x = x + (_ln(x) / math.sqrt(depth)) @ w.T
        states.append(x)
    return np.stack(states)


@dataclass(frozen=True)
class StreamProfile:
    """One arrangement's stream against depth: ``median_norms`` and ``variances`` at depths 0 … L
    (variances: the median over tokens of each token's biased σ²), ``relative_changes`` and
    ``cosines`` for blocks 1 … L (medians over tokens), ``norm_trend`` of the median norms."""

    arrangement: str
    median_norms: np.ndarray
    variances: np.ndarray
    relative_changes: np.ndarray
    cosines: np.ndarray
    norm_trend: DepthTrend

    def norm_verdict(self, tolerance: float = 0.05) -> str:
        """"grows", "shrinks" or "flat": the last median norm against the first, with a relative
        ``tolerance`` for "flat"."""
        ratio = self.norm_trend.ratio
        if ratio > 1 + tolerance:
            return "grows"
        if ratio < 1 - tolerance:
            return "shrinks"
        return "flat"

    def approaches_identity(self, factor: float = 2.0) -> bool:
        """The last block changes the stream at least ``factor`` times less (relative change) than
        the first block does."""
        return bool(self.relative_changes[-1] * factor <= self.relative_changes[0])


def stream_profile(states, arrangement: str) -> StreamProfile:
    """The profile of states (L + 1, tokens, n) as ``stream_states`` returns them."""
    states = as_finite_array(states, "states", min_ndim=3)
    if states.ndim != 3 or states.shape[0] < 2 or states.shape[2] < 2:
        raise ShapeError(f"states must have shape (depths ≥ 2, tokens, n ≥ 2), got {states.shape}")
    zero = np.argwhere(np.all(states == 0, axis=2))
    if zero.size:
        raise ZeroVectorError(f"token {int(zero[0][1])} at depth {int(zero[0][0])} is the zero vector: "
                              "its relative change has no value")
    norms = np.array([np.median(token_norms(x)) for x in states])
    variances = np.array([np.median(np.var(x, axis=1)) for x in states])
    changes = np.array([np.median(euclidean_norm(b - a) / token_norms(a)) for a, b in itertools.pairwise(states)])
    cosines = np.array([np.median(np.cos(angle_between(a, b))) for a, b in itertools.pairwise(states)])
    return StreamProfile(_check(arrangement), norms, variances, changes, cosines, depth_trend(norms))


def stream_profile_of_calls(inputs) -> StreamProfile:
    """The profile of a real model's residual stream, read at its normalization calls in order:
    ``inputs`` is a sequence of (tokens, n) arrays, the same tokens at every call.

    Only in a pre-norm model (x ← x + F(Norm(x))) is every norm's input the stream itself; the
    profile is labelled "pre" and says nothing true of post-norm models (their norms' inputs are
    x + F(x), not the stream).
    """
    layers = [as_token_states(x, f"inputs[{k}]") for k, x in enumerate(inputs)]
    if len({x.shape for x in layers}) > 1:
        raise ShapeError(f"every call must see the same (tokens, n); got {sorted({x.shape for x in layers})}")
    return stream_profile(np.stack(layers), "pre")


@dataclass(frozen=True)
class StreamStudy:
    """The same sub-layers and tokens under every arrangement, at two sub-layer scales s and k·s."""

    depth: int
    width: int
    tokens: int
    sublayer_scale: float
    scale_factor: float
    profiles: tuple[StreamProfile, ...]
    scaled_profiles: tuple[StreamProfile, ...]  # the same with every W multiplied by ``scale_factor``

    def of(self, arrangement: str) -> StreamProfile:
        return self.profiles[STREAM_ARRANGEMENTS.index(_check(arrangement))]

    def scale_sensitivity(self, arrangement: str) -> float:
        """Final median norm with W·k over the final median norm with W: 1 when the sub-layer's
        scale drops out of the length (post, peri), about k when it sets it (pre, scaled, s large)."""
        index = STREAM_ARRANGEMENTS.index(_check(arrangement))
        return float(self.scaled_profiles[index].median_norms[-1] / self.profiles[index].median_norms[-1])

    def bounds_growth(self, arrangement: str, tolerance: float = 0.01) -> bool:
        """The stream's length is bounded independently of the sub-layers' scale: multiplying every
        W by k changes the final median norm by less than ``tolerance`` (relative)."""
        return bool(abs(self.scale_sensitivity(arrangement) - 1) < tolerance)


def stream_depth_study(depth: int = 48, width: int = 32, tokens: int = 16, sublayer_scale: float = 1.0,
                       scale_factor: float = 4.0, seed: int = 0) -> StreamStudy:
    """Toy: the sub-layers of ``make_stack(depth, width, sublayer_scale, seed)`` and ``tokens`` tokens
    drawn N(0, 1) from ``np.random.default_rng((seed, 1))``, run under the four arrangements, then
    again with every W multiplied by ``scale_factor``."""
    depth, width = as_dimension(depth, "depth"), as_dimension(width, "width", minimum=2)
    tokens = as_dimension(tokens, "tokens")
    sublayer_scale = as_positive_number(sublayer_scale, "sublayer_scale")
    scale_factor = as_positive_number(scale_factor, "scale_factor")
    weights = make_stack(depth, width, sublayer_scale, seed).weights
    start = np.random.default_rng((seed, 1)).normal(size=(tokens, width))
    profiles = tuple(stream_profile(stream_states(weights, start, a), a) for a in STREAM_ARRANGEMENTS)
    scaled = tuple(stream_profile(stream_states(weights * scale_factor, start, a), a) for a in STREAM_ARRANGEMENTS)
    return StreamStudy(depth, width, tokens, sublayer_scale, scale_factor, profiles, scaled)
