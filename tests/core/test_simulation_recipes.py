"""The seeded toy simulations rebuilt from their documented recipes with numpy's generator and
checked against PyTorch where PyTorch has the operation (BatchNorm's running statistics and
eval mode, the batch's BatchNorm and LayerNorm). A recipe change (another companion
distribution, a seed ignored, ε not passed on) changes what a scene shows, so it must show here.
These are toy simulations: the point is that the numbers on screen are the ones described."""

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from normgeo import (
    arc_between,
    batch_mean_spread,
    centring_angle_sweep,
    conditioning_demo,
    count_nearest,
    layer_norm_output_radius,
    running_statistics,
    same_example_in_two_batches,
    sample_vectors,
    scaled_outputs,
    scaled_features,
    train_eval_gap,
)
from normgeo.errors import InvalidParameterError, UnmatchedPointError, ZeroVarianceError


def t(array):
    return torch.tensor(np.asarray(array), dtype=torch.float64)


def test_running_statistics_are_torchs_batchnorm_running_mean_and_var():
    """PyTorch keeps running_mean ← (1 − m)·mean + m·batch mean and the unbiased variance."""
    rng = np.random.default_rng(4)
    batches = [rng.normal(1.0, 2.0, size=(5, 3)) for _ in range(12)]
    layer = torch.nn.BatchNorm1d(3, momentum=0.1, dtype=torch.float64)
    layer.train()
    for batch in batches:
        layer(t(batch))
    mean, var = running_statistics(batches)
    np.testing.assert_allclose(mean, layer.running_mean.numpy(), rtol=1e-13)
    np.testing.assert_allclose(var, layer.running_var.numpy(), rtol=1e-13)
    mean, var = running_statistics(batches, momentum=0.3)
    layer = torch.nn.BatchNorm1d(3, momentum=0.3, dtype=torch.float64)
    for batch in batches:
        layer(t(batch))
    np.testing.assert_allclose(mean, layer.running_mean.numpy(), rtol=1e-13)
    np.testing.assert_allclose(var, layer.running_var.numpy(), rtol=1e-13)


def test_train_eval_gap_is_torchs_train_mode_against_eval_mode():
    """Recipe: loc ~ N(0, 2²), log scale ~ N(0, 0.5²) per feature; per batch size, warm-up batches
    train torch's running statistics, then the mean |train − eval| output over test batches."""
    sizes, n, warmup, tests, eps, seed = (2, 8), 3, 20, 5, 1e-5, 7
    result = train_eval_gap(sizes, n, warmup, tests, eps, seed)
    np.testing.assert_array_equal(result.batch_sizes, sizes)
    rng = np.random.default_rng(seed)
    loc = rng.normal(0.0, 2.0, size=n)
    scale = np.exp(rng.normal(0.0, 0.5, size=n))
    expected = []
    for b in sizes:
        layer = torch.nn.BatchNorm1d(n, eps=eps, momentum=0.1, affine=False, dtype=torch.float64)
        layer.train()
        for _ in range(warmup):
            layer(t(loc + scale * rng.normal(size=(b, n))))
        gaps = []
        for _ in range(tests):
            batch = t(loc + scale * rng.normal(size=(b, n)))
            layer.train()
            train = F.batch_norm(batch, None, None, training=True, eps=eps)
            layer.eval()
            gaps.append(float((train - layer(batch)).abs().mean()))
        expected.append(np.mean(gaps))
    np.testing.assert_allclose(result.gaps, expected, rtol=1e-10)
    assert result.gaps[0] > result.gaps[1]


@pytest.mark.parametrize("eps", [1e-5, 0.5])
def test_one_example_in_two_batches_against_torch(eps):
    """Row 0 of both batches is the example; companions N(0, 1) in batch a, N(1.5, 2²) in b;
    BatchNorm (training mode) of row 0 differs between the batches, LayerNorm does not."""
    result = same_example_in_two_batches(n_features=3, batch_size=5, seed=2, eps=eps)
    rng = np.random.default_rng(2)
    x = rng.normal(size=3)
    a = np.vstack([x, rng.normal(0.0, 1.0, size=(4, 3))])
    b = np.vstack([x, rng.normal(1.5, 2.0, size=(4, 3))])
    np.testing.assert_array_equal(result.example, x)
    np.testing.assert_allclose(result.batch_a, a, rtol=1e-15)
    np.testing.assert_allclose(result.batch_b, b, rtol=1e-15)
    for batch, bn, ln in ((a, result.batchnorm_a, result.layernorm_a), (b, result.batchnorm_b, result.layernorm_b)):
        np.testing.assert_allclose(bn, F.batch_norm(t(batch), None, None, training=True, eps=eps)[0].numpy(), rtol=1e-12)
        np.testing.assert_allclose(ln, F.layer_norm(t(batch), (3,), eps=eps)[0].numpy(), rtol=1e-12)
    np.testing.assert_array_equal(result.layernorm_a, result.layernorm_b)
    assert np.abs(result.batchnorm_a - result.batchnorm_b).max() > 0.1
    given = same_example_in_two_batches(n_features=2, batch_size=2, example=[1.0, -1.0])
    np.testing.assert_array_equal(given.example, [1.0, -1.0])
    np.testing.assert_array_equal(given.batch_a[0], [1.0, -1.0])


def test_defaults_of_one_example_in_two_batches():
    default = same_example_in_two_batches()
    explicit = same_example_in_two_batches(n_features=4, batch_size=4, seed=0, eps=1e-5)
    np.testing.assert_array_equal(default.batch_b, explicit.batch_b)
    np.testing.assert_array_equal(default.batchnorm_a, explicit.batchnorm_a)
    assert default.batch_a.shape == (4, 4)


def test_batch_mean_spread_is_sigma_over_root_b_and_measured_from_the_seeded_draws():
    result = batch_mean_spread(batch_sizes=(1, 4, 16), trials=500, sigma=2.0, seed=3)
    np.testing.assert_allclose(result.predicted, [2.0, 1.0, 0.5], rtol=1e-15)
    rng = np.random.default_rng(3)
    expected = [rng.normal(0.0, 2.0, size=(500, b)).mean(axis=1).std() for b in (1, 4, 16)]
    np.testing.assert_allclose(result.measured, expected, rtol=1e-12)
    # 500 trials: the measured spread is within 4 standard errors (σ_B/√(2·500)) of σ/√B.
    assert np.all(np.abs(result.measured - result.predicted) < 4 * result.predicted / math.sqrt(1000))


def test_sample_vectors_are_seeded_gaussians_redrawn_until_they_spread():
    vectors = sample_vectors(5, 3, seed=11, scale=2.5)
    np.testing.assert_allclose(vectors, np.random.default_rng(11).normal(0.0, 2.5, size=(5, 3)), rtol=1e-15)
    np.testing.assert_array_equal(sample_vectors(4, 2), np.random.default_rng(0).normal(size=(4, 2)))
    spread = sample_vectors(200, 2, seed=1, min_spread=1.0)
    assert np.all(np.ptp(spread, axis=1) > 1.0)
    plain = np.random.default_rng(1).normal(size=(200, 2))
    kept = np.ptp(plain, axis=1) > 1.0
    np.testing.assert_array_equal(spread[kept], plain[kept])  # only the vectors that spread too little are redrawn
    assert not kept.all()


def test_scaled_features_have_exactly_the_covariance_s_r_s_and_refuse_impossible_correlations():
    data = scaled_features(n_samples=50, scales=(2.0, 3.0, 0.5), correlation=-0.3, seed=4)
    assert data.shape == (50, 3)
    np.testing.assert_allclose(data.mean(axis=0), 0.0, atol=1e-12)
    s = np.diag([2.0, 3.0, 0.5])
    r = np.full((3, 3), -0.3) + 1.3 * np.eye(3)
    np.testing.assert_allclose(data.T @ data / 50, s @ r @ s, rtol=1e-12, atol=1e-12)
    assert not np.allclose(scaled_features(seed=1), scaled_features(seed=0))
    assert scaled_features().shape == (256, 2)
    scaled_features(n_samples=4, scales=(1.0, 1.0, 1.0), correlation=-0.49)
    for bad in ({"correlation": -0.5, "scales": (1.0, 1.0, 1.0)}, {"correlation": 1.0}, {"correlation": 0.999999999999 + 1},
                {"scales": (1.0, 0.0)}, {"scales": (1.0, -1.0)}, {"scales": [[1.0, 2.0]]}, {"n_samples": 2}):
        with pytest.raises(InvalidParameterError):
            scaled_features(**bad)
    scaled_features(n_samples=3)  # more samples than the 2 features


def test_the_conditioning_demo_uses_the_stated_starts_and_counts():
    demo = conditioning_demo()
    np.testing.assert_array_equal(demo.drawn_before.path[0], [-2.6, 0.5])
    np.testing.assert_array_equal(demo.drawn_after.path[0], [-2.6, 0.5])
    assert demo.drawn_before.path.shape == (31, 2) and demo.drawn_after.path.shape == (31, 2)
    assert demo.step_fraction == 0.9
    assert demo.drawn_before.step == pytest.approx(0.9 * 2 / 60.0, rel=1e-12)
    np.testing.assert_allclose(demo.drawn_before.hessian, np.diag([1.0, 60.0]))
    # Raw problem from (1, 10⁻⁴) at 0.9·2/L: each eigen-component shrinks by |1 − ηλ|; brute force
    # is out of reach (~10⁹ steps), so the count is checked against the closed form in decimals.
    from decimal import Decimal, getcontext
    getcontext().prec = 50
    h = demo.drawn_before.hessian * 0 + [[1.0, 9000.0], [9000.0, 1e8]]
    lam, vec = np.linalg.eigh(h)
    step = 0.9 * 2 / lam[-1]
    error = np.abs(vec.T @ [1.0, 1e-4])
    share = 1e-6 * np.linalg.norm(error) / math.sqrt(2)
    counts = [math.ceil(Decimal(share / e).ln() / Decimal(abs(1 - step * l)).ln()) for e, l in zip(error, lam)
              if e > share]
    assert demo.steps_raw == pytest.approx(max(counts), abs=1)
    other = conditioning_demo(drawn_kappa=20.0, n_steps=5, step_fraction=0.5)
    assert other.drawn_before.kappa == pytest.approx(20.0) and other.drawn_before.path.shape == (6, 2)
    assert other.drawn_after.step == pytest.approx(0.5 * 2 / 1.9, rel=1e-12)


def test_arc_between_runs_evenly_along_the_circle_from_a_to_b():
    a, b = np.array([3.0, 0.0, 0.0]), np.array([0.0, 0.0, -0.5])
    arc = arc_between(a, b, 2.0, samples=7)
    assert arc.shape == (7, 3)
    np.testing.assert_allclose(np.linalg.norm(arc, axis=1), 2.0, rtol=1e-14)
    angles = np.arctan2(-arc[:, 2], arc[:, 0])
    np.testing.assert_allclose(angles, np.linspace(0, math.pi / 2, 7), atol=1e-14)
    assert arc_between([1.0, 1.0], [2.0, 2.0], 1.0).shape == (32, 2)
    np.testing.assert_allclose(arc_between([1.0, 1.0], [2.0, 2.0], 1.0), np.full((32, 2), math.sqrt(0.5)), rtol=1e-15)
    with pytest.raises(InvalidParameterError, match="^a and b point in opposite directions"):
        arc_between([1.0, 0.0], [-1.0, 0.0], 1.0)
    with pytest.raises(InvalidParameterError, match="^a and b must be single vectors of one dimension ≥ 2"):
        arc_between([1.0, 0.0], [1.0, 0.0, 0.0], 1.0)
    with pytest.raises(InvalidParameterError, match="^a and b must be single vectors"):
        arc_between([[1.0, 0.0]], [[1.0, 0.0]], 1.0)
    with pytest.raises(InvalidParameterError, match="^a and b must be single vectors"):
        arc_between([1.0], [2.0], 1.0)


def test_count_nearest_counts_within_an_absolute_tolerance():
    targets = [[1.0, -1.0], [-1.0, 1.0]]
    assert count_nearest([[1.0, -1.0 + 5e-10], [-1.0, 1.0]], targets).tolist() == [1, 1]
    assert count_nearest([[1.0, -0.5]], targets, tol=0.5).tolist() == [1, 0]  # exactly tol away: counted
    with pytest.raises(UnmatchedPointError, match=r"^point \[0\] = \[1.0, -0.999\] is 0.001 from the nearest target, "
                                                   r"more than tol = 1e-09$"):
        count_nearest([[1.0, -0.999]], targets)
    with pytest.raises(ValueError, match="must share n"):
        count_nearest([[1.0, 2.0, 3.0]], targets)
    assert count_nearest(np.zeros((3, 2)), [[0.0, 0.0], [0.0, 0.0]]).tolist() == [3, 0]  # first target on a tie


def test_centring_sweep_defaults_and_inputs():
    sweep = centring_angle_sweep()
    np.testing.assert_allclose(sweep.ratios, np.linspace(-4.0, 4.0, 41))
    assert sweep.inputs.shape == (41, 8)
    np.testing.assert_allclose(sweep.inputs.mean(axis=1), sweep.ratios, atol=1e-12)
    np.testing.assert_allclose(sweep.inputs.std(axis=1), 1.0, rtol=1e-12)
    np.testing.assert_allclose(sweep.predicted, np.arctan(np.abs(sweep.ratios)), rtol=1e-15)
    np.testing.assert_allclose(sweep.measured, sweep.predicted, atol=1e-9)
    assert not np.allclose(centring_angle_sweep(seed=1).inputs, sweep.inputs)


def test_output_radius_messages():
    with pytest.raises(InvalidParameterError, match=r"^sigma must be ≥ 0, got -0.5$"):
        layer_norm_output_radius([0.5, -0.5], 3, 0.1)
    with pytest.raises(ZeroVarianceError, match="^σ = 0 with ε = 0: LayerNorm of a constant vector is undefined$"):
        layer_norm_output_radius(0.0, 3, 0.0)
    assert float(layer_norm_output_radius(0.0, 3, 0.1)) == 0.0
    np.testing.assert_allclose(layer_norm_output_radius([0.5, 2.0], 4, 0.0), [2.0, 2.0], rtol=1e-15)


def test_defaults_of_the_small_studies():
    """The defaults the scenes rely on, each against an explicit call or a count."""
    spread = batch_mean_spread(trials=20)
    np.testing.assert_array_equal(spread.batch_sizes, [2, 4, 8, 16, 32, 64, 128])
    np.testing.assert_allclose(spread.predicted, 1.0 / np.sqrt([2, 4, 8, 16, 32, 64, 128]), rtol=1e-15)
    assert np.array_equal(batch_mean_spread(batch_sizes=(3,), trials=20).measured,
                          batch_mean_spread(batch_sizes=(3,), trials=20, sigma=1.0, seed=0).measured)
    assert batch_mean_spread(batch_sizes=(3,)).measured.shape == (1,)
    rng = np.random.default_rng(0)
    assert batch_mean_spread(batch_sizes=(3,)).measured[0] == pytest.approx(rng.normal(size=(2000, 3)).mean(axis=1).std(),
                                                                             rel=1e-15)


def test_redrawn_sample_vectors_keep_the_scale():
    """Vectors redrawn for spreading too little are drawn at the same σ: with σ = 100 and a
    minimum spread of 1, every redrawn vector is a σ = 100 draw (spread ≫ 1)."""
    vectors = sample_vectors(400, 2, seed=2, scale=100.0, min_spread=1.0)
    plain = np.random.default_rng(2).normal(scale=100.0, size=(400, 2))
    redrawn = np.ptp(plain, axis=1) <= 1.0
    assert redrawn.any()
    assert np.all(np.ptp(vectors[redrawn], axis=1) > 1.0)
    assert np.abs(vectors[redrawn]).max() > 5.0  # a σ = 1 redraw would stay within about ±4


def test_scaled_outputs_defaults_and_refusals():
    result = scaled_outputs()
    np.testing.assert_array_equal(result.factors, [1.0, 2.0, 0.5])
    assert result.pre_activations.shape == (3, 6)
    explicit = scaled_outputs(factors=(1.0, 2.0, 0.5), d_in=8, d_out=6, seed=0)
    np.testing.assert_array_equal(result.pre_activations, explicit.pre_activations)
    with pytest.raises(ValueError, match="^factors: every c must be positive$"):
        scaled_outputs(factors=(1.0, 0.0))


def test_the_centring_sweep_inputs_are_the_ratio_times_ones_plus_one_seeded_direction():
    from normgeo import project_to_zero_mean_hyperplane

    sweep = centring_angle_sweep(ratios=[-1.0, 0.0, 2.0], n=5, seed=4)
    direction = project_to_zero_mean_hyperplane(np.random.default_rng(4).normal(size=5))
    direction /= direction.std()
    np.testing.assert_allclose(sweep.inputs, np.array([-1.0, 0.0, 2.0])[:, None] + direction, rtol=1e-12, atol=1e-15)
    np.testing.assert_array_equal(centring_angle_sweep().inputs, centring_angle_sweep(seed=0).inputs)


def test_a_weight_decay_run_is_sgd_from_the_stated_start_with_torchs_gradient():
    """W₀ = rng(seed + 1) normal rescaled to ‖W₀‖ = initial_norm; W ← W − η(∇L + λW) with ∇L from
    torch.autograd on the loss ½·mean‖LN(Wx) − y‖² … compared through the recorded norms."""
    from normgeo import weight_decay_run
    from normgeo.scale_invariance import linear_layer_norm_loss, teacher_problem

    run = weight_decay_run(steps=5, learning_rate=0.3, weight_decay=0.1, initial_norm=4.0, seed=2)
    assert run.weight_norms.shape == (6,) and run.losses.shape == (6,)
    assert run.weight_norms[0] == pytest.approx(4.0, rel=1e-15)
    assert run.learning_rate == 0.3 and run.weight_decay == 0.1
    np.testing.assert_allclose(run.effective_steps, 0.3 / run.weight_norms**2, rtol=1e-15)
    x, target = teacher_problem(seed=2)
    w = np.random.default_rng(3).normal(size=(target.shape[1], x.shape[1]))
    w *= 4.0 / np.linalg.norm(w)
    for k in range(6):
        loss, _ = linear_layer_norm_loss(w, x, target)
        assert run.weight_norms[k] == pytest.approx(np.linalg.norm(w), rel=1e-12)
        assert run.losses[k] == pytest.approx(loss, rel=1e-12)
        weights = torch.tensor(w, dtype=torch.float64, requires_grad=True)
        out = F.layer_norm(t(x) @ weights.T, (target.shape[1],), eps=0.0)
        torch_loss = ((out - t(target)) ** 2).sum(dim=1).mean() / 2
        torch_loss.backward()
        assert float(torch_loss.detach()) == pytest.approx(loss, rel=1e-12)
        w = w - 0.3 * (weights.grad.numpy() + 0.1 * w)
    default = weight_decay_run()
    assert default.weight_norms.shape == (151,) and default.weight_norms[0] == pytest.approx(6.0)
    assert default.learning_rate == 0.2 and default.weight_decay == 0.02
    np.testing.assert_array_equal(default.losses, weight_decay_run(seed=0).losses)


def test_a_norm_growth_run_is_minibatch_sgd_from_the_stated_start():
    """256 noisy teacher examples; W₀ from rng(seed + 1) rescaled to initial_norm; minibatches
    drawn without replacement by rng(seed + 2); each step's gradient, inner product and norm."""
    from normgeo import norm_growth_run
    from normgeo.scale_invariance import linear_layer_norm_loss, teacher_problem

    run = norm_growth_run(steps=4, learning_rate=0.4, weight_decay=0.05, initial_norm=2.0, batch_size=8,
                          noise=0.3, seed=1)
    assert run.weight_norms.shape == (5,) and run.gradient_norms.shape == (4,) and run.inner_products.shape == (4,)
    x, target = teacher_problem(batch=256, seed=1, noise=0.3)
    assert x.shape == (256, 8)
    w = np.random.default_rng(2).normal(size=(target.shape[1], x.shape[1]))
    w *= 2.0 / np.linalg.norm(w)
    batches = np.random.default_rng(3)
    assert run.weight_norms[0] == pytest.approx(2.0, rel=1e-15)
    for k in range(4):
        rows = batches.choice(256, size=8, replace=False)
        assert len(set(rows)) == 8
        _, grad = linear_layer_norm_loss(w, x[rows], target[rows])
        assert run.gradient_norms[k] == pytest.approx(np.linalg.norm(grad), rel=1e-12)
        assert run.inner_products[k] == pytest.approx(np.sum(grad * w), abs=1e-12)
        w = w - 0.4 * (grad + 0.05 * w)
        assert run.weight_norms[k + 1] == pytest.approx(np.linalg.norm(w), rel=1e-12)
    assert run.learning_rate == 0.4 and run.weight_decay == 0.05
    default = norm_growth_run()
    assert default.weight_norms.shape == (301,) and default.weight_norms[0] == pytest.approx(1.0)
    explicit = norm_growth_run(steps=300, learning_rate=0.5, weight_decay=0.0, initial_norm=1.0, batch_size=16,
                               noise=0.5, seed=0)
    np.testing.assert_array_equal(default.weight_norms, explicit.weight_norms)
    assert norm_growth_run(steps=1, batch_size=256).gradient_norms.shape == (1,)
    with pytest.raises(InvalidParameterError, match=r"^batch_size must be ≤ 256, got 257$"):
        norm_growth_run(steps=1, batch_size=257)


def test_the_growth_summary_measures_cosines_and_growth_errors_of_a_made_up_run():
    """A hand-made run: cosines |⟨∇, W⟩|/(‖∇‖‖W‖) = 0.5 and 0.75 (each step's gradient against the
    W it was taken at), and growth errors from the law."""
    from normgeo import norm_growth_summary
    from normgeo.scale_invariance import NormGrowthRun

    run = NormGrowthRun(np.array([1.0, 2.0, 3.0]), np.array([2.0, 4.0]), np.array([1.0, -6.0]), 0.5, 0.0)
    summary = norm_growth_summary(run)
    assert summary.largest_cosine == pytest.approx(0.75)  # 1/(2·1) and 6/(4·2)
    predicted = np.array([1.0 + 0.25 * 4.0, 4.0 + 0.25 * 16.0])  # ‖W‖² + η²‖∇‖² at λ = 0
    assert summary.largest_growth_error == pytest.approx(max(abs(4.0 - predicted[0]) / 4.0, abs(9.0 - predicted[1]) / 9.0))
    np.testing.assert_allclose(summary.effective_steps, 0.5 / np.array([1.0, 4.0, 9.0]))


def test_residual_stacks_are_seeded_with_the_stated_scales():
    from normgeo import make_stack, prenorm_postnorm_study

    stack = make_stack(depth=3, width=4, sublayer_scale=2.0, seed=5)
    rng = np.random.default_rng(5)
    np.testing.assert_allclose(stack.weights, rng.normal(scale=2.0 / 2.0, size=(3, 4, 4)), rtol=1e-15)
    np.testing.assert_allclose(stack.readout, rng.normal(size=4) / 2.0, rtol=1e-15)
    np.testing.assert_allclose(stack.start, rng.normal(size=4), rtol=1e-15)
    default = make_stack()
    assert default.weights.shape == (24, 16, 16)
    np.testing.assert_array_equal(default.weights, make_stack(24, 16, 1.0, 0).weights)
    study = prenorm_postnorm_study(depth=4, width=4, stacks=2, seed=3)
    assert study.depth == 4 and study.stacks == 2 and study.pre.shape == (4,)
    from normgeo.residual_stacks import block_gradient_norms
    logs = [np.log(block_gradient_norms(make_stack(4, 4, 1.0, 3 + k), "pre")) for k in range(2)]
    np.testing.assert_allclose(study.pre, np.exp(np.mean(logs, axis=0)), rtol=1e-12)
    full = prenorm_postnorm_study()
    assert full.depth == 24 and full.stacks == 8 and full.post.shape == (24,)
    np.testing.assert_array_equal(full.pre, prenorm_postnorm_study(24, 16, 1.0, 8, 0).pre)


def test_view_angles_at_the_edges():
    from normgeo import view_angles
    from normgeo.errors import ZeroVectorError

    assert view_angles([-0.0, 0.0, 1.0]) == (0.0, 0.0)  # on the z axis θ is 0, whatever the zeros' signs
    assert view_angles([-0.0, -0.0, -2.0]) == (pytest.approx(math.pi), 0.0)
    assert view_angles([0.0, 3.0, 0.0]) == (pytest.approx(math.pi / 2), pytest.approx(math.pi / 2))
    assert view_angles([-1.0, -0.0, 0.0])[1] == pytest.approx(math.pi)
    phi, theta = view_angles([1e200, 1e200, 1e200])
    assert phi == pytest.approx(math.acos(1 / math.sqrt(3)), rel=1e-12) and theta == pytest.approx(math.pi / 4)
    with pytest.raises(ZeroVectorError, match="^the zero vector has no direction to look along$"):
        view_angles([0.0, 0.0, 0.0])
    with pytest.raises(ValueError, match=r"^direction must have shape \(3,\), got \(2,\)$"):
        view_angles([1.0, 2.0])


def test_on_sphere_tolerance_is_relative_to_radii_above_one():
    from normgeo import on_sphere

    assert bool(on_sphere([1.0, 0.0]))
    assert bool(on_sphere([1.5, 0.0], 1.0, tol=0.5))  # exactly tol away: on it
    assert bool(on_sphere([4.3, 0.0], 4.0, tol=0.1))  # 0.3 ≤ 0.1·4
    assert not bool(on_sphere([1.15, 0.0], 1.0, tol=0.1))
    assert not bool(on_sphere([0.7, 0.0], 0.4, tol=0.2))  # below radius 1 the tolerance is absolute: 0.3 > 0.2
