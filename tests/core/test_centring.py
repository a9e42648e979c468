"""Laws of LN(x) = RMSNorm(x − μ·1) and the angle between RMSNorm(x) and LN(x) (C2)."""

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from normgeo import (
    angle_between,
    centring_angle,
    centring_angle_sweep,
    decompose,
    layer_norm,
    rms_layer_norm_angle,
    rms_norm,
)
from tests.core.strategies import close, spread_vectors

EPSILONS = st.sampled_from([0.0, 1e-6, 1e-2, 1.0])


@given(spread_vectors(), EPSILONS)
def test_layer_norm_is_rms_norm_of_the_centred_vector(x, eps):
    """LN(x) = RMSNorm(x − μ·1) with the same ε, the centred vector taken from decompose; and both
    equal (x − μ)/√(σ² + ε) computed row by row with exactly rounded sums (math.fsum)."""
    n = x.shape[-1]
    assert close(layer_norm(x, eps=eps), rms_norm(decompose(x).centred_part, eps=eps), scale=math.sqrt(n))
    rows = x.reshape(-1, n)
    by_hand = []
    for row in rows:
        mu = math.fsum(row) / n
        variance = math.fsum((v - mu) ** 2 for v in row) / n
        by_hand.append([(v - mu) / math.sqrt(variance + eps) for v in row])
    assert close(layer_norm(x, eps=eps), np.array(by_hand).reshape(x.shape), scale=math.sqrt(n))


@given(spread_vectors(), EPSILONS)
def test_the_angle_between_the_layers_is_arctan_of_mean_over_spread(x, eps):
    """∠(RMSNorm(x), LN(x)) measured on the outputs = arctan(|μ|/σ) for every ε, with μ and σ by
    fsum, and it equals |π/2 − ∠(x, 1)|, the angle by which x misses being orthogonal to 1."""
    n = x.shape[-1]
    rows = x.reshape(-1, n)
    mus = np.array([math.fsum(r) / n for r in rows])
    sigmas = np.array([math.sqrt(math.fsum((r - m) ** 2) / n) for r, m in zip(rows, mus, strict=True)])
    measured = np.asarray(rms_layer_norm_angle(x, eps=eps)).reshape(-1)
    closed = np.arctan(np.abs(mus) / sigmas)
    assert np.allclose(measured, closed, rtol=0, atol=1e-7)
    assert np.allclose(centring_angle(mus / sigmas), closed, rtol=0, atol=1e-15)
    to_ones = np.asarray(angle_between(rows, np.ones_like(rows))).reshape(-1)
    assert np.allclose(np.abs(np.pi / 2 - to_ones), closed, rtol=0, atol=1e-7)


@given(spread_vectors(), EPSILONS)
def test_inputs_orthogonal_to_ones_make_the_two_layers_coincide(x, eps):
    """μ = 0 (x ⟂ 1): RMSNorm(x) = LN(x) exactly in value, not only in direction."""
    centred = decompose(x).centred_part
    assert close(rms_norm(centred, eps=eps), layer_norm(centred, eps=eps), scale=math.sqrt(x.shape[-1]))


@given(st.lists(st.floats(-50, 50), min_size=1, max_size=20), st.integers(2, 12), st.integers(0, 1000))
def test_the_sweep_measures_what_the_closed_form_predicts(ratios, n, seed):
    """Each swept input has the requested μ/σ, and the measured angle is arctan(|μ/σ|)."""
    sweep = centring_angle_sweep(ratios, n=n, seed=seed)
    assert np.allclose(sweep.inputs.mean(axis=1) / sweep.inputs.std(axis=1), ratios, rtol=1e-9, atol=1e-12)
    assert np.allclose(sweep.measured, np.arctan(np.abs(ratios)), rtol=0, atol=1e-7)
    assert np.allclose(sweep.predicted, np.arctan(np.abs(ratios)), rtol=0, atol=1e-15)
    assert np.array_equal(sweep.ratios, np.asarray(ratios, dtype=float))


def test_the_angle_grows_from_zero_toward_a_right_angle():
    """μ/σ = 0 gives 0°, 1 gives 45°, and large |μ|/σ approaches 90° from below."""
    angles = np.degrees(centring_angle([0.0, 1.0, -1.0, 1e6]))
    assert np.allclose(angles[:3], [0.0, 45.0, 45.0]) and 89.99 < angles[3] < 90.0


@given(st.floats(1e-8, np.pi - 1e-8))
def test_angle_between_recovers_a_known_angle(t):
    """angle_between((1, 0), (cos t, sin t)) = t, also near 0 and π."""
    assert math.isclose(float(angle_between([1.0, 0.0], [math.cos(t), math.sin(t)])), t, rel_tol=1e-9, abs_tol=1e-15)
