"""Laws of the two sets (A1): the sphere {‖v‖₂ = R} and the hyperplane {Σvᵢ = 0}."""

import math

import numpy as np
from hypothesis import given

from normgeo import (
    distance_to_sphere,
    distance_to_zero_mean_hyperplane,
    euclidean_norm,
    on_sphere,
    on_zero_mean_hyperplane,
    project_to_zero_mean_hyperplane,
    radial_projection,
)
from tests.core.strategies import close, radii, vectors


@given(vectors(), radii)
def test_distance_to_sphere_is_the_distance_to_the_radial_projection(v, radius):
    """The nearest point of a sphere is the radial projection, so the distances agree; both are
    |‖v‖ − R|, the norm taken by hand with an exactly rounded sum."""
    nearest = radial_projection(v, radius)
    scale = max(1.0, np.max(np.abs(v)), radius)
    assert close(distance_to_sphere(v, radius), euclidean_norm(v - nearest), scale=scale)
    n = v.shape[-1]
    by_hand = np.array([abs(math.sqrt(math.fsum(x * x for x in row)) - radius) for row in v.reshape(-1, n)])
    assert close(distance_to_sphere(v, radius), by_hand.reshape(v.shape[:-1]), scale=scale)


@given(vectors())
def test_distance_to_hyperplane_is_the_length_of_the_mean_part(v):
    """The nearest point of the hyperplane is v − μ·1, at distance ‖μ·1‖₂ = |μ|√n."""
    nearest = project_to_zero_mean_hyperplane(v)
    assert close(distance_to_zero_mean_hyperplane(v), euclidean_norm(v - nearest), scale=np.max(np.abs(v)))
    n = v.shape[-1]
    by_hand = np.array([abs(math.fsum(row)) / math.sqrt(n) for row in v.reshape(-1, n)]).reshape(v.shape[:-1])
    assert close(distance_to_zero_mean_hyperplane(v), by_hand, scale=np.max(np.abs(v)) * math.sqrt(n))


@given(vectors(), radii)
def test_membership_agrees_with_projection(v, radius):
    """Projected points are members; a point pushed off by 1% of R is not."""
    on = radial_projection(v, radius)
    assert on_sphere(on, radius).all()
    assert not on_sphere(1.01 * on, radius).any()
    flat = project_to_zero_mean_hyperplane(v)
    assert on_zero_mean_hyperplane(flat).all()
    n = v.shape[-1]
    pushed = flat + 0.01 * max(1.0, float(np.max(np.abs(v)))) * np.ones(n)  # mean 0.01·scale off the plane
    assert not on_zero_mean_hyperplane(pushed).any()


def test_zero_mean_line_in_two_dimensions_is_x_plus_y_equals_zero():
    """In 2-D the hyperplane is the line x + y = 0: (1, −1) is on it, (1, 1) is not."""
    assert on_zero_mean_hyperplane([1.0, -1.0])
    assert not on_zero_mean_hyperplane([1.0, 1.0])
    assert np.isclose(distance_to_zero_mean_hyperplane([1.0, 1.0]), np.sqrt(2))
