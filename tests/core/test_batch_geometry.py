"""Laws of BatchNorm's geometry on the batch axis (C4): each channel's column is centred and on
the sphere of radius √m in ℝᵐ (m values per channel); m = 2 leaves only ±1."""

import math

import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from normgeo import batch_norm, batch_norm_columns
from tests.core.strategies import channel_first_arrays, close

GRID = np.array([[1, 2, 3, 10], [2, 4, 1, 8], [3, 1, 5, 12], [0, 3, 2, 9]], dtype=float)


def varying_channels(x):
    columns = np.moveaxis(x, 1, 0).reshape(x.shape[1], -1)
    return bool(np.all(columns.std(axis=1) > 1e-6 * np.max(np.abs(x))))


@given(channel_first_arrays())
def test_every_channel_column_sums_to_zero_and_has_length_root_m(x):
    """(N, C, *) input, ε = 0: each channel's m = N·L… values, read off batch_norm's output by hand,
    sum to 0 and have length √m; batch_norm_columns reports the same sums, lengths and radius."""
    assume(varying_channels(x))
    y = batch_norm(x, eps=0.0)
    m = x.size // x.shape[1]
    columns = batch_norm_columns(x)
    for c in range(x.shape[1]):
        values = y[:, c].ravel()
        assert abs(math.fsum(values)) <= 1e-9 * m
        assert math.isclose(math.sqrt(math.fsum(values * values)), math.sqrt(m), rel_tol=1e-9)
        assert math.isclose(columns.sums[c], math.fsum(values), abs_tol=1e-9 * m)
        assert math.isclose(columns.lengths[c], math.sqrt(m), rel_tol=1e-9)
    assert columns.radius == math.sqrt(m)


@given(arrays(np.float64, st.tuples(st.just(2), st.integers(1, 8)), elements=st.floats(-1e3, 1e3)))
def test_a_batch_of_two_sends_every_feature_to_plus_or_minus_one(x):
    """B = 2, ε = 0: each feature's column becomes ±(1, −1), the larger value +1: 2-D LayerNorm's
    two points, on the batch axis."""
    assume(np.all(np.abs(x[0] - x[1]) > 1e-6 * max(1.0, np.max(np.abs(x)))))
    y = batch_norm(x, eps=0.0)
    assert np.allclose(y[0], np.sign(x[0] - x[1]), rtol=0, atol=1e-12)
    assert np.allclose(y[1], -y[0], rtol=0, atol=1e-12)


def test_the_source_grid_columns_sum_to_zero_with_length_two():
    """C4 on the source grid (B = 4): every column sums to 0 and has length √4 = 2."""
    columns = batch_norm_columns(GRID)
    assert close(columns.sums, 0.0, scale=4) and close(columns.lengths, 2.0, scale=2)
    assert columns.radius == 2.0
    by_hand = np.empty_like(GRID)  # column j: (v − μⱼ)/σⱼ, population σ, by exactly rounded sums
    for j in range(GRID.shape[1]):
        column = GRID[:, j]
        mu = math.fsum(column) / 4
        sigma = math.sqrt(math.fsum((v - mu) ** 2 for v in column) / 4)
        by_hand[:, j] = (column - mu) / sigma
    assert np.allclose(columns.normalized, by_hand, rtol=0, atol=1e-12)
    # first column (1, 2, 3, 0): μ = 1.5, σ = √1.25, so the scores are (−0.5, 0.5, 1.5, −1.5)/√1.25
    assert np.allclose(columns.normalized[:, 0], np.array([-0.5, 0.5, 1.5, -1.5]) / math.sqrt(1.25), atol=1e-15)
