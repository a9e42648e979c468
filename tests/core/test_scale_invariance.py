"""Laws of scale invariance (B6, C3): LN((cW)x) = LN(Wx); ∇ scales as 1/c and is ⟂ W, so plain SGD
grows ‖W‖ by η²‖∇‖² in square per step; weight decay shrinks ‖W‖ and so raises the effective step η/‖W‖²."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from normgeo import linear_layer_norm, linear_layer_norm_loss, norm_growth_run, weight_decay_run
from normgeo.scale_invariance import teacher_problem

scales = st.floats(min_value=1e-3, max_value=1e3)


@given(scales, st.integers(0, 1000))
def test_output_does_not_change_when_weights_are_scaled(c, seed):
    """LN((cW)x) = LN(Wx) to 1e-9 for every c > 0."""
    x, _ = teacher_problem(seed=seed)
    w = np.random.default_rng(seed).normal(size=(8, 8))
    assert np.allclose(linear_layer_norm(c * w, x), linear_layer_norm(w, x), atol=1e-9, rtol=0)


@given(scales, st.integers(0, 1000))
def test_gradient_scales_as_one_over_c_and_is_orthogonal_to_w(c, seed):
    """∇L(cW) = ∇L(W)/c, and ⟨∇L(W), W⟩ = 0: moving along W changes nothing."""
    x, target = teacher_problem(seed=seed)
    w = np.random.default_rng(seed + 7).normal(size=(8, 8))
    loss, grad = linear_layer_norm_loss(w, x, target)
    loss_c, grad_c = linear_layer_norm_loss(c * w, x, target)
    assert np.isclose(loss, loss_c, rtol=1e-9)
    assert np.allclose(grad_c * c, grad, atol=1e-9 * np.abs(grad).max())
    assert abs(np.sum(grad * w)) <= 1e-9 * np.linalg.norm(grad) * np.linalg.norm(w)


def test_gradient_matches_finite_differences():
    """The hand-written backprop through LN agrees with central differences."""
    x, target = teacher_problem(d_in=4, d_out=3, batch=5, seed=1)
    w = np.random.default_rng(2).normal(size=(3, 4))
    _, grad = linear_layer_norm_loss(w, x, target)
    h = 1e-6
    numeric = np.zeros_like(w)
    for index in np.ndindex(w.shape):
        step = np.zeros_like(w)
        step[index] = h
        up, down = linear_layer_norm_loss(w + step, x, target)[0], linear_layer_norm_loss(w - step, x, target)[0]
        numeric[index] = (up - down) / (2 * h)
    assert np.allclose(grad, numeric, atol=1e-7)


def test_weight_decay_shrinks_the_norm_and_grows_the_effective_step():
    """With decay ‖W‖ falls monotonically and η/‖W‖² rises; without it ‖W‖ never falls."""
    run = weight_decay_run()
    assert np.all(np.diff(run.weight_norms) < 0)
    assert np.all(np.diff(run.effective_steps) > 0)
    assert np.allclose(run.effective_steps, run.learning_rate / run.weight_norms**2)
    assert run.effective_steps[-1] > 2 * run.effective_steps[0]
    no_decay = weight_decay_run(weight_decay=0.0)
    assert np.all(np.diff(no_decay.weight_norms) >= -1e-12)  # a gradient ⟂ W can only lengthen W


def test_runs_are_deterministic_under_a_seed():
    """Same seed, same numbers; another seed, other numbers."""
    a, b, c = weight_decay_run(seed=3), weight_decay_run(seed=3), weight_decay_run(seed=4)
    assert np.array_equal(a.losses, b.losses) and not np.array_equal(a.losses, c.losses)


@given(st.integers(0, 1000), st.sampled_from([0.0, 0.01, 0.05]), st.floats(0.05, 1.0))
def test_minibatch_gradients_are_orthogonal_to_w_and_the_norm_follows_the_identity(seed, decay, lr):
    """C3: every minibatch gradient has ⟨∇_t, W_t⟩ = 0 (relative to ‖∇_t‖·‖W_t‖), so
    ‖W_{t+1}‖² = (1 − ηλ)²‖W_t‖² + η²‖∇_t‖² at every step, with the norms measured on W."""
    run = norm_growth_run(steps=40, learning_rate=lr, weight_decay=decay, seed=seed)
    assert np.all(np.abs(run.inner_products) <= 1e-12 * run.gradient_norms * run.weight_norms[:-1])
    shrink = 1 - lr * decay
    predicted = shrink**2 * run.weight_norms[:-1] ** 2 + lr**2 * run.gradient_norms**2
    assert np.allclose(run.weight_norms[1:] ** 2, predicted, rtol=1e-12, atol=0)
    assert np.array_equal(run.predicted_squared_norms, predicted)


def test_plain_sgd_grows_the_norm_at_every_step_and_decay_holds_it_near_an_equilibrium():
    """λ = 0: ‖W‖ rises at every one of 300 steps. λ = 0.05: over the second half ‖W‖ stays within
    10% of its mean, which is less than half of where plain SGD ends."""
    plain, decayed = norm_growth_run(), norm_growth_run(weight_decay=0.05)
    assert np.all(np.diff(plain.weight_norms) > 0)
    tail = decayed.weight_norms[150:]
    assert np.all(np.abs(tail / tail.mean() - 1) < 0.1)
    assert 2 * tail.mean() < plain.weight_norms[-1]


def test_norm_growth_runs_are_deterministic_under_a_seed():
    """Same seed, same norms; another seed, other norms."""
    a, b, c = norm_growth_run(steps=20, seed=3), norm_growth_run(steps=20, seed=3), norm_growth_run(steps=20, seed=4)
    assert np.array_equal(a.weight_norms, b.weight_norms) and not np.array_equal(a.weight_norms, c.weight_norms)


def test_teacher_noise_only_changes_the_targets():
    """noise = 0 keeps the old problem; noise > 0 moves the targets off LN(W*x) and keeps x."""
    x0, t0 = teacher_problem(seed=5)
    x1, t1 = teacher_problem(seed=5, noise=0.5)
    assert np.array_equal(x0, x1) and not np.allclose(t0, t1)
