"""The Jacobians of LayerNorm and RMSNorm: what the backward pass does to a gradient.

Both are taken over the last axis, before γ and β, with biased variance and ε inside the
root, in PyTorch's convention J[..., i, j] = ∂yᵢ/∂xⱼ. With y the layer's output and
s = √(σ² + ε) (LayerNorm) or s = √(mean(x²) + ε) (RMSNorm):

* LayerNorm: J = (1/s)(I − 11ᵀ/n − yyᵀ/n); at ε = 0 this is (1/σ)(I − 11ᵀ/n − x̂x̂ᵀ/n);
* RMSNorm:   J = (1/s)(I − yyᵀ/n);          at ε = 0 this is (1/rms)(I − x̂x̂ᵀ/n).

Both are symmetric, so the backward pass Jᵀg equals Jg. LayerNorm's J·1 = 0 for every ε;
at ε = 0 also J·x̂ = 0 (‖x̂‖² = n): the incoming gradient is projected orthogonal to 1 and
to x̂, then scaled by 1/σ. RMSNorm's J·x = 0 at ε = 0.
"""

from __future__ import annotations

import numpy as np

from normgeo.normalize import normalize
from normgeo.norms import largest_magnitude
from normgeo.validation import as_finite_array, as_nonnegative_number

__all__ = ["layer_norm_jacobian", "rms_norm_jacobian"]


def _output_and_scale(x, eps, centre: bool):
    """The normalized output y and its divisor s, both computed on x/max(max|xᵢ|, √ε)."""
    array = as_finite_array(x)
    eps = as_nonnegative_number(eps, "eps")
    y = normalize(array, axes=-1, centre=centre, eps=eps)  # raises on σ = 0 (or x = 0) with ε = 0
    scale = np.maximum(largest_magnitude(array), np.sqrt(eps))
    scaled = array / scale
    if centre:
        scaled = scaled - np.mean(scaled, axis=-1, keepdims=True)
    relative_eps = np.sqrt(eps) / scale
    s = scale * np.sqrt(np.mean(scaled * scaled, axis=-1, keepdims=True) + relative_eps * relative_eps)
    return y, s


def _jacobian(y: np.ndarray, s: np.ndarray, centre: bool) -> np.ndarray:
    n = y.shape[-1]
    projector = np.eye(n) - (np.full((n, n), 1.0 / n) if centre else 0.0)
    outer = y[..., :, None] * y[..., None, :] / n
    return (projector - outer) / s[..., None]


def layer_norm_jacobian(x, eps: float = 0.0) -> np.ndarray:
    """∂LN(x)ᵢ/∂xⱼ over the last axis (no γ, β), shape (..., n, n): (1/s)(I − 11ᵀ/n − yyᵀ/n)
    with y = LN(x) and s = √(σ² + ε). With ε = 0 a constant vector raises ``ZeroVarianceError``.

    In 2-D the outputs are only (1, −1) and (−1, 1), so LN is locally constant and J = 0:

    >>> bool(np.abs(layer_norm_jacobian([1.0, 3.0])).max() < 1e-15)
    True
    """
    y, s = _output_and_scale(x, eps, centre=True)
    return _jacobian(y, s, centre=True)


def rms_norm_jacobian(x, eps: float = 0.0) -> np.ndarray:
    """∂RMSNorm(x)ᵢ/∂xⱼ over the last axis (no γ), shape (..., n, n): (1/s)(I − yyᵀ/n) with
    y = RMSNorm(x) and s = √(mean(x²) + ε). With ε = 0 a zero vector raises ``ZeroVectorError``.

    >>> (rms_norm_jacobian([3.0, 4.0]) * 25 * np.sqrt(12.5)).round(6)  # (I − xxᵀ/25)/√12.5
    array([[ 16., -12.],
           [-12.,   9.]])
    """
    y, s = _output_and_scale(x, eps, centre=False)
    return _jacobian(y, s, centre=False)
