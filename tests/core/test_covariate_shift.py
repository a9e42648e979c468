"""Laws of the covariate-shift experiment (B5, B7), after Santurkar et al. (2018)."""

import re

import numpy as np
import pytest

from normgeo import VARIANTS, covariate_shift_study, train_mlp
from normgeo.covariate_shift import _init_weights, _loss_and_grads, classification_data


@pytest.fixture
def study():
    """Built for each test (not once per module): mutation testing links a function to the tests
    that call it, and a module fixture would be linked to the first test alone."""
    return covariate_shift_study()


def test_noisy_batchnorm_moves_the_layer_inputs_far_more_than_batchnorm(study):
    """The injected noise re-creates covariate shift: several times BatchNorm's."""
    assert study.mean_shift("noisy-batchnorm") > 3 * study.mean_shift("batchnorm")


def test_noisy_batchnorm_still_trains_about_as_fast_as_batchnorm(study):
    """Mean training loss with the shift restored stays within 1.5× of plain BatchNorm's,
    and both beat the unnormalized network at this learning rate."""
    mean_loss = {v: study.mean_loss(v) for v in VARIANTS}
    assert mean_loss["noisy-batchnorm"] < 1.5 * mean_loss["batchnorm"]
    assert mean_loss["noisy-batchnorm"] < mean_loss["none"]
    assert mean_loss["batchnorm"] < mean_loss["none"]


def test_every_variant_learns_and_its_mean_loss_lies_between_start_and_end(study):
    """Each curve falls: the last 20 steps average under a quarter of the first 20, and the mean
    loss over the run (the area the scene compares) lies strictly between the two."""
    for variant in VARIANTS:
        losses = study.runs[variant].losses
        start, end = float(np.mean(losses[:20])), study.final_loss(variant)
        assert end < 0.25 * start, variant
        assert end < study.mean_loss(variant) < start, variant


def test_batchnorm_smooths_the_loss_along_the_gradient(study):
    """The loss varies far less along the gradient direction with BatchNorm (a smaller effective L)."""
    assert study.mean_landscape_variation("batchnorm") * 3 < study.mean_landscape_variation("none")


def test_mlp_gradients_match_finite_differences():
    """Backprop through the MLP with BatchNorm agrees with central differences."""
    features, labels = classification_data(n_samples=16, n_features=5, n_classes=3, seed=2)
    weights = _init_weights([5, 6, 6, 3], np.random.default_rng(0))
    for variant in ("none", "batchnorm", "noisy-batchnorm"):
        loss_at = lambda ws, v=variant: _loss_and_grads(ws, features, labels, v, np.random.default_rng(9), 0.3)  # noqa: E731
        _, grads, _ = loss_at(weights)
        h = 1e-6
        for layer, w in enumerate(weights):
            for index in [(0, 0), (1, 2), (w.shape[0] - 1, w.shape[1] - 1)]:
                plus = [v.copy() for v in weights]
                minus = [v.copy() for v in weights]
                plus[layer][index] += h
                minus[layer][index] -= h
                numeric = (loss_at(plus)[0] - loss_at(minus)[0]) / (2 * h)
                assert abs(numeric - grads[layer][index]) < 1e-6, (variant, layer, index)


def test_training_is_deterministic_and_divergence_is_reported():
    """Same seed, same curve; a learning rate that blows up raises instead of returning NaN."""
    assert np.array_equal(train_mlp("batchnorm", steps=20).losses, train_mlp("batchnorm", steps=20).losses)
    with pytest.raises(ValueError, match="diverged"):
        train_mlp("none", steps=100, learning_rate=50.0)


@pytest.mark.parametrize(("steps", "probe_every", "probes"), [(45, 20, 3), (40, 20, 2), (7, 3, 3), (5, 1, 5)])
def test_a_run_records_every_step_every_move_and_a_probe_every_so_often(steps, probe_every, probes):
    """A loss per step, a shift per pair of steps, a landscape probe at steps 0, k, 2k, … (counted
    by hand: ⌈steps / k⌉), each the spread of five losses, so never negative."""
    run = train_mlp("batchnorm", steps=steps, probe_every=probe_every)
    assert len(run.losses) == steps and len(run.distribution_shift) == steps - 1
    assert len(run.landscape_variation) == probes and (run.landscape_variation >= 0).all()
    assert (run.distribution_shift > 0).all()  # (the weights move at every step, so the inputs do)


def test_a_probe_is_the_spread_of_the_batch_loss_along_the_step():
    """The first probe, by hand: the cross-entropy (plain log-sum-exp) of a ReLU network written out
    here, at w − lr·s·g for the five step sizes on step 0's batch, g the gradient at step 0."""
    features, labels = classification_data(seed=0)
    weights = _init_weights([features.shape[1]] + [32] * 5 + [int(labels.max()) + 1], np.random.default_rng(1))
    batch = np.random.default_rng(2).choice(features.shape[0], size=64, replace=False)
    x, y = features[batch], labels[batch]
    _, grads, _ = _loss_and_grads(weights, x, y, "none", np.random.default_rng(3), 0.3)

    def cross_entropy(ws):
        h = x
        for w in ws[:-1]:
            h = np.maximum(h @ w, 0.0)
        logits = h @ ws[-1]
        top = logits.max(axis=1)
        return float(np.mean(top + np.log(np.exp(logits - top[:, None]).sum(axis=1)) - logits[np.arange(len(y)), y]))

    losses = [cross_entropy([w - s * g for w, g in zip(weights, grads)]) for s in (0.25, 0.5, 1.0, 2.0, 4.0)]
    assert train_mlp("none", steps=1).landscape_variation[0] == pytest.approx(max(losses) - min(losses), rel=1e-9)
    # steps of lr·s, not lr/s: the default sizes are closed under 1/s, so only other sizes tell them apart
    losses = [cross_entropy([w - 0.5 * s * g for w, g in zip(weights, grads)]) for s in (1.0, 3.0)]
    assert train_mlp("none", steps=1, learning_rate=0.5, probe_steps=(1.0, 3.0)).landscape_variation[0] == \
        pytest.approx(max(losses) - min(losses), rel=1e-9)


def test_the_defaults_are_those_documented_and_an_unknown_variant_is_named():
    """200 steps at learning rate 1 with seed 0, a probe every 20 steps; the run names its variant;
    the noisy variant's draws are seeded too (the same run twice)."""
    default = train_mlp("none")
    spelled = train_mlp("none", steps=200, learning_rate=1.0, probe_every=20, seed=0)
    assert len(default.losses) == 200 and len(default.landscape_variation) == 10 and default.variant == "none"
    assert np.array_equal(default.losses, spelled.losses)
    assert np.array_equal(default.landscape_variation, spelled.landscape_variation)
    noisy = [train_mlp("noisy-batchnorm", steps=5) for _ in range(2)]
    assert np.array_equal(noisy[0].losses, noisy[1].losses) and noisy[0].variant == "noisy-batchnorm"
    with pytest.raises(ValueError, match=r"^unknown variant 'layer'; choose one of none, batchnorm, noisy-batchnorm$"):
        train_mlp("layer")
    data, again = classification_data(), classification_data(1024, 20, 4, seed=0)  # the documented defaults
    assert all(np.array_equal(a, b) for a, b in zip(data, again)) and data[0].shape == (1024, 20)


@pytest.mark.parametrize("variant", ["batchnorm", "noisy-batchnorm"])
def test_the_forward_pass_is_batchnorm_then_a_random_affine_per_unit_by_hand(variant):
    """The last hidden layer's input written out: each pre-activation standardized over the batch
    (population variance, ε = 1e-5), then for noisy-BatchNorm scaled by U(1 − 0.3, 1 + 0.3) and shifted
    by N(0, 0.3²), one draw per unit from the same generator, then ReLU."""
    features, labels = classification_data(seed=0)
    weights = _init_weights([features.shape[1]] + [8] * 3 + [int(labels.max()) + 1], np.random.default_rng(5))
    x = features[:16]
    _, _, hidden_input = _loss_and_grads(weights, x, labels[:16], variant, np.random.default_rng(7), 0.3)
    draws, h = np.random.default_rng(7), x
    for w in weights[:-1]:
        z = h @ w
        z = (z - z.mean(axis=0)) / np.sqrt(z.var(axis=0) + 1e-5)
        if variant == "noisy-batchnorm":
            scale = draws.uniform(0.7, 1.3, size=z.shape[1])
            z = z * scale + draws.normal(scale=0.3, size=z.shape[1])
        h = np.maximum(z, 0.0)
    assert np.allclose(hidden_input, h, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("probe_every", [1, 20])
@pytest.mark.parametrize("learning_rate", [50.0, 1e8])
def test_a_diverging_run_says_so_without_a_numpy_warning_on_the_way(probe_every, learning_rate):
    """Overflow on the way to divergence (in a step or in a probe's large steps) is expected and
    silenced; what the caller gets is the one error (RuntimeWarnings are errors in this suite)."""
    message = rf"training .* diverged at step \d+ \(learning rate {re.escape(f'{learning_rate:g}')} is too large"
    with pytest.raises(ValueError, match=message):
        train_mlp("none", steps=100, learning_rate=learning_rate, probe_every=probe_every)


def test_the_study_passes_its_settings_to_every_run_and_defaults_to_200_steps():
    """Each variant's run in a study is the run trained alone with the same steps, rate and seed."""
    study = covariate_shift_study(steps=4, learning_rate=0.5, seed=1)
    for variant in VARIANTS:
        alone = train_mlp(variant, steps=4, learning_rate=0.5, seed=1)
        assert np.array_equal(study.runs[variant].losses, alone.losses), variant
    assert [len(run.losses) for run in covariate_shift_study().runs.values()] == [200] * len(VARIANTS)
