"""Laws of output radii and degrees of freedom (A4, A9, A10, A11)."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from normgeo import InvalidParameterError, degrees_of_freedom, euclidean_norm, l2_normalize, layer_norm, output_radius, rms_norm


@given(st.integers(2, 64), st.integers(0, 10_000))
def test_output_radius_is_the_length_the_layers_produce(n, seed):
    """Each layer's output (ε = 0) has exactly the length output_radius(kind, n)."""
    x = np.random.default_rng(seed).normal(size=n)
    for kind, layer in (("l2", l2_normalize), ("rmsnorm", rms_norm), ("layernorm", layer_norm)):
        y = layer(x) if kind == "l2" else layer(x, eps=0.0)
        assert math.isclose(euclidean_norm(y), output_radius(kind, n), rel_tol=1e-9)


@given(st.integers(2, 5000))
def test_each_constraint_removes_one_degree_of_freedom(n):
    """raw n; L2 and RMSNorm n − 1 (length); LayerNorm n − 2 (length and mean)."""
    assert degrees_of_freedom("none", n) == n
    assert degrees_of_freedom("l2", n) == degrees_of_freedom("rmsnorm", n) == n - 1
    assert degrees_of_freedom("layernorm", n) == n - 2


def test_degrees_of_freedom_table_of_the_source():
    """The table for n = 2, 3 and Qwen2's 896: 896 → 895 (L2/RMS) and 894 (LayerNorm)."""
    table = {n: [degrees_of_freedom(k, n) for k in ("none", "l2", "rmsnorm", "layernorm")] for n in (2, 3, 896)}
    assert table == {2: [2, 1, 1, 0], 3: [3, 2, 2, 1], 896: [896, 895, 895, 894]}


def test_radius_of_rms_norm_in_two_dimensions_is_sqrt_two():
    """A4: in 2-D RMSNorm's circle has radius √2 ≈ 1.414."""
    assert output_radius("rmsnorm", 2) == pytest.approx(1.41421356, abs=1e-8)


def test_layers_without_a_per_vector_sphere_raise():
    """BatchNorm and GroupNorm fix nothing per vector; asking for their radius or dof raises."""
    for kind in ("batchnorm", "groupnorm"):
        with pytest.raises(ValueError):
            output_radius(kind, 4)
        with pytest.raises(ValueError):
            degrees_of_freedom(kind, 4)


def test_layer_norm_of_one_number_has_no_degrees_of_freedom_to_count():
    """n = 1 is not a valid LayerNorm width: the one entry minus its mean is 0 whatever it was."""
    assert float(layer_norm([[3.7]], eps=1e-5)[0, 0]) == 0.0
    with pytest.raises(InvalidParameterError, match="n = 1"):
        degrees_of_freedom("layernorm", 1)
    assert degrees_of_freedom("l2", 1) == degrees_of_freedom("rmsnorm", 1) == 0  # only a sign is left
