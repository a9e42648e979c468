"""Laws of the orthogonal decomposition x = μ·1 + (x − μ·1) (A6)."""

import numpy as np
from hypothesis import given

from normgeo import decompose, ones_direction, project_to_zero_mean_hyperplane
from tests.core.strategies import close, vectors


@given(vectors())
def test_parts_recombine_to_the_input(x):
    """A vector is the sum of its mean part and its centred part."""
    parts = decompose(x)
    assert close(parts.recombined, x, scale=np.max(np.abs(x)))


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
    assert np.allclose(parts.mean_part, parts.mean[..., None])
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
