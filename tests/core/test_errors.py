"""Bad input raises a documented ValueError subclass that says what was wrong."""

import numpy as np
import pytest

import normgeo
from normgeo import (
    EmptyInputError,
    InvalidParameterError,
    NonFiniteError,
    NormGeoError,
    ShapeError,
    UnknownLayerError,
    UnmatchedPointError,
    ZeroVarianceError,
    ZeroVectorError,
)

FUNCTIONS_OF_VECTORS = [
    normgeo.radial_projection,
    normgeo.l2_normalize,
    normgeo.rms_norm,
    normgeo.layer_norm,
    normgeo.decompose,
    normgeo.euclidean_norm,
    normgeo.project_to_zero_mean_hyperplane,
    normgeo.distance_to_zero_mean_hyperplane,
    normgeo.layer_norm_jacobian,
    normgeo.rms_norm_jacobian,
    normgeo.rms_layer_norm_angle,
]


def test_every_error_is_a_value_error():
    """All core errors derive from NormGeoError, itself a ValueError."""
    for error in (EmptyInputError, InvalidParameterError, NonFiniteError, ShapeError, UnknownLayerError,
                  UnmatchedPointError, ZeroVarianceError, ZeroVectorError):
        assert issubclass(error, NormGeoError) and issubclass(error, ValueError)


@pytest.mark.parametrize("fn", FUNCTIONS_OF_VECTORS)
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_input_raises_naming_the_index(fn, bad):
    """NaN and ±inf raise NonFiniteError with the index of the first bad entry."""
    with pytest.raises(NonFiniteError, match=r"index \[1\]"):
        fn([1.0, bad, 2.0])


@pytest.mark.parametrize("fn", FUNCTIONS_OF_VECTORS)
def test_empty_input_raises(fn):
    """An empty array raises EmptyInputError."""
    with pytest.raises(EmptyInputError, match="empty"):
        fn(np.zeros((2, 0)))


@pytest.mark.parametrize("fn", FUNCTIONS_OF_VECTORS)
def test_scalars_and_non_numbers_raise_shape_errors(fn):
    """A bare number (no axis) or text raises ShapeError."""
    with pytest.raises(ShapeError):
        fn(3.0)
    with pytest.raises(ShapeError):
        fn(["a", "b"])


def test_ragged_input_raises_shape_error():
    """Rows of different lengths are not an array."""
    with pytest.raises(ShapeError):
        normgeo.radial_projection([[1.0, 2.0], [3.0]])


def test_degenerate_groups_raise_with_eps_zero():
    """ε = 0: a constant LayerNorm row raises ZeroVarianceError; a zero RMSNorm row ZeroVectorError."""
    with pytest.raises(ZeroVarianceError, match=r"at \[1\]"):
        normgeo.layer_norm([[1.0, 2.0], [5.0, 5.0]], eps=0.0)
    with pytest.raises(ZeroVectorError):
        normgeo.rms_norm([0.0, 0.0], eps=0.0)
    assert np.allclose(normgeo.layer_norm([5.0, 5.0]), 0.0)  # ε > 0: defined, and 0


@pytest.mark.parametrize("radius", [0.0, -1.0, np.nan, np.inf, "big", True])
def test_bad_radius_raises(radius):
    """The radius must be a finite positive number."""
    with pytest.raises(NormGeoError):
        normgeo.radial_projection([3.0, 4.0], radius)


def test_bad_eps_and_counts_raise():
    """Negative ε, a non-integer dimension or group count raise InvalidParameterError."""
    with pytest.raises(InvalidParameterError):
        normgeo.layer_norm([1.0, 2.0], eps=-1.0)
    with pytest.raises(InvalidParameterError):
        normgeo.degrees_of_freedom("l2", 2.5)
    with pytest.raises(InvalidParameterError):
        normgeo.degrees_of_freedom("l2", 0)
    with pytest.raises(InvalidParameterError):
        normgeo.group_norm(np.ones((2, 4)), 0)


def test_wrong_shapes_raise():
    """BatchNorm of a vector, GroupNorm with C not divisible, a mis-sized γ, axes out of range."""
    with pytest.raises(ShapeError, match=r"\(N, C\)"):
        normgeo.batch_norm([1.0, 2.0, 3.0])
    with pytest.raises(ShapeError, match="more than one value per channel"):
        normgeo.batch_norm([[1.0, 2.0, 3.0]])
    with pytest.raises(ShapeError, match="divisible"):
        normgeo.group_norm(np.ones((2, 6)), 4)
    with pytest.raises(ShapeError, match=r"shape \(3,\)"):
        normgeo.layer_norm([1.0, 2.0, 3.0], weight=[1.0, 2.0])
    with pytest.raises(ShapeError, match="out of range"):
        normgeo.normalize(np.ones((2, 2)), axes=2)


def test_unknown_layer_names_raise_listing_the_known_ones():
    """parse_layer accepts spellings like 'LayerNorm' and 'rms_norm' and rejects the rest."""
    assert normgeo.parse_layer("LayerNorm") is normgeo.Layer.LAYERNORM
    assert normgeo.parse_layer("rms_norm") is normgeo.Layer.RMSNORM
    with pytest.raises(UnknownLayerError, match="known: none, l2"):
        normgeo.parse_layer("weightnorm")
