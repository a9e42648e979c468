"""Laws of count_nearest: the tally of which outputs land on which points (A7)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from normgeo import UnmatchedPointError, count_nearest, layer_norm


@given(st.integers(1, 5), st.integers(1, 4), st.lists(st.integers(0, 4), min_size=1, max_size=30),
       st.integers(0, 10_000))
def test_points_near_their_targets_are_counted_there(m, n, picks, seed):
    """Points placed within tol/2 of target k (targets ≥ 3·tol apart) are counted at k: the counts
    equal how often each target was picked, and they sum to the number of points."""
    rng = np.random.default_rng(seed)
    targets = np.arange(m)[:, None] * np.ones(n) * 3.0 + rng.normal(size=n)  # consecutive targets √n·3 apart
    picks = np.array(picks) % m
    wobble = rng.normal(size=(picks.size, n))
    wobble *= 0.5 / np.maximum(np.linalg.norm(wobble, axis=1, keepdims=True), 1e-12)
    tol = 1.0
    counts = count_nearest(targets[picks] + wobble, targets, tol=tol)
    assert counts.tolist() == [int(np.sum(picks == k)) for k in range(m)]
    assert counts.sum() == picks.size


@given(st.floats(1e-6, 10.0), st.floats(1.01, 100.0))
def test_a_point_farther_than_tol_from_every_target_raises(tol, factor):
    """A point at distance factor·tol > tol from the only target raises UnmatchedPointError."""
    with pytest.raises(UnmatchedPointError, match=r"point \[1\]"):
        count_nearest([[0.0, 0.0], [factor * tol, 0.0]], [[0.0, 0.0]], tol=tol)


def test_two_dimensional_layer_norm_tally_matches_which_entry_is_larger():
    """A7: 24 random 2-D inputs land on (1, −1) exactly when x₁ > x₂, else on (−1, 1)."""
    inputs = np.random.default_rng(3).normal(size=(24, 2))
    counts = count_nearest(layer_norm(inputs, eps=0.0), [[1.0, -1.0], [-1.0, 1.0]])
    larger_first = int(np.sum(inputs[:, 0] > inputs[:, 1]))
    assert counts.tolist() == [larger_first, 24 - larger_first]


def test_mismatched_shapes_raise():
    """points (k, n) and targets (m, n) must share n."""
    with pytest.raises(ValueError, match="share n"):
        count_nearest([[0.0, 0.0]], [[0.0, 0.0, 0.0]])
