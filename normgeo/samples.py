"""Seeded random inputs for the scenes: the same seed always gives the same vectors."""

from __future__ import annotations

import numpy as np

from normgeo.validation import as_dimension, as_positive_number

__all__ = ["sample_vectors"]


def sample_vectors(count: int, n: int, seed: int = 0, scale: float = 1.0, min_spread: float = 0.0) -> np.ndarray:
    """``count`` Gaussian vectors in ``n`` dimensions (σ = ``scale``), shape (count, n).

    Vectors whose entries spread less than ``min_spread`` (max − min) are redrawn, so that
    LayerNorm at ε = 0 is defined on every one.

    >>> sample_vectors(2, 3, seed=1).shape
    (2, 3)
    """
    count = as_dimension(count, "count")
    n = as_dimension(n)
    scale = as_positive_number(scale, "scale")
    rng = np.random.default_rng(seed)
    vectors = rng.normal(scale=scale, size=(count, n))
    for _ in range(100):
        bad = np.ptp(vectors, axis=-1) <= min_spread
        if not bad.any():
            break
        vectors[bad] = rng.normal(scale=scale, size=(int(bad.sum()), n))
    return vectors
