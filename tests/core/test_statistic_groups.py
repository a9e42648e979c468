"""Laws of statistic_groups: cells with one label share μ and σ under the layer."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from normgeo import batch_norm, group_norm, layer_norm, statistic_groups

GRID = np.array([[1, 2, 3, 10], [2, 4, 1, 8], [3, 1, 5, 12], [0, 3, 2, 9]], dtype=float)


def groups_explain_layer(values, normalized, labels):
    """Inside each label, the normalized cells are (v − μ)/√(σ² + ε) with that group's own μ, σ."""
    for label in np.unique(labels):
        cells = values[labels == label]
        mu, var = cells.mean(), cells.var()
        if not np.allclose(normalized[labels == label], (cells - mu) / np.sqrt(var + 1e-5)):
            return False
    return True


@given(st.integers(2, 5), st.integers(1, 6))
def test_labels_are_numbered_in_order_of_first_appearance(rows, cols):
    """Labels run 0, 1, 2, … as the cells are read row by row."""
    for kind in ("none", "batchnorm", "layernorm", "rmsnorm"):
        labels = statistic_groups(kind, (rows, cols)).ravel()
        first = [labels[np.argmax(labels == k)] for k in range(labels.max() + 1)]
        assert sorted(set(labels.tolist())) == list(range(labels.max() + 1))
        assert first == list(range(labels.max() + 1))
        assert all(np.argmax(labels == k) < np.argmax(labels == k + 1) for k in range(labels.max()))


def test_groups_explain_batch_layer_and_group_norm_on_the_source_grid():
    """Normalizing each labelled group on its own reproduces every layer's output."""
    assert groups_explain_layer(GRID, batch_norm(GRID), statistic_groups("batchnorm", GRID.shape))
    assert groups_explain_layer(GRID, layer_norm(GRID), statistic_groups("layernorm", GRID.shape))
    for groups in (1, 2, 4):
        labels = statistic_groups("groupnorm", GRID.shape, num_groups=groups)
        assert groups_explain_layer(GRID, group_norm(GRID, groups), labels)


def test_group_sizes_per_layer():
    """On a 4×4 grid: none 16 singletons; BatchNorm 4 columns; LayerNorm 4 rows; GroupNorm(2) 8 pairs."""
    assert len(np.unique(statistic_groups("none", (4, 4)))) == 16
    assert (statistic_groups("batchnorm", (4, 4)) == np.arange(4)).all()
    assert (statistic_groups("layernorm", (4, 4)) == np.arange(4)[:, None]).all()
    assert np.bincount(statistic_groups("groupnorm", (4, 4), num_groups=2).ravel()).tolist() == [2] * 8


def test_groupnorm_needs_a_divisor_of_the_channels():
    """num_groups that does not divide C, or is missing, raises a ValueError."""
    with pytest.raises(ValueError, match="divisible"):
        statistic_groups("groupnorm", (4, 4), num_groups=3)
    with pytest.raises(ValueError, match="num_groups"):
        statistic_groups("groupnorm", (4, 4))
