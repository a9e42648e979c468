"""batch-dependence's predicates against closed forms: with two examples per batch BatchNorm's score is
d/√(d² + 4ε) for d = x − a (a the companion), so two batches agree iff their companions lie on the
same side of x in every feature (up to the tolerance); with more, the statistics computed by hand."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from normgeo import same_example_in_two_batches
from normgeo.batch_dependence import BatchMeanSpread, TrainEvalGap, batch_mean_spread, train_eval_gap

EPS = 1e-5
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def by_hand(batch: np.ndarray, eps: float) -> np.ndarray:
    """Row 0's BatchNorm output, with the batch mean and the biased variance summed cell by cell."""
    rows, cols = batch.shape
    out = []
    for j in range(cols):
        mean = sum(batch[i, j] for i in range(rows)) / rows
        var = sum((batch[i, j] - mean) ** 2 for i in range(rows)) / rows
        out.append((batch[0, j] - mean) / (var + eps) ** 0.5)
    return np.array(out)


@given(seed=seeds, features=st.integers(2, 6))
def test_two_per_batch_agree_exactly_when_the_companions_lie_on_the_same_sides(seed, features):
    pair = same_example_in_two_batches(n_features=features, batch_size=2, seed=seed, eps=EPS)
    d_a, d_b = pair.example - pair.batch_a[1], pair.example - pair.batch_b[1]
    closed_a, closed_b = d_a / np.sqrt(d_a**2 + 4 * EPS), d_b / np.sqrt(d_b**2 + 4 * EPS)
    assert np.allclose(pair.batchnorm_a, closed_a, atol=1e-12) and np.allclose(pair.batchnorm_b, closed_b, atol=1e-12)
    expected = "differ" if np.abs(closed_a - closed_b).max() > 5e-3 else "signs"
    assert pair.batchnorm_outcome() == expected
    if expected == "signs":
        assert np.array_equal(np.sign(d_a), np.sign(d_b))


def test_the_hard_case_occurs_two_per_batch_with_the_same_output():
    """Seeds exist (many) where both batches give the example the same BatchNorm output."""
    outcomes = [same_example_in_two_batches(n_features=2, batch_size=2, seed=s, eps=EPS).batchnorm_outcome()
                for s in range(40)]
    assert "signs" in outcomes and "differ" in outcomes


@given(seed=seeds, features=st.integers(2, 6), batch=st.integers(3, 6))
def test_larger_batches_differ_by_the_statistics_computed_by_hand(seed, features, batch):
    pair = same_example_in_two_batches(n_features=features, batch_size=batch, seed=seed, eps=EPS)
    a, b = by_hand(pair.batch_a, EPS), by_hand(pair.batch_b, EPS)
    assert np.allclose(pair.batchnorm_a, a, atol=1e-9)
    difference = np.abs(a - b).max()
    if abs(difference - 5e-3) > 1e-9:
        assert pair.batchnorm_outcome() == ("differ" if difference > 5e-3 else "agree")


def test_the_spread_law_holds_within_a_tenth_and_a_wrong_law_is_caught():
    """2000 trials estimate a standard deviation to about 1/√4000 ≈ 1.6 %: 10 % is six standard errors."""
    sizes = (2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)
    for seed in range(5):
        assert batch_mean_spread(sizes, seed=seed).follows_law()
    sizes = np.array([2, 4])
    assert not BatchMeanSpread(sizes, 1.2 / np.sqrt(sizes), 1 / np.sqrt(sizes)).follows_law()
    assert BatchMeanSpread(sizes, 1.05 / np.sqrt(sizes), 1 / np.sqrt(sizes)).follows_law()


def test_the_gap_is_largest_at_the_smallest_batch_exactly_when_its_argmax_is_first():
    gap = train_eval_gap((2, 4, 8, 16, 32, 64, 128), seed=0)
    assert gap.largest_at_smallest_batch and gap.gaps[0] == max(gap.gaps)
    assert not TrainEvalGap(np.array([2, 4]), np.array([0.1, 0.2])).largest_at_smallest_batch
