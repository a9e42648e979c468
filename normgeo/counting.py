"""Where each layer's output lives, counted: its sphere's radius and its degrees of freedom."""

from __future__ import annotations

import math

from normgeo.errors import InvalidParameterError
from normgeo.layers import Layer, parse_layer
from normgeo.validation import as_dimension

__all__ = ["output_radius", "degrees_of_freedom", "constraints"]

_CONSTRAINTS = {
    Layer.NONE: (),
    Layer.L2: ("length",),
    Layer.RMSNORM: ("length",),
    Layer.LAYERNORM: ("length", "mean"),
}


def constraints(kind) -> tuple[str, ...]:
    """What a layer fixes per vector: ``("length",)`` for L2 and RMSNorm, plus ``"mean"`` for LayerNorm."""
    layer = parse_layer(kind)
    if layer not in _CONSTRAINTS:
        raise InvalidParameterError(f"{layer.value} normalizes across examples; it fixes no per-vector constraint")
    return _CONSTRAINTS[layer]


def output_radius(kind, n: int) -> float:
    """Length of every output vector at ε = 0: 1 for L2, √n for RMSNorm and LayerNorm.

    RMS(x̂) = 1 ⇒ (1/n)Σx̂ᵢ² = 1 ⇒ Σx̂ᵢ² = n ⇒ ‖x̂‖₂ = √n; LayerNorm's σ = 1 with mean 0
    is the same condition.

    >>> output_radius("l2", 896), round(output_radius("rmsnorm", 2), 6)
    (1.0, 1.414214)
    """
    layer = parse_layer(kind)
    n = as_dimension(n)
    if layer is Layer.L2:
        return 1.0
    if layer is Layer.RMSNORM:
        return math.sqrt(n)
    if layer is Layer.LAYERNORM:
        if n < 2:
            raise InvalidParameterError("layernorm of a single number is always 0: it has no sphere (n must be ≥ 2)")
        return math.sqrt(n)
    raise InvalidParameterError(f"{layer.value} outputs have no fixed length")


def degrees_of_freedom(kind, n: int) -> int:
    """Free directions left in n dimensions at ε = 0 (before γ and β): n raw; n − 1 after L2 or
    RMSNorm (length fixed); n − 2 after LayerNorm (length fixed and mean 0). A count of
    directions, not a measure of information. LayerNorm needs n ≥ 2 (one number centres to 0).

    >>> [degrees_of_freedom(k, 896) for k in ("none", "l2", "rmsnorm", "layernorm")]
    [896, 895, 895, 894]
    """
    n = as_dimension(n)
    fixed = constraints(kind)
    if "mean" in fixed and n < 2:
        raise InvalidParameterError("layernorm of a single number is always 0: n = 1 is not a valid width (n must be ≥ 2)")
    return n - len(fixed)
