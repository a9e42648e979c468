"""BatchNorm is LayerNorm's geometry on the other axis (C4).

For each channel, BatchNorm (training mode, ε = 0, before γ and β) takes the m values it
averages (the batch, and every spatial position: m = N·L₁·L₂·…) as one vector of ℝᵐ, centres
it onto the zero-mean hyperplane and scales it onto the sphere of radius √m: each channel's
column sums to 0 and has length √m. With m = 2 that leaves only ±(1, −1), the 2-D LayerNorm
picture on the batch axis.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from normgeo.normalize import batch_norm
from normgeo.norms import euclidean_norm

__all__ = ["ChannelColumns", "batch_norm_columns"]


@dataclass(frozen=True)
class ChannelColumns:
    """BatchNorm's output, and per channel the sum and the length of its column of m values."""

    normalized: np.ndarray
    sums: np.ndarray
    lengths: np.ndarray
    radius: float


def batch_norm_columns(x, eps: float = 0.0) -> ChannelColumns:
    """batch_norm(x, ε) of an (N, C, …) input and, per channel, the sum and ‖·‖₂ of its values;
    ``radius`` is √m (m values per channel), the length every column has at ε = 0.

    >>> columns = batch_norm_columns([[1, 2, 3, 10], [2, 4, 1, 8], [3, 1, 5, 12], [0, 3, 2, 9]])
    >>> (columns.sums.round(12) + 0.0).tolist(), columns.lengths.round(12).tolist(), columns.radius
    ([0.0, 0.0, 0.0, 0.0], [2.0, 2.0, 2.0, 2.0], 2.0)
    """
    y = batch_norm(x, eps=eps)
    columns = np.moveaxis(y, 1, 0).reshape(y.shape[1], -1)
    return ChannelColumns(y, columns.sum(axis=1), euclidean_norm(columns), math.sqrt(columns.shape[1]))
