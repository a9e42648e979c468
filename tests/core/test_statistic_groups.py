"""Laws of statistic_groups: cells with one label are exactly the cells a layer averages together."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from normgeo import (
    batch_norm,
    group_norm,
    l2_normalize,
    layer_norm,
    rms_norm,
    statistic_groups,
    statistics_by_group,
)

GRID = np.array([[1, 2, 3, 10], [2, 4, 1, 8], [3, 1, 5, 12], [0, 3, 2, 9]], dtype=float)
KINDS = ("none", "l2", "rmsnorm", "layernorm", "batchnorm", "groupnorm")
EPS = 1e-5

shapes = st.lists(st.integers(1, 6), min_size=2, max_size=4).map(tuple).filter(lambda s: s[0] * np.prod(s[2:]) >= 2)


def group_key(kind, index, shape, groups):
    """What a layer keeps fixed over the cells it averages (written from the layers' definitions)."""
    if kind == "none":
        return index
    if kind in ("l2", "rmsnorm", "layernorm"):
        return index[:-1]  # every cell of one vector along the last axis
    if kind == "batchnorm":
        return (index[1],)  # one channel, across the batch and every spatial position
    return (index[0], index[1] // (shape[1] // groups))  # one example, one group of consecutive channels


def labels_by_first_appearance(kind, shape, groups):
    seen, labels = {}, np.empty(shape, dtype=int)
    for index in np.ndindex(*shape):
        labels[index] = seen.setdefault(group_key(kind, index, shape, groups), len(seen))
    return labels


def layer_output(kind, x, groups):
    return {
        "none": lambda: x,
        "l2": lambda: l2_normalize(x),
        "rmsnorm": lambda: rms_norm(x, eps=EPS),
        "layernorm": lambda: layer_norm(x, eps=EPS),
        "batchnorm": lambda: batch_norm(x, eps=EPS),
        "groupnorm": lambda: group_norm(x, groups, eps=EPS),
    }[kind]()


def by_hand(kind, cells):
    """One group's output from its own cells, with μ, σ summed by math.fsum."""
    m = len(cells)
    if kind == "none":
        return cells
    if kind == "l2":
        return cells / math.sqrt(math.fsum(cells * cells))
    if kind == "rmsnorm":
        return cells / math.sqrt(math.fsum(cells * cells) / m + EPS)
    mu = math.fsum(cells) / m
    return (cells - mu) / math.sqrt(math.fsum((cells - mu) ** 2) / m + EPS)


@pytest.mark.parametrize("kind", KINDS)
@given(shapes, st.data())
def test_labels_follow_the_layers_definition_in_order_of_first_appearance(kind, shape, data):
    """On 2-, 3- and 4-D shapes, two cells share a label iff the layer averages them together, and
    labels are numbered 0, 1, … as the cells are read in row-major order."""
    groups = data.draw(st.sampled_from([g for g in range(1, shape[1] + 1) if shape[1] % g == 0]))
    labels = statistic_groups(kind, shape, num_groups=groups if kind == "groupnorm" else None)
    assert np.array_equal(labels, labels_by_first_appearance(kind, shape, groups))


@pytest.mark.parametrize("kind", KINDS)
@given(shapes, st.data())
def test_normalizing_each_labelled_group_alone_reproduces_the_layer(kind, shape, data):
    """For every kind and 2-, 3-, 4-D input: each label's cells, normalized with μ and σ computed by
    hand over exactly those cells, equal the layer's output there (a label set too coarse or too fine
    would use the wrong μ and σ)."""
    groups = data.draw(st.sampled_from([g for g in range(1, shape[1] + 1) if shape[1] % g == 0]))
    x = data.draw(arrays(np.float64, shape, elements=st.floats(-100, 100, allow_nan=False)))
    x = x + np.random.default_rng(0).normal(size=shape)  # distinct values, so every group has σ > 0
    labels = statistic_groups(kind, shape, num_groups=groups if kind == "groupnorm" else None)
    y = layer_output(kind, x, groups)
    for label in np.unique(labels):
        inside = labels == label
        assert np.allclose(y[inside], by_hand(kind, x[inside]), rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("shape", [(4, 4), (2, 6, 3), (3, 4, 2, 2)])
@pytest.mark.parametrize("groups", [1, 2])
def test_group_norm_groups_are_consecutive_channels(shape, groups):
    """GroupNorm(G): channels c and c′ of one example share a label iff c // (C/G) = c′ // (C/G)
    (consecutive channels, as in PyTorch), on 2-, 3- and 4-D shapes."""
    labels = statistic_groups("groupnorm", shape, num_groups=groups)
    per_group = shape[1] // groups
    for n in range(shape[0]):
        for c in range(shape[1]):
            for c2 in range(shape[1]):
                same = bool(np.all(labels[n, c] == labels[n, c2]))
                assert same == (c // per_group == c2 // per_group)
    x = np.random.default_rng(1).normal(size=shape)
    y = group_norm(x, groups, eps=EPS)
    for label in np.unique(labels):
        assert np.allclose(y[labels == label], by_hand("groupnorm", x[labels == label]), rtol=1e-9, atol=1e-9)


def test_group_sizes_per_layer():
    """On a 4×4 grid: none 16 singletons; BatchNorm 4 columns; LayerNorm 4 rows; GroupNorm(2) 8 pairs."""
    assert len(np.unique(statistic_groups("none", (4, 4)))) == 16
    assert (statistic_groups("batchnorm", (4, 4)) == np.arange(4)).all()
    assert (statistic_groups("layernorm", (4, 4)) == np.arange(4)[:, None]).all()
    assert np.bincount(statistic_groups("groupnorm", (4, 4), num_groups=2).ravel()).tolist() == [2] * 8


@given(arrays(np.float64, st.tuples(st.integers(1, 5), st.integers(1, 5)), elements=st.floats(-1e3, 1e3)),
       st.sampled_from(["layernorm", "batchnorm", "none"]))
def test_statistics_by_group_and_the_mean_of_means(values, kind):
    """Each group's mean, RMS and σ equal fsum-based sums over its cells; mean_of_means is their
    unweighted average, equal to the mean of all cells here because the groups have equal sizes."""
    labels = statistic_groups(kind, values.shape)
    stats = statistics_by_group(values, labels)
    for k in np.unique(labels):
        cells = values[labels == k]
        mu = math.fsum(cells) / cells.size
        assert math.isclose(stats.mean[k], mu, rel_tol=1e-12, abs_tol=1e-9)
        assert math.isclose(stats.rms[k], math.sqrt(math.fsum(cells**2) / cells.size), rel_tol=1e-12, abs_tol=1e-9)
        sigma = math.sqrt(math.fsum((cells - mu) ** 2) / cells.size)
        assert math.isclose(stats.std[k], sigma, rel_tol=1e-9, abs_tol=1e-6)
    assert math.isclose(stats.mean_of_means, math.fsum(values.ravel()) / values.size, rel_tol=1e-12, abs_tol=1e-9)


def test_mean_of_means_weights_groups_equally_not_cells():
    """Groups of sizes 1 and 3: the mean of the two means is not the mean of the four cells."""
    stats = statistics_by_group([[4.0, 0.0, 0.0, 0.0]], [[0, 1, 1, 1]])
    assert stats.mean_of_means == 2.0
    assert np.mean([4.0, 0.0, 0.0, 0.0]) == 1.0


def test_rmsnorm_row_means_of_the_source_grid():
    """B3: under RMSNorm (ε = 0) the grid's rows have RMS 1 and means 0.75, 0.81, 0.78, 0.72 (to two
    decimals), whose average is 0.77; each mean is Σxᵢ/√(n·Σxᵢ²), computed here with fsum."""
    y = rms_norm(GRID, eps=0.0)
    stats = statistics_by_group(y, statistic_groups("rmsnorm", GRID.shape))
    expected = [math.fsum(row) / math.sqrt(4 * math.fsum(row * row)) for row in GRID]
    assert np.allclose(stats.mean, expected, rtol=1e-12)
    assert np.allclose(stats.rms, 1.0, rtol=1e-12)
    assert stats.mean.round(2).tolist() == [0.75, 0.81, 0.78, 0.72]
    assert round(stats.mean_of_means, 2) == 0.77


def test_groupnorm_needs_a_divisor_of_the_channels():
    """num_groups that does not divide C, or is missing, raises a ValueError."""
    with pytest.raises(ValueError, match="divisible"):
        statistic_groups("groupnorm", (4, 4), num_groups=3)
    with pytest.raises(ValueError, match="num_groups"):
        statistic_groups("groupnorm", (4, 4))
