"""Laws of the one normalization formula and the named layers (A3, A4, A6, B1, B3)."""

import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from normgeo import (
    batch_norm,
    euclidean_norm,
    group_norm,
    l2_normalize,
    layer_norm,
    normalize,
    on_zero_mean_hyperplane,
    project_to_zero_mean_hyperplane,
    radial_projection,
    rms_norm,
)
from normgeo.errors import ZeroVarianceError
from tests.core.strategies import channel_first_arrays, close, positive_scales, spread_vectors, vectors

EPSILONS = st.sampled_from([0.0, 1e-6, 1e-5, 1e-2])


@given(vectors())
def test_l2_output_has_length_one(x):
    """L2: ‖x/‖x‖₂‖₂ = 1 whatever the input length: the unit sphere."""
    assert close(euclidean_norm(l2_normalize(x)), 1.0)


@given(vectors())
def test_l2_is_radial_projection_onto_the_unit_sphere(x):
    """l2_normalize(x) = radial_projection(x, 1)."""
    assert close(l2_normalize(x), radial_projection(x))


@given(vectors())
def test_rms_norm_output_has_radius_sqrt_n(x):
    """RMS(x̂) = 1 ⇒ ‖x̂‖₂ = √n at ε = 0."""
    n = x.shape[-1]
    assert close(euclidean_norm(rms_norm(x, eps=0.0)), math.sqrt(n), scale=math.sqrt(n))


@given(vectors(), positive_scales)
def test_rms_norm_is_invariant_to_positive_scaling(x, c):
    """RMSNorm(c·x) = RMSNorm(x) for c > 0 at ε = 0."""
    assert close(rms_norm(c * x, eps=0.0), rms_norm(x, eps=0.0), scale=math.sqrt(x.shape[-1]))


@given(vectors())
def test_rms_norm_is_radial_projection_onto_the_sphere_of_radius_sqrt_n(x):
    """RMSNorm at ε = 0 equals radial_projection(x, √n)."""
    n = x.shape[-1]
    assert close(rms_norm(x, eps=0.0), radial_projection(x, math.sqrt(n)), scale=math.sqrt(n))


@given(spread_vectors())
def test_layer_norm_output_lies_on_the_hyperplane_and_the_sphere(x):
    """LayerNorm at ε = 0: Σx̂ᵢ = 0 (hyperplane) and ‖x̂‖₂ = √n (sphere): their intersection."""
    y = layer_norm(x, eps=0.0)
    n = x.shape[-1]
    assert on_zero_mean_hyperplane(y, tol=1e-8).all()
    assert close(euclidean_norm(y), math.sqrt(n), scale=math.sqrt(n))


@given(spread_vectors(), EPSILONS)
def test_layer_norm_equals_rms_norm_after_centring(x, eps):
    """LayerNorm(x) = RMSNorm(x − μ·1) with the same ε."""
    centred = project_to_zero_mean_hyperplane(x)
    assert close(layer_norm(x, eps=eps), rms_norm(centred, eps=eps), scale=math.sqrt(x.shape[-1]))


@given(spread_vectors(), EPSILONS)
def test_layer_norm_matches_the_textbook_formula(x, eps):
    """(x − μ)/√(σ² + ε) with biased variance, written out directly."""
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    assert close(layer_norm(x, eps=eps), (x - mu) / np.sqrt(var + eps), scale=math.sqrt(x.shape[-1]))


@given(vectors(), st.floats(1e-6, 1.0))
def test_rms_norm_matches_the_textbook_formula(x, eps):
    """x/√(mean(x²) + ε), written out directly."""
    expected = x / np.sqrt(np.mean(x**2, axis=-1, keepdims=True) + eps)
    assert close(rms_norm(x, eps=eps), expected, scale=math.sqrt(x.shape[-1]))


@given(st.integers(2, 6), st.data())
def test_affine_parameters_scale_and_shift_each_feature_of_a_batch(n, data):
    """y[b, i] = γᵢ·x̂[b, i] + βᵢ for every row b, with distinct γᵢ, βᵢ, also when the batch has as
    many rows as there are features (where a wrong axis would broadcast silently)."""
    batch = data.draw(st.sampled_from([1, n, n + 1]))
    x = data.draw(spread_vectors(n=n, batch=(batch,)))
    gamma, beta = np.linspace(0.5, 2.0, n), np.linspace(-3.0, 1.0, n)
    ln, rms = layer_norm(x, eps=0.0, weight=gamma, bias=beta), rms_norm(x, eps=0.0, weight=gamma)
    for b in range(batch):
        row = x[b]
        mu = math.fsum(row) / n
        sigma = math.sqrt(math.fsum((row - mu) ** 2) / n)
        rms_value = math.sqrt(math.fsum(row * row) / n)
        for i in range(n):
            assert math.isclose(ln[b, i], gamma[i] * (row[i] - mu) / sigma + beta[i], rel_tol=1e-9, abs_tol=1e-8)
            assert math.isclose(rms[b, i], gamma[i] * row[i] / rms_value, rel_tol=1e-9, abs_tol=1e-8)


def batch_norm_by_loop(x, eps):
    out = np.empty_like(x)
    for c in range(x.shape[1]):
        values = x[:, c].ravel()
        mu = sum(values) / len(values)
        var = sum((v - mu) ** 2 for v in values) / len(values)
        out[:, c] = (x[:, c] - mu) / math.sqrt(var + eps)
    return out


def group_norm_by_loop(x, groups, eps):
    out = np.empty_like(x)
    per_group = x.shape[1] // groups
    for n in range(x.shape[0]):
        for g in range(groups):
            block = x[n, g * per_group : (g + 1) * per_group]
            values = block.ravel()
            mu = sum(values) / len(values)
            var = sum((v - mu) ** 2 for v in values) / len(values)
            out[n, g * per_group : (g + 1) * per_group] = (block - mu) / math.sqrt(var + eps)
    return out


@given(channel_first_arrays())
def test_batch_norm_matches_a_plain_loop_over_channels(x):
    """BatchNorm: per channel, μ and σ² over the batch and spatial positions."""
    eps = 1e-5
    assert close(batch_norm(x, eps=eps), batch_norm_by_loop(x, eps), scale=1e3)


@given(channel_first_arrays(min_channels=2), st.data())
def test_group_norm_matches_a_plain_loop_over_groups(x, data):
    """GroupNorm: per example and group of consecutive channels, μ and σ² over the group."""
    channels = x.shape[1]
    groups = data.draw(st.sampled_from([g for g in range(1, channels + 1) if channels % g == 0]))
    eps = 1e-5
    assert close(group_norm(x, groups, eps=eps), group_norm_by_loop(x, groups, eps), scale=1e3)


@given(channel_first_arrays())
def test_group_norm_with_one_group_is_layer_norm_over_channels_and_positions(x):
    """GroupNorm with G = 1 normalizes each example over all its values: LayerNorm over (C, *)."""
    flat = x.reshape(x.shape[0], -1)
    assert close(group_norm(x, 1).reshape(flat.shape), layer_norm(flat), scale=1e3)


@given(channel_first_arrays(spatial=st.sampled_from([(3,), (2, 3), (4,)])))
def test_group_norm_with_one_channel_per_group_is_instance_norm(x):
    """GroupNorm with G = C normalizes each (example, channel) over its spatial positions alone."""
    eps = 1e-5
    expected = np.empty_like(x)
    for n, c in np.ndindex(*x.shape[:2]):
        values = x[n, c].ravel()
        mu = math.fsum(values) / values.size
        var = math.fsum((values - mu) ** 2) / values.size
        expected[n, c] = (x[n, c] - mu) / math.sqrt(var + eps)
    assert close(group_norm(x, x.shape[1], eps=eps), expected, scale=1e3)


@given(channel_first_arrays(min_channels=1, spatial=st.just(())), st.floats(1e-8, 1.0))
def test_group_norm_with_one_value_per_group_erases_the_input(x, eps):
    """C groups on an (N, C) input: every group is one value, so x − μ = 0 and the output is 0
    (ε > 0); at ε = 0 the group is constant and raises."""
    assert np.array_equal(group_norm(x, x.shape[1], eps=eps), np.zeros_like(x))
    with pytest.raises(ZeroVarianceError):
        group_norm(x, x.shape[1], eps=0.0)


@given(channel_first_arrays(min_channels=2), st.data())
def test_group_norm_groups_on_n_d_inputs_are_centred_and_on_their_sphere(x, data):
    """(N, C, *) input, ε = 0: each example's group of m values (C/G channels × positions) sums to 0
    and has length √m, whenever the group is not constant."""
    channels = x.shape[1]
    groups = data.draw(st.sampled_from([g for g in range(1, channels + 1) if channels % g == 0]))
    blocks = x.reshape(x.shape[0], groups, -1)
    varying = blocks.std(axis=-1) > 1e-6 * np.max(np.abs(x))
    assume(varying.all())
    y = group_norm(x, groups, eps=0.0).reshape(blocks.shape)
    m = blocks.shape[-1]
    assert close(y.sum(axis=-1), 0.0, scale=m)
    assert close(np.sqrt(np.sum(y * y, axis=-1)), math.sqrt(m), scale=math.sqrt(m))


@pytest.mark.parametrize("shape", [(3, 3), (3, 3, 4), (2, 4, 2, 3), (4, 4, 1)])
def test_batch_and_group_affine_act_per_channel(shape):
    """γ and β of batch_norm and group_norm have one distinct entry per channel (axis 1), on (N, C, *)
    inputs including N = C, checked cell by cell against γ_c·x̂ + β_c."""
    x = np.random.default_rng(sum(shape)).normal(size=shape) * 3 + 1
    channels = shape[1]
    gamma, beta = np.arange(1.0, channels + 1) * 0.7, np.arange(channels) - 1.5
    groups = 2 if channels % 2 == 0 else 1
    plain = {"bn": batch_norm_by_loop(x, 1e-5), "gn": group_norm_by_loop(x, groups, 1e-5)}
    affine = {"bn": batch_norm(x, weight=gamma, bias=beta), "gn": group_norm(x, groups, weight=gamma, bias=beta)}
    for key in plain:
        for index in np.ndindex(*shape):
            c = index[1]
            assert math.isclose(affine[key][index], gamma[c] * plain[key][index] + beta[c], rel_tol=1e-9, abs_tol=1e-9)


def test_normalize_over_axes_is_the_one_formula_behind_every_layer():
    """batch_norm is normalize over axis 0 of (N, C); layer_norm over axis 1."""
    grid = np.array([[1, 2, 3, 10], [2, 4, 1, 8], [3, 1, 5, 12], [0, 3, 2, 9]], dtype=float)
    assert np.allclose(batch_norm(grid), normalize(grid, axes=0))
    assert np.allclose(layer_norm(grid), normalize(grid, axes=1))
    assert np.allclose(rms_norm(grid, eps=1e-5), normalize(grid, axes=1, centre=False, eps=1e-5))


def test_rms_norm_rows_of_the_source_grid_have_rms_one_and_mean_about_three_quarters():
    """B3: on the source's grid RMSNorm gives each row RMS 1 but mean ≈ 0.75, not 0."""
    grid = np.array([[1, 2, 3, 10], [2, 4, 1, 8], [3, 1, 5, 12], [0, 3, 2, 9]], dtype=float)
    y = rms_norm(grid, eps=0.0)
    assert np.allclose(np.sqrt(np.mean(y**2, axis=1)), 1.0)
    means = y.mean(axis=1)
    assert np.all((means > 0.65) & (means < 0.85))
    assert np.allclose(layer_norm(grid, eps=0.0).mean(axis=1), 0.0)


def test_two_dimensional_layer_norm_has_only_two_outputs():
    """A7: in 2-D LayerNorm (ε = 0) sends every non-constant input to (1, −1) or (−1, 1)."""
    rng = np.random.default_rng(7)
    points = rng.normal(size=(200, 2)) * 10
    outputs = np.unique(np.round(layer_norm(points, eps=0.0), 9), axis=0)
    assert outputs.tolist() == [[-1.0, 1.0], [1.0, -1.0]]


def test_direction_not_length_examples():
    """A8: (3, 4) and (6, 8) merge at (0.6, 0.8); (4, 3) stays apart at (0.8, 0.6)."""
    x, y, z = l2_normalize([[3.0, 4.0], [6.0, 8.0], [4.0, 3.0]])
    assert np.allclose(x, y) and np.allclose(x, [0.6, 0.8])
    assert np.allclose(z, [0.8, 0.6]) and not np.allclose(x, z)


def test_l2_eps_follows_pytorch_clamp():
    """With ε > 0, l2_normalize divides by max(‖x‖₂, ε), so a zero vector stays zero."""
    assert np.allclose(l2_normalize([0.0, 0.0], eps=1e-12), [0.0, 0.0])
    assert np.allclose(l2_normalize([1e-13, 0.0], eps=1e-12), [0.1, 0.0])


def test_inputs_are_not_mutated():
    """No layer writes into its input."""
    x = np.array([[1.0, 2.0, 4.0, 8.0], [3.0, 1.0, 0.0, 2.0]])
    copy = x.copy()
    for fn in (l2_normalize, rms_norm, layer_norm, batch_norm, lambda a: group_norm(a, 2)):
        fn(x)
    assert np.array_equal(x, copy)


@pytest.mark.parametrize("scale", [1e-200, 1e200])
def test_layers_handle_extreme_magnitudes(scale):
    """LayerNorm and RMSNorm at ε = 0 give for x·1e±200 the closed forms of x = (1, 2, 4):
    μ = 7/3, σ = √(14/9), so LN = (−4, −1, 5)/√14; RMS = √7, so RMSNorm = (1, 2, 4)/√7."""
    x = np.array([1.0, 2.0, 4.0])
    assert np.allclose(layer_norm(x * scale, eps=0.0), np.array([-4.0, -1.0, 5.0]) / math.sqrt(14), rtol=1e-12)
    assert np.allclose(rms_norm(x * scale, eps=0.0), x / math.sqrt(7), rtol=1e-12)
