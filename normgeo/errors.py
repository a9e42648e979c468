"""The errors the core raises. Every one is a ``ValueError`` and says what was wrong."""

from __future__ import annotations

__all__ = [
    "NormGeoError",
    "NonFiniteError",
    "EmptyInputError",
    "ShapeError",
    "ZeroVectorError",
    "ZeroVarianceError",
    "UnknownLayerError",
    "InvalidParameterError",
    "UnmatchedPointError",
]


class NormGeoError(ValueError):
    """Base class: bad input to a ``normgeo`` function."""


class NonFiniteError(NormGeoError):
    """The input holds NaN or an infinity."""


class EmptyInputError(NormGeoError):
    """The input has no elements along an axis that must have some."""


class ShapeError(NormGeoError):
    """The input has the wrong number of dimensions or a mismatched shape."""


class ZeroVectorError(NormGeoError):
    """A zero vector has no direction, so it cannot be projected onto a sphere."""


class ZeroVarianceError(NormGeoError):
    """A constant group of values has σ = 0, so with ε = 0 it cannot be standardized."""


class UnknownLayerError(NormGeoError):
    """The name does not match any normalization layer the core knows."""


class InvalidParameterError(NormGeoError):
    """A scalar parameter (radius, ε, a count, a step) is out of its allowed range."""


class UnmatchedPointError(NormGeoError):
    """A point lies farther than the tolerance from every target it should coincide with."""
