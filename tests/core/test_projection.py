"""Laws of radial projection (A2, A3): onto the sphere, along the ray, once and for all."""

import numpy as np
import pytest
from hypothesis import given

from normgeo import ZeroVectorError, euclidean_norm, radial_projection
from tests.core.strategies import close, positive_scales, radii, vectors, wide_vectors


@given(vectors(), radii)
def test_projection_lands_on_the_sphere_of_the_requested_radius(x, radius):
    """‖radial_projection(x, R)‖₂ = R for every x with a direction."""
    assert close(euclidean_norm(radial_projection(x, radius)), radius, scale=radius)


@given(vectors(), radii)
def test_projection_is_idempotent(x, radius):
    """Projecting a point already on the sphere leaves it where it is."""
    once = radial_projection(x, radius)
    assert close(radial_projection(once, radius), once, scale=radius)


@given(vectors(), radii)
def test_projection_keeps_direction(x, radius):
    """The projection is a positive multiple of x: cosine similarity 1."""
    y = radial_projection(x, radius)
    cosine = np.sum(x * y, axis=-1) / (euclidean_norm(x) * euclidean_norm(y))
    assert close(cosine, 1.0)


@given(vectors(batch=()), positive_scales)
def test_positive_rescaling_does_not_move_the_projection(x, c):
    """x and c·x (c > 0) lie on one ray, so they land on one point: length is discarded."""
    assert close(radial_projection(c * x), radial_projection(x))


@given(wide_vectors())
def test_projection_neither_overflows_nor_underflows(x):
    """Entries of 1e±200 still give a unit vector, never 0, inf or NaN."""
    y = radial_projection(x)
    assert np.isfinite(y).all()
    assert close(euclidean_norm(y), 1.0)


def test_worked_example_three_four_goes_to_point_six_point_eight():
    """The source's example: (3, 4) has length 5 and projects to (0.6, 0.8)."""
    assert euclidean_norm([3.0, 4.0]) == pytest.approx(5.0)
    assert np.allclose(radial_projection([3.0, 4.0]), [0.6, 0.8])


def test_huge_and_tiny_entries_give_exact_results():
    """(3e200, 4e200) and (3e-200, 4e-200) both project to (0.6, 0.8)."""
    assert np.allclose(radial_projection([3e200, 4e200]), [0.6, 0.8])
    assert np.allclose(radial_projection([3e-200, 4e-200]), [0.6, 0.8])
    assert euclidean_norm([3e200, 4e200]) == pytest.approx(5e200)


def test_zero_vector_raises_naming_its_row():
    """A zero vector has no direction: ZeroVectorError (a ValueError) names the row."""
    with pytest.raises(ZeroVectorError, match=r"row \[1\]"):
        radial_projection([[3.0, 4.0], [0.0, 0.0]])
    with pytest.raises(ValueError, match="zero vector"):
        radial_projection([0.0, 0.0])


def test_projection_does_not_mutate_its_input():
    """The input array is left as it was."""
    x = np.array([3.0, 4.0])
    radial_projection(x, 2.0)
    assert x.tolist() == [3.0, 4.0]
