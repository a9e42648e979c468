"""How many directions a set of states really uses, and a 3-D view of them.

The participation ratio of the tokens' covariance, PR = (Σλ)²/Σλ², counts the directions the
states spread over: 1 for states on a line, k for states spread evenly over k directions. It can
never exceed the rank of the data: with T tokens lying in a linear subspace of dimension s (their
*span*), min(T − 1, s) once the mean token is removed. RMSNorm's outputs span all n directions
(the sphere of radius √n is not flat); LayerNorm's lie in the zero-mean hyperplane, s = n − 1
(``output_span``). The ratio is a *linear* count: it compares with s, not with the dimension of
the curved set the outputs lie on (n − 1 for RMSNorm, n − 2 for LayerNorm). A handful of tokens
cannot show how many of the s directions are used: only how many of at most T − 1 are.

The view: the top-k principal directions of the tokens' unit directions (every token counts
the same, however long), and each token drawn along its projection onto them, at its true
length (the radial view): normalizing then moves every token along its own ray, as in ℝⁿ.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from normgeo.errors import ShapeError, ZeroVectorError
from normgeo.hidden_states import as_token_states
from normgeo.norms import euclidean_norm
from normgeo.projection import unit_direction
from normgeo.validation import as_dimension

__all__ = ["EffectiveDimension", "output_span", "participation_ratio", "principal_directions", "radial_view", "clip_lengths"]


@dataclass(frozen=True)
class EffectiveDimension:
    """The participation ratio of the tokens' covariance and the most it could be."""

    ratio: float
    rank_bound: int  # min(tokens − 1, span): the covariance's largest possible rank
    tokens: int
    n: int
    span: int  # the dimension of the linear subspace the states lie in (n unless told otherwise)


def output_span(centred: bool, n: int) -> int:
    """The dimension of the smallest linear subspace holding every output of the layer before γ:
    n for RMSNorm and L2 (a sphere spans ℝⁿ), n − 1 for LayerNorm (the zero-mean hyperplane).

    >>> output_span(False, 3), output_span(True, 3)
    (3, 2)
    """
    n = as_dimension(n, "n", minimum=2)
    return n - 1 if centred else n


def participation_ratio(states, span: int | None = None) -> EffectiveDimension:
    """PR = (Σλ)²/Σλ² of the covariance of the tokens (rows), λ its eigenvalues, and its bound
    min(T − 1, span); ``span`` (default n) is the dimension of a linear subspace known to hold the
    states, n − 1 for LayerNorm's outputs (:func:`output_span`).

    Computed from the singular values s of the centred data (λ ∝ s²), scaled by the largest
    entry first. Needs at least 2 distinct tokens.

    >>> participation_ratio([[1.0, 0.0, 0.0], [-1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, -1.0, 0.0]]).ratio
    2.0
    """
    x = as_token_states(states)
    tokens, n = x.shape
    span = n if span is None else as_dimension(span, "span", minimum=1)
    if span > n:
        raise ShapeError(f"span must be at most n = {n}, got {span}")
    if tokens < 2:
        raise ShapeError(f"a participation ratio needs at least 2 tokens, got {tokens}")
    centred = x - x.mean(axis=0)
    scale = float(np.max(np.abs(centred)))
    if scale == 0:
        raise ZeroVectorError("all tokens are equal: their covariance is 0 and has no participation ratio")
    power = np.linalg.svd(centred / scale, compute_uv=False) ** 2
    return EffectiveDimension(float(power.sum() ** 2 / np.sum(power * power)), min(tokens - 1, span), tokens, n, span)


def principal_directions(states, k: int = 3) -> np.ndarray:
    """The top-k right singular vectors of the tokens' unit directions (not centred: the view
    keeps the origin, where the spheres are centred); shape (k, n), orthonormal rows.

    Signs are fixed so that each direction's largest entry is positive.
    """
    x = as_token_states(states)
    k = as_dimension(k, "k", minimum=1)
    if k > x.shape[1]:
        raise ShapeError(f"k = {k} directions asked of states with n = {x.shape[1]}")
    _, _, vt = np.linalg.svd(unit_direction(x), full_matrices=True)
    basis = vt[:k]
    signs = np.sign(basis[np.arange(k), np.argmax(np.abs(basis), axis=1)])
    return basis * signs[:, None]


def radial_view(states, basis) -> np.ndarray:
    """Each token drawn at its true length ‖x‖₂ along the direction of its projection onto the
    rows of ``basis``: shape (tokens, k). A token orthogonal to every row has no direction there.

    >>> radial_view([[3.0, 4.0, 12.0]], np.eye(3)[:2])
    array([[ 7.8, 10.4]])
    """
    x = as_token_states(states)
    basis = np.asarray(basis, dtype=np.float64)
    if basis.ndim != 2 or basis.shape[1] != x.shape[1]:
        raise ShapeError(f"basis must have shape (k, {x.shape[1]}), got {basis.shape}")
    projected = x @ basis.T
    lengths = euclidean_norm(projected)
    if (lengths == 0).any():
        raise ZeroVectorError(f"token {int(np.argmin(lengths))} is orthogonal to every direction of the view")
    return unit_direction(projected) * euclidean_norm(x)[:, None]


def clip_lengths(points, limit: float) -> tuple[np.ndarray, np.ndarray]:
    """Points longer than ``limit`` pulled back along their ray to length ``limit`` (to fit a
    drawing), and a mask of the ones that were.

    >>> clip_lengths([[3.0, 4.0], [30.0, 40.0]], 10.0)
    (array([[3., 4.],
           [6., 8.]]), array([False,  True]))
    """
    points = np.asarray(points, dtype=np.float64)
    lengths = euclidean_norm(points)
    clipped = lengths > limit
    safe = np.where(clipped, lengths, 1.0)
    return np.where(clipped[:, None], points * (limit / safe)[:, None], points), clipped
