"""Laws of pre-norm and post-norm stacks (B10), with backprop checked by finite differences."""

import math

import numpy as np
import pytest

from normgeo import make_stack, prenorm_postnorm_study
from normgeo.residual_stacks import block_input_gradient, stack_loss


@pytest.mark.parametrize("arrangement", ["pre", "post"])
@pytest.mark.parametrize("seed", [0, 1])
def test_backprop_matches_finite_differences(arrangement, seed):
    """∂L/∂x₀ by hand equals the central difference in every coordinate."""
    stack = make_stack(depth=6, width=5, seed=seed)
    grad = block_input_gradient(stack, arrangement)
    h = 1e-6
    loss = lambda x: stack_loss(stack, arrangement, x)  # noqa: E731
    numeric = np.array([(loss(stack.start + h * e) - loss(stack.start - h * e)) / (2 * h) for e in np.eye(5)])
    assert np.allclose(grad, numeric, atol=1e-7)


def test_prenorm_gradient_never_falls_below_the_clean_path_and_postnorm_decays():
    """Pre-norm: the first block receives at least what the last does (the identity path);
    post-norm: the gradient reaching the first block is well below the last block's."""
    study = prenorm_postnorm_study()
    assert study.pre[0] >= study.pre[-1]
    assert study.post[0] < 0.6 * study.post[-1]
    assert study.pre[0] > 5 * study.post[0]


def test_deeper_postnorm_stacks_lose_more():
    """Doubling the depth shrinks the gradient reaching post-norm's first block further."""
    assert prenorm_postnorm_study(depth=48).post[0] < prenorm_postnorm_study(depth=24).post[0]


def _layer_norm_by_hand(v):
    """(v − μ)/σ with exactly rounded sums, ε = 0."""
    n = len(v)
    mu = math.fsum(v) / n
    sigma = math.sqrt(math.fsum((x - mu) ** 2 for x in v) / n)
    return np.array([(x - mu) / sigma for x in v])


@pytest.mark.parametrize("arrangement", ["pre", "post"])
def test_the_loss_is_the_readout_of_the_stack_run_by_hand(arrangement):
    """Pre-norm: x ← x + W·LN(x); post-norm: x ← LN(x + W·x); LN at ε = 0; L = ⟨v, x_L⟩."""
    stack = make_stack(depth=5, width=4, seed=3)
    x = stack.start.copy()
    for w in stack.weights:
        x = x + w @ _layer_norm_by_hand(x) if arrangement == "pre" else _layer_norm_by_hand(x + w @ x)
    assert stack_loss(stack, arrangement) == pytest.approx(float(stack.readout @ x), rel=1e-12, abs=1e-12)


def test_an_unknown_arrangement_is_named_in_the_refusal():
    with pytest.raises(ValueError, match=r"^unknown arrangement 'side'; choose pre or post$"):
        stack_loss(make_stack(depth=2, width=3), "side")
