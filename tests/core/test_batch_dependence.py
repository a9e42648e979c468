"""Laws of batch dependence (B9): BatchNorm couples examples, LayerNorm does not."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from normgeo import batch_mean_spread, running_statistics, same_example_in_two_batches, train_eval_gap


@given(st.integers(0, 10_000), st.integers(2, 8))
def test_same_example_two_batches_two_batchnorm_outputs_one_layernorm_output(seed, batch_size):
    """BatchNorm's output for an example depends on its companions; LayerNorm's does not."""
    result = same_example_in_two_batches(batch_size=batch_size, seed=seed)
    assert np.array_equal(result.batch_a[0], result.batch_b[0])
    assert not np.allclose(result.batchnorm_a, result.batchnorm_b, atol=1e-6)
    assert np.array_equal(result.layernorm_a, result.layernorm_b)


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
