"""Which outputs land on which points: the tally the 2-D LayerNorm scene shows."""

from __future__ import annotations

import numpy as np

from normgeo.errors import ShapeError, UnmatchedPointError
from normgeo.norms import euclidean_norm
from normgeo.validation import as_finite_array, as_nonnegative_number, describe_index

__all__ = ["count_nearest"]


def count_nearest(points, targets, tol: float = 1e-9) -> np.ndarray:
    """How many of ``points`` (k, n) coincide with each of ``targets`` (m, n): counts of shape (m,).

    Each point is counted at its nearest target (Euclidean distance; the first one on a tie)
    and must lie within ``tol`` (an absolute distance) of it: a point farther than ``tol`` from
    every target raises ``UnmatchedPointError``. The counts therefore sum to k.

    >>> count_nearest([[1.0, -1.0], [-1.0, 1.0], [1.0, -1.0]], [[1.0, -1.0], [-1.0, 1.0]])
    array([2, 1])
    """
    points = as_finite_array(points, "points", min_ndim=2)
    targets = as_finite_array(targets, "targets", min_ndim=2)
    tol = as_nonnegative_number(tol, "tol")
    if points.ndim != 2 or targets.ndim != 2 or points.shape[1] != targets.shape[1]:
        raise ShapeError(
            f"points (k, n) and targets (m, n) must share n, got shapes {points.shape} and {targets.shape}"
        )
    distances = euclidean_norm(points[:, None, :] - targets[None, :, :])
    nearest = np.argmin(distances, axis=1)
    gaps = distances[np.arange(points.shape[0]), nearest]
    unmatched = np.flatnonzero(gaps > tol)
    if unmatched.size:
        first = int(unmatched[0])
        raise UnmatchedPointError(
            f"point {describe_index((first,))} = {points[first].tolist()} is {gaps[first]:.3g} from the nearest "
            f"target, more than tol = {tol:g}"
        )
    return np.bincount(nearest, minlength=targets.shape[0])
