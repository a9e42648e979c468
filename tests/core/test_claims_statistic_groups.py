"""normalization-axes' predicates on group statistics, against sums done cell by cell and closed forms."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from normgeo import group_norm, rms_norm, statistic_groups, statistics_by_group

small_grids = st.integers(2, 5).flatmap(
    lambda cols: st.lists(st.lists(st.integers(-3, 3), min_size=cols, max_size=cols), min_size=2, max_size=5))


def row_means_by_hand(values) -> list[float]:
    return [sum(row) / len(row) for row in values]


@given(grid=small_grids)
def test_zero_means_counts_the_rows_whose_mean_rounds_to_zero(grid):
    values = rms_norm(np.array(grid, dtype=float), eps=1e-5)
    stats = statistics_by_group(values, statistic_groups("rmsnorm", values.shape))
    zero = [abs(m) < 5e-3 for m in row_means_by_hand(values.tolist())]
    assert stats.zero_means() == ("all" if all(zero) else "some" if any(zero) else "none")


def test_means_that_cancel_are_not_zero():
    """The hard case: the row means of (1, 2) and (−1, −2) under RMSNorm are ±3/√10 ≈ ±0.949; their
    average is 0, yet no row mean is zero."""
    values = rms_norm(np.array([[1.0, 2.0], [-1.0, -2.0]]), eps=0.0)
    stats = statistics_by_group(values, statistic_groups("rmsnorm", values.shape))
    assert np.allclose(stats.mean, [3 / np.sqrt(10), -3 / np.sqrt(10)]) and abs(stats.mean_of_means) < 1e-15
    assert stats.zero_means() == "none"


def test_rms_is_one_only_while_eps_is_small_against_the_mean_square():
    """RMSNorm's row RMS is 1/√(1 + ε/ms) (ms the row's mean square)."""
    grid = np.array([[0.01, 0.02], [3.0, 4.0]])
    for eps, expected in ((1e-12, True), (1.0, False)):
        values = rms_norm(grid, eps=eps)
        stats = statistics_by_group(values, statistic_groups("rmsnorm", grid.shape))
        closed = 1 / np.sqrt(1 + eps / np.mean(grid**2, axis=1))
        assert np.allclose(stats.rms, closed) and stats.unit_rms() == expected


@given(a=st.integers(-5, 5), b=st.integers(-5, 5), eps=st.sampled_from([1e-12, 1e-5, 1e-2, 1.0]))
def test_two_features_per_group_become_signs_exactly_when_the_pair_differs_enough(a, b, eps):
    """A pair (a, b) normalized is ±d/√(d² + 4ε), d = a − b: ±1 within 0.005 iff 4ε/d² is small."""
    grid = np.array([[a, b, b, a], [1.0, 2.0, 3.0, 5.0]], dtype=float)
    values = group_norm(grid, 2, eps=eps)
    stats = statistics_by_group(values, statistic_groups("groupnorm", grid.shape, num_groups=2))
    pairs = [(a, b), (b, a), (1, 2), (3, 5)]
    closed = [abs(x - y) / np.sqrt((x - y) ** 2 + 4 * eps) for x, y in pairs]
    assert stats.cells_per_group == 2
    assert stats.pairs_of_signs() == all(abs(c - 1) < 5e-3 for c in closed)
