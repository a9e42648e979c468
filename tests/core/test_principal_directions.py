"""principal_directions against a case worked out by hand: tokens whose unit directions are e₁
three times, e₂ twice and e₃ once (lengths differ, which the unit directions remove) have UᵀU =
diag(3, 2, 1, 0), so the top directions are e₁, e₂, e₃ in that order, each with its largest entry
positive; with fewer tokens than directions asked the rows are still k orthonormal ones; k is
checked (1 ≤ k ≤ n) with its name in the message."""

from __future__ import annotations

import numpy as np
import pytest

from normgeo.effective_dimension import principal_directions
from normgeo.errors import InvalidParameterError, ShapeError

STATES = np.array([[2.0, 0, 0, 0], [-5.0, 0, 0, 0], [0.5, 0, 0, 0], [0, 3.0, 0, 0], [0, -1.0, 0, 0],
                   [0, 0, -7.0, 0]])


def test_the_top_directions_of_a_diagonal_gram_matrix_are_the_axes_in_order_with_positive_signs():
    assert np.allclose(principal_directions(STATES), np.eye(4)[:3], atol=1e-12)  # default k = 3
    assert np.allclose(principal_directions(STATES, k=1), [[1.0, 0, 0, 0]], atol=1e-12)
    assert principal_directions(STATES, k=4).shape == (4, 4)  # k = n is allowed


def test_more_directions_than_tokens_are_still_k_orthonormal_rows():
    two_tokens = np.array([[1.0, 2.0, 0.0, 0.0], [0.0, 1.0, 3.0, 0.0]])
    basis = principal_directions(two_tokens, k=3)
    assert basis.shape == (3, 4) and np.allclose(basis @ basis.T, np.eye(3), atol=1e-12)
    assert all(row[np.argmax(np.abs(row))] > 0 for row in basis)


def test_k_out_of_range_is_refused_by_name():
    with pytest.raises(ShapeError, match=r"^k = 5 directions asked of states with n = 4$"):
        principal_directions(STATES, k=5)
    with pytest.raises(InvalidParameterError, match=r"^k must be ≥ 1, got 0$"):
        principal_directions(STATES, k=0)
