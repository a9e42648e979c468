"""Laws of batch dependence (B9): BatchNorm couples examples, LayerNorm does not; with B = 2 only
the side of the companion matters."""

import numpy as np
from hypothesis import assume, example, given
from hypothesis import strategies as st

from normgeo import batch_mean_spread, batch_norm, running_statistics, same_example_in_two_batches, train_eval_gap
from tests.core.strategies import channel_first_arrays


@given(st.integers(0, 10_000), st.integers(3, 8))
def test_with_three_or_more_examples_the_companions_change_the_batchnorm_output(seed, batch_size):
    """B ≥ 3: the same example, with other random companions, gets another BatchNorm output (equal
    outputs would need a coincidence of probability 0 for these normal draws) and the same LayerNorm output."""
    result = same_example_in_two_batches(batch_size=batch_size, seed=seed)
    assert np.array_equal(result.batch_a[0], result.batch_b[0])
    assert not np.allclose(result.batchnorm_a, result.batchnorm_b, atol=1e-6)
    assert np.array_equal(result.layernorm_a, result.layernorm_b)


@given(st.integers(0, 10_000))
@example(85)  # found by hypothesis against the old claim "two batches, two BatchNorm outputs" at B = 2
def test_with_two_examples_only_the_side_of_the_companion_matters(seed):
    """B = 2, ε = 0: per feature the example's BatchNorm output is sign(x − a), a its companion, so
    the two batches give the same output exactly when both companions lie on the same side of x."""
    result = same_example_in_two_batches(batch_size=2, seed=seed, eps=0.0)
    x, a, b = result.example, result.batch_a[1], result.batch_b[1]
    assert np.allclose(result.batchnorm_a, np.sign(x - a), rtol=0, atol=1e-12)
    assert np.allclose(result.batchnorm_b, np.sign(x - b), rtol=0, atol=1e-12)
    same_side = bool(np.all(np.sign(x - a) == np.sign(x - b)))
    assert np.allclose(result.batchnorm_a, result.batchnorm_b, rtol=0, atol=1e-12) == same_side


@given(channel_first_arrays())
def test_one_value_scores_at_most_root_m_minus_one(x):
    """Samuelson's inequality: among m values with σ > 0, each score (v − μ)/σ has |z| ≤ √(m − 1),
    so BatchNorm (ε = 0) over m = N·L… values per channel never leaves that interval; m = 2 sits on it."""
    columns = np.moveaxis(x, 1, 0).reshape(x.shape[1], -1)
    varying = columns.std(axis=1) > 1e-6 * np.max(np.abs(columns))
    assume(varying.any())
    m = columns.shape[1]
    z = np.moveaxis(batch_norm(x[:, varying], eps=0.0), 1, 0).reshape(int(varying.sum()), -1)
    assert np.all(np.abs(z) <= np.sqrt(m - 1) * (1 + 1e-9))
    if m == 2:
        assert np.allclose(np.abs(z), 1.0, rtol=1e-9)


@given(st.integers(2, 8), st.integers(0, 10_000))
def test_moving_one_companion_changes_the_score_at_the_rate_the_law_gives(batch_size, seed):
    """∂z₀/∂a_k = −(1 + z₀·z_k)/(Bσ) for the score z₀ of value 0 of a batch (ε = 0), checked by
    central differences; at B = 2, z_k = −z₀ = ∓1, so the rate is 0."""
    values = np.random.default_rng(seed).normal(size=batch_size)
    z = batch_norm(values[:, None], eps=0.0)[:, 0]
    sigma = values.std()
    h = 1e-6
    for k in range(1, batch_size):
        up, down = values.copy(), values.copy()
        up[k] += h
        down[k] -= h
        numeric = (batch_norm(up[:, None], eps=0.0)[0, 0] - batch_norm(down[:, None], eps=0.0)[0, 0]) / (2 * h)
        assert abs(numeric + (1 + z[0] * z[k]) / (batch_size * sigma)) <= 1e-6 / sigma**2


OFFSETS = st.floats(1e-3, 10) | st.floats(-10, -1e-3)  # far above the rounding of a companion of size ≤ 10


@given(st.integers(3, 8), st.floats(-10, 10), OFFSETS)
def test_equal_companions_put_the_score_on_samuelsons_bound_where_it_cannot_move(batch_size, companion, offset):
    """B ≥ 3 and all B − 1 companions equal: |z₀| = √(B − 1) and every rate −(1 + z₀·z_k)/(Bσ) is 0,
    the only case where no single companion can move the example's output."""
    values = np.array([companion + offset] + [companion] * (batch_size - 1))
    z = batch_norm(values[:, None], eps=0.0)[:, 0]
    assert np.isclose(abs(z[0]), np.sqrt(batch_size - 1), rtol=1e-9)
    assert np.allclose(1 + z[0] * z[1:], 0.0, atol=1e-9)


def test_batch_mean_spread_follows_sigma_over_root_b():
    """The measured spread of batch means is σ/√B within 10%, and shrinks as B grows."""
    spread = batch_mean_spread(trials=4000)
    assert np.allclose(spread.measured, spread.predicted, rtol=0.1)
    assert np.all(np.diff(spread.measured) < 0)


def test_running_statistics_follow_pytorch_momentum_rule():
    """mean ← (1 − m)·mean + m·batch mean, var likewise with the unbiased batch variance."""
    batches = [np.array([[1.0], [3.0]]), np.array([[5.0], [9.0]])]
    mean, var = running_statistics(batches, momentum=0.5)
    assert np.allclose(mean, 0.5 * (0.5 * 0 + 0.5 * 2) + 0.5 * 7)
    assert np.allclose(var, 0.5 * (0.5 * 1 + 0.5 * 2) + 0.5 * 8)


def test_train_and_eval_modes_disagree_most_for_small_batches():
    """The gap between training-mode and running-statistics outputs shrinks with batch size."""
    gap = train_eval_gap()
    assert gap.gaps[0] > 4 * gap.gaps[-1]
    assert np.all(np.diff(gap.gaps) < 0)
