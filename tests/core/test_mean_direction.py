"""Laws of the tokens' angle to 1 and of the gap between LayerNorm and RMSNorm (E5), against the
arccos formula in plain numpy, PyTorch's layer_norm and rms_norm, and scipy's Beta distribution."""

import math
from pathlib import Path

import numpy as np
import pytest
import torch
from scipy.stats import beta as beta_distribution

from normgeo.errors import ShapeError, ZeroVarianceError, ZeroVectorError
from normgeo.mean_direction import angles_to_ones, chance_angle_to_ones, mean_direction_profile
from normgeo_models import read_states

STATES = Path(__file__).resolve().parents[2] / "scenes" / "states"


def arccos_formula(x):
    """arccos(|⟨x, 1⟩|/(‖x‖·√n)) per row, in plain numpy."""
    n = x.shape[1]
    return np.arccos(np.abs(x.sum(axis=1)) / (np.linalg.norm(x, axis=1) * math.sqrt(n)))


def tokens(seed=0, count=9, n=12):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(count, n)) + rng.normal(scale=2.0, size=(count, 1))


def test_the_angle_to_ones_is_the_arccos_formula():
    x = tokens()
    np.testing.assert_allclose(angles_to_ones(x), arccos_formula(x), atol=1e-12)
    assert np.all((angles_to_ones(x) >= 0) & (angles_to_ones(x) <= math.pi / 2))


def test_the_layernorm_rmsnorm_gap_is_two_sin_half_psi_and_matches_pytorch():
    """At ε = 0 both outputs have length √n; ‖LN(x) − RMSNorm(x)‖/√n = 2 sin(ψ/2) with ψ = arctan(|μ|/σ)
    (μ, σ by fsum), ψ + angle to 1 = π/2; and torch's layer_norm and rms_norm give the same gap."""
    x = tokens(seed=1)
    n = x.shape[1]
    profile = mean_direction_profile([x, 2 * x])
    psi = []
    for row in x:
        mu = math.fsum(row) / n
        sigma = math.sqrt(math.fsum((row - mu) ** 2) / n)
        psi.append(math.atan(abs(mu) / sigma))
    psi = np.array(psi)
    gap = 2 * np.sin(psi / 2)
    t = torch.tensor(x)
    torch_gap = (torch.nn.functional.layer_norm(t, (n,), eps=0.0) - torch.nn.functional.rms_norm(t, (n,), eps=0.0))
    torch_gap = torch.linalg.vector_norm(torch_gap, dim=1).numpy() / math.sqrt(n)
    np.testing.assert_allclose(torch_gap, gap, atol=1e-12)
    assert profile.max_distances[0] == pytest.approx(gap.max(), abs=1e-12)
    assert profile.median_distances[0] == pytest.approx(np.median(gap), abs=1e-12)
    assert profile.max_centring_angles[0] == pytest.approx(psi.max(), abs=1e-12)
    np.testing.assert_allclose(psi + arccos_formula(x), math.pi / 2, atol=1e-12)
    np.testing.assert_allclose(profile.median_angles[1], profile.median_angles[0], atol=1e-12)  # scale-free


@pytest.mark.parametrize("n", [3, 4, 10, 384, 576, 896])
def test_the_chance_angle_is_the_median_of_the_beta_law(n):
    """cos²∠(u, 1) ~ Beta(½, (n − 1)/2) for u uniform on S^{n−1} (scipy's median); n = 3: |cos| is
    uniform on [0, 1], median ½, so 60°."""
    expected = math.acos(math.sqrt(beta_distribution(0.5, (n - 1) / 2).median()))
    assert chance_angle_to_ones(n) == pytest.approx(expected, abs=1e-8)
    assert chance_angle_to_ones(3) == pytest.approx(math.radians(60.0), abs=1e-12)
    assert chance_angle_to_ones(2) == math.pi / 4


def test_the_chance_angle_agrees_with_sampled_directions():
    """Monte Carlo: 4000 seeded uniform directions in ℝ⁵⁷⁶; their median angle to 1 within 0.1°."""
    u = np.random.default_rng(0).normal(size=(4000, 576))
    assert math.degrees(np.median(arccos_formula(u))) == pytest.approx(math.degrees(chance_angle_to_ones(576)),
                                                                        abs=0.1)


@pytest.mark.parametrize("name, n, beyond, all_within_5, largest_gap_deg", [
    ("smollm2", 576, 47, False, 5.01), ("minilm", 384, 11, True, 3.25)])
def test_the_bundled_models(name, n, beyond, all_within_5, largest_gap_deg):
    """Per layer: medians of the arccos formula; SmolLM2 (61 calls): 47 layers more orthogonal to 1 than
    random directions at the median, one token at 84.99°; MiniLM (13 calls): 11, every token within 3.3°
    of orthogonal; largest LN–RMSNorm angle 5.0° and 3.3°."""
    layers = [layer.tokens() for layer in read_states(STATES / f"{name}.safetensors").layers]
    profile = mean_direction_profile(layers)
    np.testing.assert_allclose(profile.median_angles, [np.median(arccos_formula(x)) for x in layers], atol=1e-9)
    np.testing.assert_allclose(profile.min_angles, [np.min(arccos_formula(x)) for x in layers], atol=1e-9)
    assert profile.n == n and profile.layers_beyond_chance == beyond
    assert profile.layers_beyond_chance == int(np.sum(profile.median_angles > profile.chance_angle))
    assert profile.nearly_orthogonal(5.0) == all_within_5
    assert round(math.degrees(profile.max_centring_angles.max()), 2) == largest_gap_deg


def test_bad_input_is_refused():
    with pytest.raises(ZeroVectorError, match="zero vector"):
        angles_to_ones([[0.0, 0.0], [1.0, 2.0]])
    with pytest.raises(ZeroVarianceError, match="no direction to compare"):
        mean_direction_profile([[[1.0, 1.0], [1.0, 2.0]]])
    with pytest.raises(ShapeError, match="one width"):
        mean_direction_profile([np.ones((2, 3)) + np.eye(2, 3), np.ones((2, 4)) + np.eye(2, 4)])
    with pytest.raises(ShapeError, match="no layers"):
        mean_direction_profile([])
