"""Laws of LayerNorm's backward pass (C3): g splits into orthogonal parts along 1, along x̂ and
tangent; Jᵀg = tangent/σ is orthogonal to 1, x̂ and x; along SGD ⟨∇, W⟩ = 0 and ‖W‖² grows by η²‖∇‖²."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from normgeo import ShapeError, layer_norm, norm_growth_run
from normgeo.gradient_orthogonality import layer_norm_gradient_split, norm_growth_summary
from tests.core.strategies import moderate_vectors

gradients = st.integers(2, 12).flatmap(
    lambda n: st.tuples(moderate_vectors(n=n, batch=()),
                        arrays(np.float64, (n,), elements=st.floats(-10, 10, allow_nan=False))))


@given(gradients)
def test_gradient_is_the_sum_of_three_orthogonal_parts(pair):
    """g = (⟨g,1⟩/n)·1 + (⟨g,x̂⟩/n)·x̂ + t, and the three parts are pairwise orthogonal."""
    x, g = pair
    split = layer_norm_gradient_split(x, g)
    scale = 1.0 + np.abs(g).max() * x.size
    assert np.allclose(split.along_ones + split.along_output + split.tangent, g, atol=1e-12 * scale)
    parts = (split.along_ones, split.along_output, split.tangent)
    for i in range(3):
        for j in range(i + 1, 3):
            assert abs(parts[i] @ parts[j]) <= 1e-9 * scale**2
    assert np.allclose(split.output, layer_norm(x, eps=0.0))


@given(gradients)
def test_backward_pass_keeps_the_tangent_part_scaled_by_one_over_sigma(pair):
    """Jᵀg (from the Jacobian) equals t/σ, and is orthogonal to 1, to x̂ and to x itself."""
    x, g = pair
    split = layer_norm_gradient_split(x, g)
    size = np.abs(g).max() / split.sigma + 1e-300
    assert np.allclose(split.input_gradient, split.tangent / split.sigma, atol=1e-9 * size, rtol=0)
    assert abs(split.ones_inner) <= 1e-9 * size * x.size
    assert abs(split.output_inner) <= 1e-9 * size * x.size
    assert abs(split.input_inner) <= 1e-9 * size * x.size * (1 + np.abs(x).max())


def test_split_refuses_mismatched_shapes():
    with pytest.raises(ShapeError):
        layer_norm_gradient_split([1.0, 2.0, 3.0], [1.0, 2.0])


@settings(max_examples=10, deadline=None)
@given(st.sampled_from([0.0, 0.01, 0.05]), st.integers(0, 50))
def test_sgd_steps_are_orthogonal_and_grow_the_norm_by_the_gradient(decay, seed):
    """Along minibatch SGD on LN(Wx): |cos∠(∇, W)| ≈ 0, ‖W_{t+1}‖² = (1 − ηλ)²‖W_t‖² + η²‖∇‖²,
    η/‖W‖² is the effective step; without decay ‖W‖ never falls."""
    run = norm_growth_run(steps=40, weight_decay=decay, seed=seed)
    summary = norm_growth_summary(run)
    assert summary.largest_cosine < 1e-12
    assert summary.largest_growth_error < 1e-12
    assert np.allclose(summary.effective_steps, run.learning_rate / run.weight_norms**2)
    if decay == 0.0:
        assert np.all(np.diff(run.weight_norms) >= 0)
