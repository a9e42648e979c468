"""The names of the normalization layers, and how to parse them."""

from __future__ import annotations

from enum import Enum

from normgeo.errors import UnknownLayerError

__all__ = ["Layer", "parse_layer"]


class Layer(str, Enum):
    """A normalization layer; ``NONE`` is the raw, unnormalized vector."""

    NONE = "none"
    L2 = "l2"
    RMSNORM = "rmsnorm"
    LAYERNORM = "layernorm"
    BATCHNORM = "batchnorm"
    GROUPNORM = "groupnorm"

    def __str__(self) -> str:
        return self.value

    @property
    def depends_on_batch(self) -> bool:
        """True only for BatchNorm, whose μ and σ are taken across the examples of a batch (in
        training mode); every other layer normalizes each example on its own.

        >>> [layer.value for layer in Layer if layer.depends_on_batch]
        ['batchnorm']
        """
        return self is Layer.BATCHNORM


def parse_layer(kind) -> Layer:
    """A ``Layer`` from a name such as ``"LayerNorm"``, ``"layer_norm"``, ``"rms"`` or ``"raw"``.

    >>> parse_layer("RMSNorm")
    <Layer.RMSNORM: 'rmsnorm'>
    """
    if isinstance(kind, Layer):
        return kind
    key = str(kind).strip().lower().replace("_", "").replace("-", "").replace(" ", "")
    aliases = {
        "raw": "none", "identity": "none", "rms": "rmsnorm", "ln": "layernorm", "bn": "batchnorm", "gn": "groupnorm"
    }
    key = aliases.get(key, key)
    try:
        return Layer(key)
    except ValueError:
        known = ", ".join(layer.value for layer in Layer)
        raise UnknownLayerError(f"unknown normalization layer {kind!r}; known: {known}") from None
