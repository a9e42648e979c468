"""statistic_groups and averaged_axes at their edges: one-dimensional shapes, the axes GroupNorm
and BatchNorm average over against PyTorch's own layers, and the refusals, word for word.

The axes are checked against ``torch.nn.functional``: normalizing by hand over
``averaged_axes(kind, 4)`` must give what ``F.group_norm`` (one group: every axis but the batch)
and ``F.batch_norm`` in training mode (every axis but the channel) give, to rounding (1e-12 on
values of order 1). The refusals' messages are the user's interface, so they are compared whole.
"""

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from normgeo import ShapeError, averaged_axes, statistic_groups, statistics_by_group

EPS = 1e-5


def normalized_over(x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    mean = x.mean(axis=axes, keepdims=True)
    return (x - mean) / np.sqrt(x.var(axis=axes, keepdims=True) + EPS)


def message(call) -> str:
    with pytest.raises(ShapeError) as info:
        call()
    return str(info.value)


X = np.random.default_rng(3).normal(size=(2, 4, 3, 5))


def test_group_norm_with_one_group_averages_every_axis_but_the_batch():
    """F.group_norm(x, 1) normalizes each example over (C, H, W): the axes must be (1, 2, 3)."""
    axes = averaged_axes("groupnorm", 4)
    assert axes == (1, 2, 3)
    expected = F.group_norm(torch.from_numpy(X), 1, eps=EPS).numpy()
    assert np.allclose(normalized_over(X, axes), expected, rtol=0, atol=1e-12)


def test_group_norm_axes_of_a_plain_matrix_are_the_features():
    """For (N, C) GroupNorm with one group is LayerNorm over the C features: axis 1 only."""
    assert averaged_axes("groupnorm", 2) == (1,)
    x = X[:, :, 0, 0]
    expected = F.group_norm(torch.from_numpy(x), 1, eps=EPS).numpy()
    assert np.allclose(normalized_over(x, averaged_axes("groupnorm", 2)), expected, rtol=0, atol=1e-12)


def test_batch_norm_averages_every_axis_but_the_channel():
    axes = averaged_axes("batchnorm", 4)
    assert axes == (0, 2, 3)
    expected = F.batch_norm(torch.from_numpy(X), None, None, training=True, eps=EPS).numpy()
    assert np.allclose(normalized_over(X, axes), expected, rtol=0, atol=1e-12)


@pytest.mark.parametrize("kind", ["layernorm", "rmsnorm", "l2"])
def test_one_vector_is_one_group(kind):
    """A 1-D shape is a single vector: every entry shares μ and σ, so every label is 0."""
    assert statistic_groups(kind, (4,)).tolist() == [0, 0, 0, 0]
    assert statistic_groups(kind, [3]).tolist() == [0, 0, 0]


def test_none_labels_every_cell_in_row_major_order():
    assert statistic_groups("none", (2, 3)).tolist() == [[0, 1, 2], [3, 4, 5]]


def test_group_norm_labels_by_example_then_group():
    """Two examples, 6 channels in 3 groups of 2, 2 positions: labels n·3 + c//2, by hand."""
    labels = statistic_groups("groupnorm", (2, 6, 2), num_groups=3)
    expected = [[[n * 3 + c // 2] * 2 for c in range(6)] for n in range(2)]
    assert labels.tolist() == expected


@pytest.mark.parametrize("kind", ["batchnorm", "groupnorm"])
def test_batch_layers_refuse_a_single_vector(kind):
    """BatchNorm and GroupNorm need (N, C, ...): a 1-D shape is refused in one line, not an IndexError."""
    assert message(lambda: statistic_groups(kind, (4,), num_groups=2)) == (
        f"{kind} needs an input of shape (N, C, ...), got 1 dimension(s)")
    assert message(lambda: averaged_axes(kind, 1)) == f"{kind} needs an input of shape (N, C, ...), got 1 dimension(s)"


def test_refusals_word_for_word():
    assert message(lambda: statistic_groups("batchnorm", [None])) == (
        "shape must be a sequence of positive ints, got [None]")
    assert message(lambda: statistic_groups("layernorm", 5)) == "shape must be a sequence of positive ints, got 5"
    assert message(lambda: statistic_groups("layernorm", ())) == "shape must have at least one dimension"
    assert message(lambda: statistic_groups("groupnorm", (2, 4))) == "groupnorm needs num_groups"
    assert message(lambda: statistic_groups("groupnorm", (2, 6), num_groups=4)) == (
        "the number of channels (6) is not divisible by num_groups (4)")
    assert message(lambda: statistics_by_group([[1.0, 2.0], [3.0, 4.0]], [0, 0, 1, 1])) == (
        "labels must have the shape of values (2, 2), got (4,)")
