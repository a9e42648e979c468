"""One formula for every normalization layer: x̂ = (x − μ)/√(σ² + ε), y = γx̂ + β.

The layers differ only in the axes over which μ and σ are taken (and RMSNorm drops the
centring: x̂ = x/√(mean(x²) + ε)). Conventions follow PyTorch's functional forms
(``torch.nn.functional.layer_norm``, ``rms_norm``, ``batch_norm(training=True)``,
``group_norm``, ``normalize``): biased variance, ε inside the square root.
"""

from __future__ import annotations

import numpy as np

from normgeo.errors import ShapeError, ZeroVarianceError, ZeroVectorError
from normgeo.norms import largest_magnitude
from normgeo.projection import unit_direction
from normgeo.validation import as_dimension, as_finite_array, as_nonnegative_number, describe_index

__all__ = ["normalize", "l2_normalize", "rms_norm", "layer_norm", "batch_norm", "group_norm"]


def _normalized_axes(axes, ndim: int) -> tuple[int, ...]:
    """``axes`` as sorted non-negative ints, each checked against ``ndim``."""
    candidates = (axes,) if isinstance(axes, (int, np.integer)) else axes
    try:
        candidates = [int(a) for a in candidates]
    except (TypeError, ValueError):
        raise ShapeError(f"axes must be an int or a sequence of ints, got {axes!r}") from None
    for axis in candidates:
        if not -ndim <= axis < ndim:
            raise ShapeError(f"axis {axis} is out of range for an array with {ndim} dimension(s)")
    if not candidates:
        raise ShapeError("axes must name at least one axis")
    return tuple(sorted({axis % ndim for axis in candidates}))


def normalize(x, axes=-1, centre: bool = True, eps: float = 1e-5) -> np.ndarray:
    """(x − μ)/√(σ² + ε) with μ, σ² (biased) taken over ``axes``; x/√(mean(x²) + ε) if not ``centre``.

    Computed on x/s with s = max(max|xᵢ|, √ε), which gives the same result without
    overflow or underflow. With ε = 0 a constant group (σ = 0) raises ``ZeroVarianceError``
    and, without centring, a zero group raises ``ZeroVectorError``: nothing returns NaN.

    >>> normalize([1.0, 3.0], eps=0.0)
    array([-1.,  1.])
    >>> normalize([3.0, 4.0], centre=False, eps=0.0).round(6)
    array([0.848528, 1.131371])
    """
    array = as_finite_array(x)
    eps = as_nonnegative_number(eps, "eps")
    axes = _normalized_axes(axes, array.ndim)
    scale = np.maximum(largest_magnitude(array, axes), np.sqrt(eps))
    safe_scale = np.where(scale > 0, scale, 1.0)
    scaled = array / safe_scale
    if centre:
        scaled = scaled - np.mean(scaled, axis=axes, keepdims=True)
    relative_eps = np.sqrt(eps) / safe_scale  # ≤ 1, and exactly 0 when ε = 0
    second_moment = np.mean(scaled * scaled, axis=axes, keepdims=True) + relative_eps * relative_eps
    degenerate = second_moment == 0
    if degenerate.any():
        first = np.argwhere(degenerate)[0]
        kept = tuple(int(first[i]) for i in range(array.ndim) if i not in axes)
        group = f" at {describe_index(kept)}" if kept else ""
        if centre:
            raise ZeroVarianceError(f"the group{group} is constant (σ = 0); use eps > 0 to normalize it")
        raise ZeroVectorError(f"the group{group} is all zeros (RMS = 0); use eps > 0 to normalize it")
    return scaled / np.sqrt(second_moment)


def _apply_affine(y: np.ndarray, weight, bias, axis: int, name: str) -> np.ndarray:
    """γ·y + β with γ and β of length ``y.shape[axis]`` broadcast along ``axis``."""
    size = y.shape[axis]
    shape = [1] * y.ndim
    shape[axis] = size
    for label, parameter in (("weight", weight), ("bias", bias)):
        if parameter is None:
            continue
        values = as_finite_array(parameter, f"{name} {label}")
        if values.shape != (size,):
            raise ShapeError(f"{name} {label} must have shape ({size},), got {values.shape}")
        y = y * values.reshape(shape) if label == "weight" else y + values.reshape(shape)
    return y


def l2_normalize(x, eps: float = 0.0) -> np.ndarray:
    """x/max(‖x‖₂, ε) along the last axis (``F.normalize``): length 1, the unit sphere.

    With ε = 0 a zero vector raises ``ZeroVectorError``.

    >>> l2_normalize([3.0, 4.0])
    array([0.6, 0.8])
    """
    array = as_finite_array(x)
    eps = as_nonnegative_number(eps, "eps")
    if eps == 0:
        return unit_direction(array)
    scale = largest_magnitude(array)
    safe_scale = np.where(scale > 0, scale, 1.0)
    norm = safe_scale * np.sqrt(np.sum((array / safe_scale) ** 2, axis=-1, keepdims=True))
    return array / np.maximum(norm, eps)


def rms_norm(x, eps: float = 1e-6, weight=None) -> np.ndarray:
    """γ·x/√(mean(x²) + ε) over the last axis; at ε = 0 the output has length √n.

    >>> rms_norm([3.0, 4.0], eps=0.0).round(6)
    array([0.848528, 1.131371])
    """
    y = normalize(x, axes=-1, centre=False, eps=eps)
    return _apply_affine(y, weight, None, -1, "rms_norm")


def layer_norm(x, eps: float = 1e-5, weight=None, bias=None) -> np.ndarray:
    """γ·(x − μ)/√(σ² + ε) + β over the last axis; at ε = 0, mean 0 and length √n.

    >>> layer_norm([3.0, 4.0], eps=0.0)
    array([-1.,  1.])
    """
    y = normalize(x, axes=-1, centre=True, eps=eps)
    return _apply_affine(y, weight, bias, -1, "layer_norm")


def _channel_first(x, name: str) -> np.ndarray:
    array = as_finite_array(x, min_ndim=1)
    if array.ndim < 2:
        raise ShapeError(f"{name} expects x of shape (N, C) or (N, C, ...), got shape {array.shape}")
    return array


def batch_norm(x, eps: float = 1e-5, weight=None, bias=None) -> np.ndarray:
    """Training-mode BatchNorm: μ, σ² per channel (axis 1) over the batch and every other axis.

    Like PyTorch, a channel with only one value to average raises (its σ is meaningless).

    >>> batch_norm([[1.0, 10.0], [3.0, 30.0]], eps=0.0)
    array([[-1., -1.],
           [ 1.,  1.]])
    """
    array = _channel_first(x, "batch_norm")
    axes = tuple(i for i in range(array.ndim) if i != 1)
    values_per_channel = array.size // array.shape[1]
    if values_per_channel < 2:
        raise ShapeError(
            f"batch_norm needs more than one value per channel in training mode, got input of shape {array.shape}"
        )
    y = normalize(array, axes=axes, centre=True, eps=eps)
    return _apply_affine(y, weight, bias, 1, "batch_norm")


def group_norm(x, num_groups: int, eps: float = 1e-5, weight=None, bias=None) -> np.ndarray:
    """GroupNorm: channels (axis 1) split into ``num_groups`` consecutive groups; μ, σ² per
    example and group over the group's channels and every spatial axis.

    >>> group_norm([[1.0, 3.0, 10.0, 30.0]], num_groups=2, eps=0.0)
    array([[-1.,  1., -1.,  1.]])
    """
    array = _channel_first(x, "group_norm")
    groups = as_dimension(num_groups, "num_groups")
    batch, channels = array.shape[:2]
    if channels % groups:
        raise ShapeError(f"group_norm: the number of channels ({channels}) is not divisible by num_groups ({groups})")
    grouped = array.reshape(batch, groups, -1)
    y = normalize(grouped, axes=-1, centre=True, eps=eps).reshape(array.shape)
    return _apply_affine(y, weight, bias, 1, "group_norm")
