"""The toy step-size sweep (B10): which step sizes train a residual stack, pre-norm against post-norm.
Backprop checked by finite differences; "trains" checked against the loss curve itself."""

import numpy as np
import pytest

from normgeo import make_stack, regression_task, step_size_sweep, task_loss_and_gradients, training_losses


@pytest.mark.parametrize("arrangement", ["pre", "post"])
@pytest.mark.parametrize("seed", [0, 3])
def test_weight_gradients_match_finite_differences(arrangement, seed):
    """∂L/∂W_l by hand equals the central difference of the loss in a sample of entries of every block."""
    task = regression_task(depth=3, width=4, examples=5, seed=seed)
    _, gradients = task_loss_and_gradients(task, task.weights, arrangement)
    rng, h = np.random.default_rng(seed), 1e-6
    for block in range(3):
        for i, j in rng.integers(0, 4, size=(4, 2)):
            bump = np.zeros_like(task.weights)
            bump[block, i, j] = h
            up = task_loss_and_gradients(task, task.weights + bump, arrangement)[0]
            down = task_loss_and_gradients(task, task.weights - bump, arrangement)[0]
            assert gradients[block, i, j] == pytest.approx((up - down) / (2 * h), abs=1e-7)


@pytest.mark.parametrize("arrangement", ["pre", "post"])
def test_a_small_enough_step_lowers_the_loss(arrangement):
    """Gradient descent with a tiny step decreases the loss at every step (first-order fact)."""
    losses = training_losses(regression_task(depth=6, width=8), arrangement, 1e-3, steps=20)
    assert np.all(np.diff(losses) < 0)


def test_trains_means_finite_and_below_the_target_share_of_the_start():
    """The sweep's verdict for each step size is read off the full loss curve of that run."""
    sweep = step_size_sweep(depth=6, width=8, step_sizes=(0.01, 1.0, 100.0), steps=40)
    task = regression_task(depth=6, width=8)
    for arrangement in ("pre", "post"):
        for size, verdict in zip(sweep.step_sizes, sweep.trains(arrangement)):
            losses = training_losses(task, arrangement, size, steps=40)
            assert verdict == bool(np.isfinite(losses[-1]) and losses[-1] <= 0.1 * losses[0])
        assert sweep.count(arrangement) == int(sweep.trains(arrangement).sum())


def test_in_the_default_toy_pre_norm_trains_at_more_step_sizes():
    """The toy's result (24 blocks, width 16, 100 steps, loss below 10 % of its start): pre-norm trains at
    4 of the 9 step sizes 10⁻³ … 10, post-norm at 1; every size at which post-norm trains, pre-norm does."""
    sweep = step_size_sweep()
    assert sweep.step_sizes.size == 9 and sweep.steps == 100 and sweep.target == 0.1
    assert (sweep.count("pre"), sweep.count("post")) == (4, 1)
    assert sweep.wider == "pre"
    assert np.all(sweep.trains("pre")[sweep.trains("post")])


def test_a_run_whose_numbers_overflow_is_marked_and_never_counts_as_training():
    """Both arrangements predict from a normalized state, so the loss stays bounded; what can break is
    arithmetic: a step of 10³⁰⁰ overflows post-norm's weights, the loss turns NaN, and the run reports
    inf from there on (never "trained")."""
    losses = training_losses(regression_task(depth=4, width=6), "post", 1e300, steps=3)
    assert np.isfinite(losses[0]) and np.isinf(losses[1:]).all()
    sweep = step_size_sweep(depth=4, width=6, step_sizes=(1e-2, 1e300), steps=3)
    assert not sweep.trains("post")[1]


def test_bad_sweeps_are_refused():
    with pytest.raises(ValueError, match="step_sizes"):
        step_size_sweep(depth=2, width=4, step_sizes=(0.1, -1.0))
    with pytest.raises(ValueError, match="arrangement"):
        task_loss_and_gradients(regression_task(depth=2, width=4), regression_task(depth=2, width=4).weights, "middle")


@pytest.mark.parametrize(("call", "message"), [
    (lambda: step_size_sweep(depth=2, width=4, step_sizes=(0.1, -1.0)),
     "step_sizes must be a list of at least two positive numbers"),
    (lambda: step_size_sweep(depth=2, width=4, step_sizes=(0.1, 0.0)),
     "step_sizes must be a list of at least two positive numbers"),
    (lambda: step_size_sweep(depth=2, width=4, step_sizes=(0.1,)),
     "step_sizes must be a list of at least two positive numbers"),
    (lambda: step_size_sweep(depth=2, width=4, step_sizes=[[0.1, 0.2], [0.3, 0.4]]),
     "step_sizes must be a list of at least two positive numbers"),
    (lambda: step_size_sweep(depth=2, width=4, step_sizes=(0.1, "x")),
     "step_sizes must be an array of real numbers (could not convert string to float: 'x')"),
    (lambda: step_size_sweep(depth=2, width=4, target=0.0), "target must be a positive number, got 0.0"),
    (lambda: training_losses(regression_task(depth=2, width=4), "pre", -1.0), "step_size must be a positive number, got -1.0"),
    (lambda: training_losses(regression_task(depth=2, width=4), "pre", 0.1, 0), "steps must be ≥ 1, got 0"),
])
def test_bad_sweeps_are_refused_word_for_word(call, message):
    with pytest.raises(Exception) as refused:
        call()
    assert str(refused.value) == message


def test_a_sweep_trains_the_task_of_its_seed_and_runs_100_steps_by_default():
    sweep = step_size_sweep(depth=3, width=4, step_sizes=(1e-3, 1e-2), seed=1, steps=2)
    task = regression_task(depth=3, width=4, seed=1)
    assert sweep.final["pre"][1] == training_losses(task, "pre", 1e-2, 2)[-1]
    assert sweep.final["pre"][1] != training_losses(regression_task(depth=3, width=4, seed=0), "pre", 1e-2, 2)[-1]
    assert len(training_losses(task, "post", 1e-3)) == 101  # before each of 100 steps, and after the last


def _layer_norm(x):
    centred = x - x.mean(axis=-1, keepdims=True)
    return centred / np.sqrt(np.mean(centred**2, axis=-1, keepdims=True))


@pytest.mark.parametrize("arrangement", ["pre", "post"])
def test_the_loss_is_the_stack_written_out_by_hand(arrangement):
    """Pre-norm x ← x + LN(x)·Wᵀ then a final LN; post-norm x ← LN(x + x·Wᵀ); LN at ε = 0 over each
    example's features; L = mean(⟨v, x_L⟩ − t)²/2."""
    task = regression_task(depth=3, width=5, examples=6, seed=2)
    x = task.inputs
    for w in task.weights:
        x = x + _layer_norm(x) @ w.T if arrangement == "pre" else _layer_norm(x + x @ w.T)
    if arrangement == "pre":
        x = _layer_norm(x)
    expected = 0.5 * np.mean((x @ task.readout - task.targets) ** 2)
    assert task_loss_and_gradients(task, task.weights, arrangement)[0] == pytest.approx(expected, rel=1e-12)


def test_a_task_is_the_stack_of_its_seed_with_the_documented_defaults():
    task, stack = regression_task(seed=3), make_stack(24, 16, 1.0, 3)
    assert np.array_equal(task.weights, stack.weights) and np.array_equal(task.readout, stack.readout)
    default = regression_task()
    assert default.inputs.shape == (64, 16) and default.weights.shape == (24, 16, 16)
    spelled = regression_task(24, 16, 1.0, 64, 0)
    assert np.array_equal(default.inputs, spelled.inputs) and np.array_equal(default.weights, spelled.weights)
    assert regression_task(depth=2, width=4, examples=2).inputs.shape == (2, 4)
    with pytest.raises(Exception) as refused:
        regression_task(depth=2, width=4, examples=1)
    assert str(refused.value) == "examples must be ≥ 2, got 1"
