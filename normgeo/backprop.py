"""Hand-written backward passes of the normalization formula, for the simulations.

For x̂ = (x − μ)/s with s = √(σ² + ε) over some axes, and an upstream gradient g = ∂L/∂x̂,
∂L/∂x = (g − mean(g) − x̂·mean(g·x̂))/s (means over the same axes). Without centring
(x̂ = x/√(mean x² + ε)): ∂L/∂x = (g − x̂·mean(g·x̂))/s.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["NormalizationCache", "normalize_forward", "normalize_backward"]


@dataclass(frozen=True)
class NormalizationCache:
    """What the backward pass needs from the forward pass."""

    normalized: np.ndarray
    scale: np.ndarray
    axes: tuple[int, ...]
    centre: bool


def normalize_forward(x: np.ndarray, axes, centre: bool = True, eps: float = 1e-5):
    """x̂ and its cache; plain formula (the simulations keep values in a moderate range)."""
    axes = tuple(np.atleast_1d(axes).tolist())
    centred = x - x.mean(axis=axes, keepdims=True) if centre else x
    scale = np.sqrt(np.mean(centred * centred, axis=axes, keepdims=True) + eps)
    normalized = centred / scale
    return normalized, NormalizationCache(normalized, scale, axes, centre)


def normalize_backward(grad: np.ndarray, cache: NormalizationCache) -> np.ndarray:
    """∂L/∂x from ∂L/∂x̂ (see the module docstring)."""
    axes, y = cache.axes, cache.normalized
    projected = grad - y * np.mean(grad * y, axis=axes, keepdims=True)
    if cache.centre:
        projected = projected - np.mean(grad, axis=axes, keepdims=True)
    return projected / cache.scale
