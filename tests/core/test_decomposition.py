"""Laws of the orthogonal decomposition x = μ·1 + (x − μ·1) (A6)."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from normgeo import decompose, ones_direction, project_to_zero_mean_hyperplane
from tests.core.strategies import RELATIVE_TOLERANCE, close, vectors


@given(vectors())
def test_mean_is_the_average_of_the_entries(x):
    """μ = (Σxᵢ)/n, compared with an exactly rounded sum (math.fsum) row by row."""
    parts = decompose(x)
    rows = x.reshape(-1, x.shape[-1])
    expected = np.array([math.fsum(row) / row.size for row in rows]).reshape(x.shape[:-1])
    assert close(parts.mean, expected, scale=np.max(np.abs(x)))


@given(vectors(batch=()))
def test_mean_part_is_the_orthogonal_projection_onto_the_ones_line(x):
    """μ·1 = (11ᵀ/n)x, the projector onto span(1) written as a matrix; and x − μ·1 = (I − 11ᵀ/n)x."""
    n = x.size
    onto_ones = np.ones((n, n)) / n
    parts = decompose(x)
    assert close(parts.mean_part, onto_ones @ x, scale=np.max(np.abs(x)) * n)
    assert close(parts.centred_part, (np.eye(n) - onto_ones) @ x, scale=np.max(np.abs(x)) * n)


@given(vectors(batch=()), st.floats(-1e6, 1e6))
def test_mean_part_is_the_closest_point_of_the_ones_line(x, t):
    """‖x − μ·1‖ ≤ ‖x − t·1‖ for every t: μ·1 is the nearest multiple of 1, and the gap is
    exactly n(t − μ)² (Pythagoras, since x − μ·1 ⟂ 1)."""
    parts = decompose(x)
    n, mu = x.size, float(parts.mean)
    nearest, other = np.sum((x - mu) ** 2), np.sum((x - t) ** 2)
    scale = (np.max(np.abs(x)) + abs(t)) ** 2 * n
    assert other >= nearest - RELATIVE_TOLERANCE * scale
    assert abs(other - nearest - n * (t - mu) ** 2) <= 1e-9 * scale


@given(vectors())
def test_parts_are_orthogonal(x):
    """⟨μ·1, x − μ·1⟩ = 0: the centred part is orthogonal to 1."""
    parts = decompose(x)
    inner = np.sum(parts.mean_part * parts.centred_part, axis=-1)
    assert close(inner, 0.0, scale=np.max(np.abs(x)) ** 2 * x.shape[-1])


@given(vectors())
def test_mean_part_is_along_ones_and_centred_part_has_mean_zero(x):
    """μ·1 has equal entries; x − μ·1 sums to zero (it is on the hyperplane)."""
    parts = decompose(x)
    assert np.array_equal(parts.mean_part, np.broadcast_to(parts.mean[..., None], x.shape))
    assert close(parts.centred_part.sum(axis=-1), 0.0, scale=np.max(np.abs(x)) * x.shape[-1])


@given(vectors(batch=()))
def test_projector_matches_the_explicit_matrix(x):
    """(I − 11ᵀ/n)x computed without the matrix equals the matrix product."""
    n = x.size
    projector = np.eye(n) - np.ones((n, n)) / n
    assert close(project_to_zero_mean_hyperplane(x), projector @ x, scale=np.max(np.abs(x)) * n)


@given(vectors(batch=()))
def test_projector_is_idempotent(x):
    """Projecting onto the hyperplane twice is projecting once."""
    once = project_to_zero_mean_hyperplane(x)
    assert close(project_to_zero_mean_hyperplane(once), once, scale=np.max(np.abs(x)) * x.size)


def test_ones_direction_is_the_unit_normal():
    """1/√n·(1, …, 1) has length 1 and is orthogonal to every centred vector."""
    u = ones_direction(3)
    assert np.isclose(np.linalg.norm(u), 1.0)
    assert np.isclose(u @ decompose([1.0, 2.0, 6.0]).centred_part, 0.0)


def test_decomposition_does_not_mutate_input():
    """decompose returns new arrays; the input is untouched."""
    x = np.array([1.0, 2.0, 6.0])
    decompose(x)
    assert x.tolist() == [1.0, 2.0, 6.0]


def test_a_decompositions_parts_are_read_only():
    """The mean part and the centred part come back read-only, so a caller cannot break
    x = μ·1 + (x − μ·1) by writing into one of them."""
    parts = decompose([1.0, 2.0, 6.0])
    for part in (parts.mean_part, parts.centred_part):
        with pytest.raises(ValueError, match="read-only"):
            part[0] = 0.0
