"""Laws of the layer names: parsing, and which layer depends on the batch (B8, B9)."""

import numpy as np
from hypothesis import given

from normgeo import Layer, batch_norm, group_norm, l2_normalize, layer_norm, parse_layer, rms_norm
from tests.core.strategies import channel_first_arrays

LAYERS = {
    Layer.L2: lambda x: l2_normalize(x, eps=1e-12),
    Layer.RMSNORM: lambda x: rms_norm(x, eps=1e-5),
    Layer.LAYERNORM: layer_norm,
    Layer.BATCHNORM: batch_norm,
    Layer.GROUPNORM: lambda x: group_norm(x, 1),
    Layer.NONE: lambda x: x,
}


def test_only_batchnorm_depends_on_the_batch():
    """depends_on_batch is True for BatchNorm alone, whatever the name was spelled."""
    assert [layer for layer in Layer if layer.depends_on_batch] == [Layer.BATCHNORM]
    assert parse_layer("BN").depends_on_batch and not parse_layer("LayerNorm").depends_on_batch


@given(channel_first_arrays())
def test_a_layer_that_does_not_depend_on_the_batch_treats_each_example_alone(x):
    """depends_on_batch False ⇒ each example's output is the same alone as inside the batch."""
    for layer, fn in LAYERS.items():
        if not layer.depends_on_batch:
            for k in range(x.shape[0]):
                assert np.allclose(fn(x)[k], fn(x[k : k + 1])[0], rtol=1e-12, atol=1e-12), layer


def test_batchnorm_gives_one_example_different_outputs_in_different_batches():
    """depends_on_batch True: example (1, 2) scores (−1, −1) beside (3, 4) and (1, 1) beside (0, 0)."""
    example = [1.0, 2.0]
    assert np.allclose(batch_norm([example, [3.0, 4.0]], eps=0.0)[0], [-1.0, -1.0])
    assert np.allclose(batch_norm([example, [0.0, 0.0]], eps=0.0)[0], [1.0, 1.0])
