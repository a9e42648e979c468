"""Which cells share μ and σ under each layer: the partition the grid scenes colour."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from normgeo.errors import ShapeError
from normgeo.layers import Layer, parse_layer
from normgeo.validation import as_dimension, as_finite_array

__all__ = ["statistic_groups", "averaged_axes", "GroupStatistics", "statistics_by_group"]


def averaged_axes(kind, ndim: int) -> tuple[int, ...]:
    """The axes μ and σ are taken over for an input of ``ndim`` dimensions (batch first).

    >>> averaged_axes("batchnorm", 2), averaged_axes("layernorm", 2)
    ((0,), (1,))
    """
    layer = parse_layer(kind)
    ndim = as_dimension(ndim, "ndim")
    if layer is Layer.NONE:
        return ()
    if layer in (Layer.L2, Layer.RMSNORM, Layer.LAYERNORM):
        return (ndim - 1,)
    if ndim < 2:
        raise ShapeError(f"{layer.value} needs an input of shape (N, C, ...), got {ndim} dimension(s)")
    if layer is Layer.BATCHNORM:
        return tuple(i for i in range(ndim) if i != 1)
    return tuple(range(1, ndim))  # GroupNorm: within a channel group, plus spatial axes


def statistic_groups(kind, shape, num_groups: int | None = None) -> np.ndarray:
    """Integer labels of ``shape``: cells with equal labels share μ and σ under ``kind``.

    Labels are 0, 1, 2, … in order of first appearance (row-major). Under ``none`` every
    cell is its own group; L2, RMSNorm and LayerNorm group along the last axis; BatchNorm
    groups by channel (axis 1); GroupNorm by example and group of consecutive channels.

    >>> statistic_groups("batchnorm", (2, 3))
    array([[0, 1, 2],
           [0, 1, 2]])
    >>> statistic_groups("groupnorm", (2, 4), num_groups=2)
    array([[0, 0, 1, 1],
           [2, 2, 3, 3]])
    """
    layer = parse_layer(kind)
    try:
        shape = tuple(as_dimension(int(size), "shape entry") for size in shape)
    except TypeError:
        raise ShapeError(f"shape must be a sequence of positive ints, got {shape!r}") from None
    if not shape:
        raise ShapeError("shape must have at least one dimension")
    index = np.indices(shape)
    if layer is Layer.NONE:
        raw = np.arange(int(np.prod(shape))).reshape(shape)
    elif layer in (Layer.L2, Layer.RMSNORM, Layer.LAYERNORM):
        raw = np.ravel_multi_index(tuple(index[:-1]), shape[:-1]) if len(shape) > 1 else np.zeros(shape, int)
    else:
        averaged_axes(layer, len(shape))  # checks the shape is (N, C, ...)
        channels = shape[1]
        if layer is Layer.BATCHNORM:
            raw = index[1]
        else:
            if num_groups is None:
                raise ShapeError("groupnorm needs num_groups")
            groups = as_dimension(num_groups, "num_groups")
            if channels % groups:
                raise ShapeError(f"the number of channels ({channels}) is not divisible by num_groups ({groups})")
            raw = index[0] * groups + index[1] // (channels // groups)
    _, first_seen, labels = np.unique(raw.ravel(), return_index=True, return_inverse=True)
    order = np.argsort(np.argsort(first_seen))
    return order[labels].reshape(shape)


@dataclass(frozen=True)
class GroupStatistics:
    """Per group label (0, 1, …): the mean, the root mean square and the (biased) standard deviation."""

    mean: np.ndarray
    rms: np.ndarray
    std: np.ndarray
    sizes: np.ndarray | None = None  # cells per group

    @property
    def mean_of_means(self) -> float:
        """The unweighted average of the group means, (1/G)·Σ_g μ_g.

        It equals the mean of all cells only when every group has the same number of cells
        (as the rows of a grid do under RMSNorm or LayerNorm).

        >>> GroupStatistics(np.array([0.5, 1.0]), np.array([1.0, 1.0]), np.array([0.5, 0.0])).mean_of_means
        0.75
        """
        return float(np.mean(self.mean))

    @property
    def cells_per_group(self) -> int | None:
        """The number of cells in each group when all groups have the same, else None."""
        if self.sizes is None or len(set(self.sizes.tolist())) != 1:
            return None
        return int(self.sizes[0])

    def zero_means(self, tolerance: float = 5e-3) -> str:
        """Which group means are zero within ``tolerance`` (default: they round to 0 at two
        decimals): ``"all"``, ``"some"`` or ``"none"``.

        >>> GroupStatistics(np.array([0.5, -0.5]), np.ones(2), np.zeros(2)).zero_means()
        'none'
        """
        zero = np.abs(self.mean) < tolerance
        return "all" if zero.all() else "some" if zero.any() else "none"

    def unit_rms(self, tolerance: float = 5e-3) -> bool:
        """Every group's RMS is 1 within ``tolerance`` (RMSNorm gives 1/√(1 + ε/ms) < 1 for ε > 0)."""
        return bool(np.all(np.abs(self.rms - 1.0) < tolerance))

    def pairs_of_signs(self, tolerance: float = 5e-3) -> bool:
        """Every group has two cells, of mean 0 and RMS 1 within ``tolerance``: then its cells are
        a and −a with a² = 1, i.e. ±1 (two features per group normalized: the 2-D LayerNorm picture)."""
        return bool(self.sizes is not None and np.all(self.sizes == 2) and self.zero_means(tolerance) == "all"
                    and self.unit_rms(tolerance))


def statistics_by_group(values, labels) -> GroupStatistics:
    """Mean, RMS and σ of the cells of each group (labels as from ``statistic_groups``).

    >>> statistics_by_group([[1.0, 3.0], [2.0, 2.0]], [[0, 0], [1, 1]]).mean
    array([2., 2.])
    """
    array = as_finite_array(values, "values")
    groups = np.asarray(labels)
    if groups.shape != array.shape:
        raise ShapeError(f"labels must have the shape of values {array.shape}, got {groups.shape}")
    ids = np.unique(groups)
    means = np.array([array[groups == k].mean() for k in ids])
    rms = np.array([np.sqrt(np.mean(array[groups == k] ** 2)) for k in ids])
    std = np.array([array[groups == k].std() for k in ids])
    sizes = np.array([int(np.sum(groups == k)) for k in ids])
    return GroupStatistics(means, rms, std, sizes)
