"""Laws of the toy attention dynamics on the sphere (E2), each against a fact computed another way:
closed forms for two particles and for a symmetric cone, a scalar ODE solved by scipy, the order of
RK4 by step halving, the energy's gradient by PyTorch autograd."""

import math

import numpy as np
import pytest
import torch
from scipy.integrate import solve_ivp

from normgeo.errors import InvalidParameterError, ShapeError, ZeroVectorError
from normgeo.sphere_attention import (
    ATTENTION_SCHEMES,
    angular_speeds,
    attention_targets,
    cluster_count,
    clustering_times,
    particle_run,
    particle_velocity,
    sphere_points,
)


def pair(half_angle, radius=1.0, d=3):
    """Two points at ±half_angle from e₁ in the (e₁, e₂) plane, at length ``radius``."""
    points = np.zeros((2, d))
    points[:, 0] = radius * math.cos(half_angle)
    points[:, 1] = radius * math.sin(half_angle) * np.array([1.0, -1.0])
    return points


def pair_angles(run):
    return np.arccos(np.clip(np.sum(run.directions[:, 0] * run.directions[:, 1], axis=1), -1, 1))


def test_two_particles_at_beta_zero_post_close_as_tan_half_angle_times_exp_minus_t():
    """β = 0, post: θ̇ = −sin θ for the angle between them, so tan(θ/2) = tan(θ₀/2)·e^{−t}."""
    run = particle_run(pair(1.2), beta=0.0, scheme="post", t_end=6.0, steps=300)
    expected = 2 * np.arctan(math.tan(1.2) * np.exp(-run.times))
    np.testing.assert_allclose(pair_angles(run), expected, atol=1e-8)


@pytest.mark.parametrize("beta", [0.5, 3.0, 8.0])
def test_two_particles_post_follow_the_scalar_angle_ode(beta):
    """Any β, softmax: each moves toward the other at speed sin θ/(1 + e^{β(1 − cos θ)}), so
    θ̇ = −2 sin θ/(1 + e^{β(1 − cos θ)}); scipy's solver (rtol 1e-12) gives the reference."""
    run = particle_run(pair(1.3), beta=beta, scheme="post", t_end=5.0, steps=500)
    ode = solve_ivp(lambda t, th: -2 * np.sin(th) / (1 + np.exp(beta * (1 - np.cos(th)))), (0, 5.0), [2.6],
                    t_eval=run.times, rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(pair_angles(run), ode.y[0], atol=1e-8)


def test_a_cone_of_points_at_beta_zero_falls_to_its_axis_as_tan_phi_times_exp_minus_t():
    """β = 0, post: all Aᵢ equal the mean cos φ·e₃ of n points evenly around a cone of half-angle φ;
    by symmetry they stay on a cone and φ̇ = −sin φ cos φ, so tan φ = tan φ₀·e^{−t}."""
    n, phi = 7, 1.1
    around = 2 * np.pi * np.arange(n) / n
    points = np.stack([math.sin(phi) * np.cos(around), math.sin(phi) * np.sin(around), np.full(n, math.cos(phi))], 1)
    run = particle_run(points, 0.0, "post", t_end=4.0, steps=200)
    polar = np.arccos(np.clip(run.directions[:, :, 2], -1, 1))
    np.testing.assert_allclose(polar, np.arctan(math.tan(phi) * np.exp(-run.times))[:, None] * np.ones(n), atol=1e-8)


def test_pre_norm_pair_at_beta_zero_solves_its_implicit_closed_form():
    """β = 0, pre: both move by the mean direction (a/ρ, 0), so b stays and ȧ = a/ρ, ρ = √(a² + b²):
    ρ − b·ln((b + ρ)/a) grows exactly like t."""
    run = particle_run(pair(0.9, radius=1.0), 0.0, "pre", t_end=5.0, steps=250)
    a, b = run.states[:, 0, 0], run.states[:, 0, 1]
    np.testing.assert_allclose(b, math.sin(0.9), atol=1e-13)
    rho = np.hypot(a, b)
    primitive = rho - b * np.log((b + rho) / a)
    np.testing.assert_allclose(primitive - primitive[0], run.times, atol=1e-9)


def test_peri_norm_pair_at_beta_zero_moves_by_one_unit_per_unit_time():
    """β = 0, peri: the update is the unit mean direction e₁, so a = a₀ + t and the angle is 2·atan(b/(a₀ + t))."""
    run = particle_run(pair(1.0, radius=2.0), 0.0, "peri", t_end=3.0, steps=30)
    np.testing.assert_allclose(run.states[:, 0, 0], 2 * math.cos(1.0) + run.times, atol=1e-12)
    np.testing.assert_allclose(pair_angles(run), 2 * np.arctan(2 * math.sin(1.0) / (2 * math.cos(1.0) + run.times)),
                               atol=1e-12)


def test_ngpt_pair_at_beta_zero_turns_as_tan_quarter_angle_times_exp_minus_alpha_t():
    """β = 0, ngpt: each point turns toward the unit mean e₁ at speed α·sin φ (φ its angle to e₁),
    so tan(φ/2) = tan(φ₀/2)·e^{−αt}."""
    alpha = 0.5
    run = particle_run(pair(1.4), 0.0, "ngpt", t_end=6.0, steps=300, alpha=alpha)
    half = np.arccos(np.clip(run.directions[:, 0, 0], -1, 1))
    np.testing.assert_allclose(half, 2 * np.arctan(math.tan(0.7) * np.exp(-alpha * run.times)), atol=1e-8)


@pytest.mark.parametrize("scheme", ATTENTION_SCHEMES)
def test_the_integrator_is_fourth_order(scheme):
    """Halving the step divides the error at t = 2 (against 64× finer steps) by about 2⁴ = 16."""
    start = sphere_points(6, 3, seed=3)
    final = lambda steps: particle_run(start, 2.0, scheme, t_end=2.0, steps=steps).states[-1]  # noqa: E731
    reference = final(640)
    coarse, fine = np.abs(final(10) - reference).max(), np.abs(final(20) - reference).max()
    assert 11 < coarse / fine < 22


@pytest.mark.parametrize("scheme", ["post", "ngpt"])
def test_post_and_ngpt_stay_on_the_unit_sphere(scheme):
    run = particle_run(sphere_points(9, 4, seed=1) * 3.0, 4.0, scheme, t_end=5.0, steps=50)
    np.testing.assert_allclose(run.radii, 1.0, atol=1e-14)


def test_the_mean_kernel_post_dynamics_is_the_projected_gradient_of_the_energy():
    """kernel="mean": ẋᵢ = P_{xᵢ}∇ᵢE with E = (1/2βn)·Σᵢⱼ e^{β⟨xᵢ,xⱼ⟩}, ∇E by torch autograd; E never
    decreases along the run."""
    beta, points = 1.5, sphere_points(5, 3, seed=2)
    x = torch.tensor(points, requires_grad=True)
    energy = lambda y: torch.exp(beta * y @ y.T).sum() / (2 * beta * y.shape[0])  # noqa: E731
    (gradient,) = torch.autograd.grad(energy(x), x)
    g = gradient.numpy()
    projected = g - np.sum(g * points, axis=1, keepdims=True) * points
    np.testing.assert_allclose(particle_velocity(points, beta, "post", kernel="mean"), projected, rtol=1e-12)
    run = particle_run(points, beta, "post", t_end=3.0, steps=60, kernel="mean")
    energies = [float(energy(torch.tensor(s))) for s in run.states]
    assert np.all(np.diff(energies) >= -1e-12) and energies[-1] > energies[0]


def test_softmax_targets_match_pytorch_attention_and_beta_zero_gives_the_mean():
    """Aᵢ = softmax(β⟨θᵢ, θⱼ⟩)ⱼ·θ as torch.softmax computes it; at β = 0 every Aᵢ is the mean direction."""
    points = sphere_points(8, 5, seed=4) * np.linspace(0.5, 3.0, 8)[:, None]
    theta = torch.tensor(points / np.linalg.norm(points, axis=1, keepdims=True))
    expected = torch.softmax(2.5 * theta @ theta.T, dim=1) @ theta
    np.testing.assert_allclose(attention_targets(points, 2.5), expected.numpy(), rtol=1e-12)
    np.testing.assert_allclose(attention_targets(points, 0.0), np.tile(theta.numpy().mean(0), (8, 1)), rtol=1e-12)


def test_the_run_measures_are_the_brute_force_ones():
    """Diameter = the largest arccos of pairwise cosines; the time to cluster is where the straight
    line between the last grid diameter above the angle and the first below it crosses the angle;
    the cluster count matches groups found by hand."""
    run = particle_run(sphere_points(5, 3, seed=0), 1.0, "post", t_end=12.0, steps=120)
    brute = [max(math.acos(min(1.0, float(a @ b))) for i, a in enumerate(d) for b in d[i + 1:])
             for d in run.directions]
    np.testing.assert_allclose(run.diameters, brute, atol=1e-7)
    first = next(i for i, v in enumerate(brute) if v <= 0.05)
    crossing = np.interp(0.05, [brute[first], brute[first - 1]], [run.times[first], run.times[first - 1]])
    assert run.time_to_cluster(0.05) == pytest.approx(crossing, abs=1e-6)
    assert run.times[first - 1] < run.time_to_cluster(0.05) <= run.times[first]
    assert run.time_to_cluster(math.pi) == 0.0 and run.time_to_cluster(1e-9) is None
    assert run.cluster_count(-1) == 1 and run.cluster_count(0, angle=0.01) == 5
    assert cluster_count([[1, 0, 0], [0.9999, 0.01, 0], [0, 1, 0], [0, 0.9999, 0.01], [-1, 0, 0]]) == 3


@pytest.mark.parametrize("scheme", ATTENTION_SCHEMES)
def test_angular_speeds_are_the_rate_at_which_directions_turn(scheme):
    """The angle between a particle's direction at 0 and after one RK4 step of length h = 10⁻⁶,
    divided by h, is its angular speed (to 1e-4 relative); the points start off the unit sphere
    (post and ngpt put them on it first, pre and peri keep their lengths)."""
    points = sphere_points(7, 4, seed=5) * np.linspace(0.5, 2.0, 7)[:, None]
    run = particle_run(points, 3.0, scheme, t_end=1e-6, steps=1, alpha=0.7)
    a, b = run.directions
    turned = 2 * np.arctan2(np.linalg.norm(a - b, axis=1), np.linalg.norm(a + b, axis=1)) / 1e-6
    np.testing.assert_allclose(angular_speeds(points, 3.0, scheme, alpha=0.7), turned, rtol=1e-4)


def test_at_unit_length_peri_turns_at_least_as_fast_as_post_and_pre_as_fast():
    """‖A‖ ≤ 1 (an average of unit vectors): on the unit sphere peri's speed ‖P A‖/‖A‖ ≥ post's ‖P A‖,
    pre's equals post's, ngpt's is α times peri's; at length r pre's is post's divided by r."""
    for seed in range(20):
        points = sphere_points(9, 3, seed=seed)
        for beta in (0.0, 1.0, 5.0):
            post = angular_speeds(points, beta, "post")
            assert np.all(angular_speeds(points, beta, "peri") >= post * (1 - 1e-12))
            np.testing.assert_allclose(angular_speeds(points, beta, "pre"), post, rtol=1e-12)
            np.testing.assert_allclose(angular_speeds(points, beta, "ngpt", alpha=0.3),
                                       0.3 * angular_speeds(points, beta, "peri"), rtol=1e-12)
            np.testing.assert_allclose(angular_speeds(4 * points, beta, "pre"), post / 4, rtol=1e-12)


@pytest.mark.parametrize("scheme", ["post", "ngpt"])
def test_the_default_step_gives_the_time_to_cluster_to_a_hundredth(scheme):
    """dt = 0.25 (the study's default) against dt = 0.025: the same time to cluster within 0.01."""
    start = sphere_points(16, 3, seed=0)
    coarse = particle_run(start, 1.0, scheme, t_end=30.0, steps=120).time_to_cluster()
    fine = particle_run(start, 1.0, scheme, t_end=30.0, steps=1200).time_to_cluster()
    assert coarse == pytest.approx(fine, abs=0.01)


def test_the_default_study_numbers_and_predicates():
    """Seeded toy: at β ≤ 1 post and ngpt gather all 16 tokens within t = 30 (ngpt first); pre and
    peri, whose radii grow, have not yet; at β = 9 several groups remain at t = 30 under every scheme."""
    study = clustering_times()
    for beta in (0.0, 1.0):
        assert study.time("post", beta) is not None and study.faster("ngpt", "post", beta)
        assert study.time("pre", beta) is None and study.faster("pre", "post", beta) is None
    assert all(study.final_clusters[k][-1] > 1 for k in range(4))
    assert study.final_clusters[0][0] == 1


def test_inputs_are_kept_and_bad_input_is_refused():
    points = sphere_points(4, 3)
    copy = points.copy()
    particle_run(points, 1.0, "pre", t_end=1.0, steps=5)
    assert np.array_equal(points, copy)
    with pytest.raises(InvalidParameterError, match=r"^unknown scheme 'mix'; choose one of post, pre, peri, ngpt$"):
        particle_run(points, 1.0, "mix")
    with pytest.raises(InvalidParameterError, match="beta"):
        particle_velocity(points, -1.0)
    with pytest.raises(ZeroVectorError, match="particle 1 is at the origin"):
        particle_velocity([[1.0, 0.0], [0.0, 0.0]], 1.0)
    with pytest.raises(ZeroVectorError, match="attention output of particle 0 is 0"):
        particle_velocity([[1.0, 0.0], [-1.0, 0.0]], 0.0, "peri")
    with pytest.raises(ShapeError):
        particle_run([1.0, 2.0], 1.0)
    with pytest.raises(InvalidParameterError, match="mean kernel"):
        particle_run(points, 800.0, kernel="mean")
    with pytest.raises(InvalidParameterError, match="unknown kernel"):
        attention_targets(points, 1.0, kernel="sparse")
    assert np.array_equal(sphere_points(4, 3, seed=9), sphere_points(4, 3, seed=9))
