"""The orthogonal decomposition x = μ·1 + (x − μ·1) behind LayerNorm's centring."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from normgeo.validation import as_dimension, as_finite_array

__all__ = ["Decomposition", "decompose", "project_to_zero_mean_hyperplane", "ones_direction"]


@dataclass(frozen=True)
class Decomposition:
    """x split into its mean part μ·1 (along 1) and its centred part (on the zero-mean hyperplane).

    The parts sum to x and are orthogonal: ⟨μ·1, x − μ·1⟩ = 0.
    """

    mean: np.ndarray
    mean_part: np.ndarray
    centred_part: np.ndarray

    @property
    def recombined(self) -> np.ndarray:
        """μ·1 + (x − μ·1), which equals x."""
        return self.mean_part + self.centred_part


def decompose(x) -> Decomposition:
    """Split x (along its last axis) into μ·1 and x − μ·1.

    >>> parts = decompose([1.0, 2.0, 6.0])
    >>> parts.mean_part
    array([3., 3., 3.])
    >>> parts.centred_part
    array([-2., -1.,  3.])
    """
    array = as_finite_array(x)
    mean = np.mean(array, axis=-1, keepdims=True)
    mean_part = np.broadcast_to(mean, array.shape).copy()
    centred = array - mean
    for array_ in (mean_part, centred):
        array_.setflags(write=False)
    return Decomposition(mean=np.squeeze(mean, axis=-1), mean_part=mean_part, centred_part=centred)


def project_to_zero_mean_hyperplane(x) -> np.ndarray:
    """(I − 11ᵀ/n)x along the last axis, without building the n×n matrix: x − mean(x)·1.

    >>> project_to_zero_mean_hyperplane([3.0, 4.0])
    array([-0.5,  0.5])
    """
    array = as_finite_array(x)
    return array - np.mean(array, axis=-1, keepdims=True)


def ones_direction(n: int) -> np.ndarray:
    """1/√n · (1, …, 1): the unit normal of the zero-mean hyperplane in n dimensions."""
    n = as_dimension(n)
    return np.full(n, 1.0 / np.sqrt(n))
