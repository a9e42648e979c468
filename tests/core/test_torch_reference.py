"""The core against PyTorch, where the core claims PyTorch's conventions (test-only reference; the
core never imports torch): F.layer_norm, F.rms_norm, F.batch_norm in training mode (biased
variance), F.group_norm, F.normalize, and the Jacobians through torch.autograd.

Tolerance: both compute in float64 from the same inputs by different algorithms (the core
rescales by max|xᵢ| first, PyTorch does not); entries of the outputs are O(1)–O(√n), so a few
hundred ulps, 1e-12 relative + 1e-12 absolute, separates rounding from any wrong term (a sample
instead of population variance is off by a factor √((m−1)/m) ≥ 1 − 1/(2m), at least 1e-3 for
the group sizes here; ε outside the root changes outputs by ≥ 1e-6 at ε = 1e-5 and σ ~ 1).
"""

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from normgeo import batch_norm, group_norm, l2_normalize, layer_norm, layer_norm_jacobian, rms_norm, rms_norm_jacobian

RTOL = ATOL = 1e-12
TINY = 1e-300  # torch refuses ε = 0 in training-mode batch_norm; 1e-300 changes σ² ~ 1 by nothing in float64
RNG = np.random.default_rng(20261201)


def t(array):
    return torch.tensor(np.asarray(array), dtype=torch.float64)


def close(ours, theirs):
    np.testing.assert_allclose(ours, theirs.detach().numpy(), rtol=RTOL, atol=ATOL)


SHAPES = [(2,), (5,), (3, 4), (2, 3, 7)]
EPS = [0.0, 1e-5, 1e-2, 3.0]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("eps", EPS)
def test_layer_norm_is_torchs(shape, eps):
    x = RNG.normal(0.5, 2.0, shape)
    n = shape[-1]
    weight, bias = RNG.normal(size=n), RNG.normal(size=n)
    close(layer_norm(x, eps=eps), F.layer_norm(t(x), (n,), eps=eps))
    close(layer_norm(x, eps=eps, weight=weight, bias=bias), F.layer_norm(t(x), (n,), t(weight), t(bias), eps=eps))


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("eps", EPS)
def test_rms_norm_is_torchs(shape, eps):
    x = RNG.normal(0.5, 2.0, shape)
    n = shape[-1]
    weight = RNG.normal(size=n)
    close(rms_norm(x, eps=eps), F.rms_norm(t(x), (n,), eps=eps))
    close(rms_norm(x, eps=eps, weight=weight), F.rms_norm(t(x), (n,), t(weight), eps=eps))


@pytest.mark.parametrize("shape", [(2, 3), (4, 2, 5), (3, 2, 2, 3), (1, 3, 4)])
@pytest.mark.parametrize("eps", EPS)
def test_batch_norm_in_training_mode_is_torchs(shape, eps):
    """Biased variance over the batch and spatial axes, per channel (torch's training=True
    normalizes with the biased estimate; the unbiased one only enters running_var)."""
    x = RNG.normal(1.0, 3.0, shape)
    c = shape[1]
    weight, bias = RNG.normal(size=c), RNG.normal(size=c)
    theirs = eps or TINY
    close(batch_norm(x, eps=eps), F.batch_norm(t(x), None, None, training=True, eps=theirs))
    close(batch_norm(x, eps=eps, weight=weight, bias=bias),
          F.batch_norm(t(x), None, None, t(weight), t(bias), training=True, eps=theirs))


@pytest.mark.parametrize(("shape", "groups"), [((2, 4), 2), ((3, 6, 5), 3), ((2, 6, 2, 3), 2), ((1, 4, 3), 4),
                                               ((2, 4, 3), 1)])
@pytest.mark.parametrize("eps", EPS)
def test_group_norm_is_torchs(shape, groups, eps):
    x = RNG.normal(-1.0, 2.0, shape)
    c = shape[1]
    weight, bias = RNG.normal(size=c), RNG.normal(size=c)
    close(group_norm(x, groups, eps=eps), F.group_norm(t(x), groups, eps=eps))
    close(group_norm(x, groups, eps=eps, weight=weight, bias=bias), F.group_norm(t(x), groups, t(weight), t(bias), eps=eps))


@pytest.mark.parametrize("eps", [0.0, 1e-12, 0.5, 10.0])
def test_l2_normalize_is_torchs_normalize(eps):
    x = RNG.normal(size=(4, 3))
    x[0] *= 1e-3  # a short vector: max(‖x‖, ε) picks ε for the larger ε
    expected = F.normalize(t(x), dim=-1, eps=eps) if eps > 0 else t(x) / t(x).norm(dim=-1, keepdim=True)
    close(l2_normalize(x, eps=eps), expected)


def autograd_jacobian(function, x):
    return torch.autograd.functional.jacobian(function, t(x))


@pytest.mark.parametrize("n", [2, 3, 5, 8])
@pytest.mark.parametrize("eps", [0.0, 1e-5, 1.0])
def test_layer_norm_jacobian_is_autograds(n, eps):
    x = RNG.normal(0.3, 1.5, n)
    expected = autograd_jacobian(lambda v: F.layer_norm(v, (n,), eps=eps), x)
    close(layer_norm_jacobian(x, eps=eps), expected)


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8])
@pytest.mark.parametrize("eps", [0.0, 1e-6, 1.0])
def test_rms_norm_jacobian_is_autograds(n, eps):
    x = RNG.normal(0.3, 1.5, n)
    expected = autograd_jacobian(lambda v: F.rms_norm(v, (n,), eps=eps), x)
    close(rms_norm_jacobian(x, eps=eps), expected)


def test_batched_jacobians_are_one_autograd_jacobian_per_row():
    x = RNG.normal(size=(3, 4))
    ours = layer_norm_jacobian(x, eps=1e-5)
    for row in range(3):
        close(ours[row], autograd_jacobian(lambda v: F.layer_norm(v, (4,), eps=1e-5), x[row]))


@pytest.mark.parametrize("scale", [1e200, 1e-200, 1e150, 1e-150])
@pytest.mark.parametrize("which", ["layer", "rms"])
def test_jacobians_at_1e_pm_200_follow_the_scaling_law_against_autograd(scale, which):
    """At ε = 0, LN(cx) = LN(x), so J(cx) = J(x)/c: at c = 1e±200 (where squaring x would
    overflow to inf or underflow to 0) c·J(cx) must equal autograd's J(x) at moderate x."""
    x = RNG.normal(0.2, 1.0, 5)
    ours = (layer_norm_jacobian if which == "layer" else rms_norm_jacobian)(x * scale, eps=0.0)
    function = (lambda v: F.layer_norm(v, (5,), eps=0.0)) if which == "layer" else (lambda v: F.rms_norm(v, (5,), eps=0.0))
    assert np.isfinite(ours).all()
    np.testing.assert_allclose(ours * scale, autograd_jacobian(function, x).numpy(), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("scale", [1e200, 1e-200])
def test_normalization_at_1e_pm_200_equals_torch_at_moderate_size(scale):
    """LN, RMSNorm (ε = 0), BatchNorm and GroupNorm are invariant to x → cx: at 1e±200 (torch
    itself overflows there) the core gives torch's output for x."""
    x = RNG.normal(size=(3, 4))
    close(layer_norm(x * scale, eps=0.0), F.layer_norm(t(x), (4,), eps=0.0))
    close(rms_norm(x * scale, eps=0.0), F.rms_norm(t(x), (4,), eps=0.0))
    close(batch_norm(x * scale, eps=0.0), F.batch_norm(t(x), None, None, training=True, eps=TINY))
    close(group_norm(x * scale, 2, eps=0.0), F.group_norm(t(x), 2, eps=0.0))
