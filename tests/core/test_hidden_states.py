"""Laws of the real-states statistics, each against an independent fact: fsum brute force, closed
forms, PyTorch's own rms_norm/layer_norm (test-only reference), sampling."""

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from normgeo import (
    ShapeError,
    ZeroVarianceError,
    clip_lengths,
    depth_trend,
    layer_profile,
    massive_tokens,
    mean_share,
    normalized_radius,
    output_ellipsoid,
    participation_ratio,
    principal_directions,
    radial_view,
    token_centring_angles,
    token_norms,
)
from normgeo.circles import hyperplane_basis


def states(seed=0, tokens=7, n=12, offset=0.7):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(tokens, n)) * rng.uniform(0.5, 50, size=(tokens, 1)) + offset


def test_norms_and_mean_share_equal_fsum_brute_force():
    x = states()
    n = x.shape[1]
    for row, norm, share in zip(x, token_norms(x), mean_share(x), strict=True):
        brute = math.sqrt(math.fsum(v * v for v in row))
        assert norm == pytest.approx(brute, rel=1e-14)
        assert share == pytest.approx(abs(math.fsum(row)) / (math.sqrt(n) * brute), rel=1e-12)


def test_share_is_the_sine_of_the_rmsnorm_layernorm_angle():
    """|μ|√n/‖x‖ = sin(arctan(|μ|/σ)), and the angle equals the one measured between PyTorch's outputs."""
    x = states(1, offset=3.0)
    angles = token_centring_angles(x)
    assert np.allclose(np.sin(angles), mean_share(x), rtol=1e-12)
    t = torch.tensor(x, dtype=torch.float64)
    rms, ln = F.rms_norm(t, (x.shape[1],)), F.layer_norm(t, (x.shape[1],))
    cosine = (rms * ln).sum(-1) / (rms.norm(dim=-1) * ln.norm(dim=-1))
    assert np.allclose(np.arccos(np.clip(cosine.numpy(), -1, 1)), angles, atol=1e-7)


@pytest.mark.parametrize("eps", [0.0, 1e-5, 1.0, 100.0])
def test_radius_before_gamma_equals_the_length_of_torch_outputs(eps):
    x = states(2, n=9) / 30  # small spreads, so ε shows
    t = torch.tensor(x, dtype=torch.float64)
    rms = F.rms_norm(t, (9,), eps=eps).norm(dim=-1).numpy()
    ln = F.layer_norm(t, (9,), eps=eps).norm(dim=-1).numpy()
    assert np.allclose(normalized_radius(x, eps, centre=False), rms, rtol=1e-12)
    assert np.allclose(normalized_radius(x, eps, centre=True), ln, rtol=1e-12)
    assert (normalized_radius(x, eps, centre=False) <= 3.0 + 1e-12).all()  # never above √n


def test_massive_tokens_by_brute_force():
    norms = np.array([22712.0, 150.0, 140.0, 160.0, 1600.0])
    found = massive_tokens(norms, factor=10.0)
    median = sorted(norms)[2]
    assert found.median == median
    assert found.indices == tuple(i for i, v in enumerate(norms) if v >= 10 * median) == (0, 4)
    assert massive_tokens(norms, factor=200.0).indices == ()


def test_rmsnorm_ellipsoid_is_gamma_times_the_sphere():
    gamma = np.array([0.5, -2.0, 1.0, 3.0])
    assert np.allclose(output_ellipsoid(gamma, centred=False).semi_axes, [6.0, 4.0, 2.0, 1.0])


def test_layernorm_ellipsoid_semi_axes_by_sampling_the_set():
    """γ ⊙ (S ∩ H): sampled points' largest and smallest distance from the centre, and the covariance
    of uniform points on the (n − 2)-sphere (R²/(n − 1)·Σ) give the semi-axes."""
    rng = np.random.default_rng(3)
    n, gamma = 5, np.array([0.3, 2.0, 1.1, 0.9, 1.7])
    basis = hyperplane_basis(n)
    directions = rng.normal(size=(200000, n - 1))
    directions /= np.linalg.norm(directions, axis=1, keepdims=True)
    points = gamma * (math.sqrt(n) * directions @ basis)
    axes = output_ellipsoid(gamma, centred=True).semi_axes
    lengths = np.linalg.norm(points, axis=1)
    assert lengths.max() <= axes[0] + 1e-9 and lengths.max() > 0.99 * axes[0]
    assert lengths.min() >= axes[-1] - 1e-9 and lengths.min() < 1.05 * axes[-1]
    spectrum = np.sort(np.linalg.eigvalsh(points.T @ points / len(points)))[::-1][: n - 1]
    assert np.allclose(np.sqrt(spectrum * (n - 1)), axes, rtol=0.02)


def test_participation_ratio_of_a_known_spectrum():
    """Centred data with singular values s: PR = (Σs²)²/Σs⁴, and equal to numpy's covariance eigenvalues'."""
    rng = np.random.default_rng(4)
    tokens, n = 9, 30
    left, _ = np.linalg.qr(rng.normal(size=(tokens, tokens)))
    left = left - left.mean(axis=0)
    left, _ = np.linalg.qr(left)
    right, _ = np.linalg.qr(rng.normal(size=(n, 4)))
    s = np.array([5.0, 3.0, 1.0, 0.5])
    x = left[:, :4] @ np.diag(s) @ right.T
    x -= x.mean(axis=0)
    result = participation_ratio(x + 7.0)  # a common offset is removed by the centring
    lam = np.linalg.eigvalsh(np.cov(x.T))
    assert result.ratio == pytest.approx((s**2).sum() ** 2 / (s**4).sum(), rel=1e-9)
    assert result.ratio == pytest.approx(lam.sum() ** 2 / (lam**2).sum(), rel=1e-9)
    assert result.rank_bound == tokens - 1 and result.ratio <= result.rank_bound


def test_radial_view_keeps_true_length_and_projected_direction():
    x = states(5)
    basis = principal_directions(x, 3)
    assert np.allclose(basis @ basis.T, np.eye(3), atol=1e-12)
    view = radial_view(x, basis)
    assert np.allclose(np.linalg.norm(view, axis=1), np.linalg.norm(x, axis=1), rtol=1e-12)
    projected = x @ basis.T
    cos = np.sum(view * projected, axis=1) / (np.linalg.norm(view, axis=1) * np.linalg.norm(projected, axis=1))
    assert np.allclose(cos, 1.0, atol=1e-12)
    drawn, mask = clip_lengths(view, float(np.median(np.linalg.norm(view, axis=1))))
    assert mask.sum() == 3 and np.allclose(np.linalg.norm(drawn[mask], axis=1), np.median(np.linalg.norm(view, axis=1)))


def test_layer_profile_measures_the_captured_outputs_before_gamma():
    x, gamma, beta = states(6, n=10), np.linspace(0.2, 2.0, 10), np.linspace(-1, 1, 10)
    t = torch.tensor(x)
    y = F.layer_norm(t, (10,), torch.tensor(gamma), torch.tensor(beta), eps=1e-5).numpy()
    profile = layer_profile(x, 1e-5, True, gamma, beta, y)
    assert np.allclose(profile.measured_radii, profile.radii, rtol=1e-12)
    assert np.allclose(profile.radii, F.layer_norm(t, (10,), eps=1e-5).norm(dim=-1).numpy(), rtol=1e-12)


def test_bad_input_is_refused():
    with pytest.raises(ShapeError):
        token_norms(np.ones((2, 3, 4)))
    with pytest.raises(ZeroVarianceError):
        token_centring_angles([[2.0, 2.0, 2.0]])
    with pytest.raises(ShapeError):
        depth_trend([1.0])
    trend = depth_trend([2.6, 52.9, 50.0, 553.0])
    assert trend.grows and trend.rises == 2 and trend.ratio == pytest.approx(553 / 2.6)


def test_clipping_computes_in_float64_whatever_the_input():
    """Single-precision or integer points are pulled back in double precision (the length of
    (3·10⁸, 4·10⁸) in float32 is off by units, in float64 exact)."""
    for points in (np.array([[3e8, 4e8], [1.0, 2.0]], dtype=np.float32), [[3, 4], [30, 40]]):
        clipped, mask = clip_lengths(points, 5.0)
        assert clipped.dtype == np.float64
        expected = np.asarray(points, np.float64)
        lengths = np.sqrt((expected ** 2).sum(axis=1))
        expected = np.where((lengths > 5.0)[:, None], expected * (5.0 / lengths)[:, None], expected)
        assert np.array_equal(mask, lengths > 5.0) and np.allclose(clipped, expected, rtol=1e-15, atol=0)
