"""Laws of nGPT's update h ← Norm(h + α(h_B − h)) (E3), against spherical interpolation written out,
the closed-form angle, and PyTorch's normalize."""

import math

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from normgeo.errors import InvalidParameterError, ShapeError, ZeroVectorError
from normgeo.ngpt_step import arc_fraction, ngpt_step, ngpt_update

alphas = st.floats(0.0, 1.0)
angles = st.floats(0.01, math.pi - 0.01)


def plane_pair(theta, d=5, seed=0):
    """Orthonormal u, v in ℝ^d (seeded); h = u, h_B = cos θ·u + sin θ·v."""
    q, _ = np.linalg.qr(np.random.default_rng(seed).normal(size=(d, 2)))
    u, v = q[:, 0], q[:, 1]
    return u, math.cos(theta) * u + math.sin(theta) * v, u, v


@given(angles, alphas)
def test_the_new_h_is_on_the_arc_at_the_closed_form_angle(theta, alpha):
    """Norm((1 − α)h + αh_B) = cos φ·u + sin φ·v with tan φ = α sin θ/(1 − α + α cos θ): a point of the
    great circle from h to h_B, reached by SLERP at fraction φ/θ; its length is 1."""
    h, hb, u, v = plane_pair(theta)
    step = ngpt_step(h, hb, alpha)
    phi = math.atan2(alpha * math.sin(theta), 1 - alpha + alpha * math.cos(theta))
    np.testing.assert_allclose(step.new, math.cos(phi) * u + math.sin(phi) * v, atol=1e-12)
    slerp = (math.sin((1 - phi / theta) * theta) * h + math.sin(phi) * hb) / math.sin(theta)
    np.testing.assert_allclose(step.new, slerp, atol=1e-9)
    assert step.new_norm == pytest.approx(1.0, abs=1e-15)
    assert step.step_angle == pytest.approx(phi, abs=1e-9)
    assert step.fraction == pytest.approx(float(arc_fraction(theta, alpha)), abs=1e-8)


@given(angles, st.floats(0.001, 0.499))
def test_the_fraction_of_the_arc_is_not_alpha_but_mirrors_about_one_half(theta, alpha):
    """0 < α < ½: fraction < α; f(1 − α) = 1 − f(α); f(½) = ½, f(0) = 0, f(1) = 1."""
    f, g = float(arc_fraction(theta, alpha)), float(arc_fraction(theta, 1 - alpha))
    assert f < alpha and g > 1 - alpha
    assert f + g == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(arc_fraction(theta, [0.0, 0.5, 1.0]), [0.0, 0.5, 1.0], atol=1e-12)


def test_small_arcs_make_the_fraction_alpha():
    """θ → 0: f(α) → α (the chord is the arc); at θ = 0.001 it differs by less than 1e-6."""
    alphas = np.linspace(0, 1, 11)
    assert np.max(np.abs(arc_fraction(1e-3, alphas) - alphas)) < 1e-6
    assert np.max(np.abs(arc_fraction(2.5, alphas) - alphas)) > 0.1


@given(angles)
def test_the_plain_residual_update_has_length_two_cos_half_theta(theta):
    """‖h + h_B‖ = 2 cos(θ/2) (h, h_B unit): off the sphere unless θ = 2π/3."""
    h, hb, _, _ = plane_pair(theta)
    step = ngpt_step(h, hb, 0.3)
    assert step.plain_norm == pytest.approx(2 * math.cos(theta / 2), abs=1e-12)
    assert step.plain_leaves_sphere == (abs(2 * math.cos(theta / 2) - 1) > 1e-9)
    assert not ngpt_step(*plane_pair(2 * math.pi / 3)[:2], 0.3).plain_leaves_sphere


def test_matches_pytorch_and_takes_directions_of_unnormalized_inputs():
    """torch: normalize(h + α(h_B − h)) with h, h_B normalized first; inputs not changed."""
    rng = np.random.default_rng(3)
    h, hb = rng.normal(size=7) * 4, rng.normal(size=7) * 0.1
    copies = h.copy(), hb.copy()
    unit = lambda v: torch.nn.functional.normalize(v, dim=0)  # noqa: E731
    th, thb = unit(torch.tensor(h)), unit(torch.tensor(hb))
    expected = unit(th + 0.2 * (thb - th)).numpy()
    np.testing.assert_allclose(ngpt_update(h, hb, 0.2), expected, rtol=1e-12, atol=1e-15)
    assert np.array_equal(h, copies[0]) and np.array_equal(hb, copies[1])


def test_predicates_and_edges():
    step = ngpt_step([1.0, 0.0], [0.0, 1.0], 0.5)
    assert step.fraction_is_alpha and step.fraction == pytest.approx(0.5)
    assert not ngpt_step([1.0, 0.0], [0.0, 1.0], 0.2).fraction_is_alpha
    same = ngpt_step([1.0, 0.0], [2.0, 0.0], 0.4)
    assert same.fraction is None and same.step_angle == 0.0 and not same.fraction_is_alpha
    with pytest.raises(ZeroVectorError, match="no direction"):
        ngpt_update([1.0, 0.0], [-1.0, 0.0], 0.5)
    with pytest.raises(InvalidParameterError, match=r"alpha must lie in \[0, 1\]"):
        ngpt_update([1.0, 0.0], [0.0, 1.0], 1.5)
    with pytest.raises(InvalidParameterError, match="one number"):
        ngpt_update([1.0, 0.0], [0.0, 1.0], [0.1, 0.2])
    with pytest.raises(ShapeError):
        ngpt_step([1.0, 0.0], [0.0, 1.0, 0.0], 0.5)
    with pytest.raises(InvalidParameterError, match="theta"):
        arc_fraction(0.0, 0.5)
