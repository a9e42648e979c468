"""Which step sizes train a toy residual stack, pre-norm against post-norm (a toy, not a transformer).

The stack is the one of ``residual_stacks`` (blocks x ← x + F(LN(x)) or x ← LN(x + F(x)), F a
random linear map), read out by a fixed vector v. Pre-norm ends, as pre-norm transformers do, with
a final LN before the read-out, so both arrangements predict from a normalized state. The task is
a regression: m random inputs x₀, targets t = tanh(⟨a, x₀⟩), loss L = mean (⟨v, x_L⟩ − t)²/2.
Every block's F is trained by full-batch gradient descent with one step size η for ``steps``
steps (backprop written out, checked against finite differences in the tests). A step size
*trains* when the loss stays finite and ends at most ``target`` times where it started.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from normgeo.backprop import normalize_backward, normalize_forward
from normgeo.residual_stacks import ARRANGEMENTS, make_stack
from normgeo.validation import as_dimension, as_finite_array, as_positive_number

__all__ = ["RegressionTask", "regression_task", "task_loss_and_gradients", "training_losses", "StepSizeSweep",
           "step_size_sweep", "DEFAULT_STEP_SIZES"]

DEFAULT_STEP_SIZES = tuple(float(s) for s in np.logspace(-3, 1, 9))  # 10⁻³ … 10, two per decade


@dataclass(frozen=True)
class RegressionTask:
    """Inputs x₀ (m × width), targets t (m), the fixed read-out v and the initial sub-layers."""

    inputs: np.ndarray
    targets: np.ndarray
    readout: np.ndarray
    weights: np.ndarray


def regression_task(depth: int = 24, width: int = 16, sublayer_scale: float = 1.0, examples: int = 64,
                    seed: int = 0) -> RegressionTask:
    """The stack of ``make_stack(depth, width, sublayer_scale, seed)`` and a seeded regression task."""
    stack = make_stack(depth, width, sublayer_scale, seed)
    rng = np.random.default_rng([seed, 1])
    inputs = rng.normal(size=(as_dimension(examples, "examples", minimum=2), stack.weights.shape[1]))
    direction = rng.normal(size=inputs.shape[1]) / np.sqrt(inputs.shape[1])
    return RegressionTask(inputs, np.tanh(inputs @ direction), stack.readout, stack.weights)


def _forward(weights: np.ndarray, x: np.ndarray, arrangement: str):
    """The read-out's input and, per block, what its weight gradient needs (its F's input) and LN's cache."""
    inputs, caches = [], []
    for w in weights:
        if arrangement == "pre":
            normalized, cache = normalize_forward(x, axes=-1, eps=0.0)
            inputs.append(normalized)
            x = x + normalized @ w.T
        else:
            inputs.append(x)
            x, cache = normalize_forward(x + x @ w.T, axes=-1, eps=0.0)
        caches.append(cache)
    if arrangement == "pre":  # the final LN of a pre-norm stack
        x, cache = normalize_forward(x, axes=-1, eps=0.0)
        caches.append(cache)
    return x, inputs, caches


def task_loss_and_gradients(task: RegressionTask, weights: np.ndarray, arrangement: str):
    """L = mean (⟨v, x_L⟩ − t)²/2 and ∂L/∂W_l for every block (same shape as ``weights``)."""
    if arrangement not in ARRANGEMENTS:
        raise ValueError(f"unknown arrangement {arrangement!r}; choose pre or post")
    out, inputs, caches = _forward(weights, task.inputs, arrangement)
    residual = out @ task.readout - task.targets
    loss = 0.5 * float(np.mean(residual**2))
    grad = np.outer(residual, task.readout) / residual.size
    if arrangement == "pre":
        grad = normalize_backward(grad, caches[-1])
    gradients = np.empty_like(weights)
    for index in range(weights.shape[0] - 1, -1, -1):
        w, cache = weights[index], caches[index]
        if arrangement == "pre":
            gradients[index] = grad.T @ inputs[index]
            grad = grad + normalize_backward(grad @ w, cache)
        else:
            upstream = normalize_backward(grad, cache)
            gradients[index] = upstream.T @ inputs[index]
            grad = upstream + upstream @ w
    return loss, gradients


def training_losses(task: RegressionTask, arrangement: str, step_size: float, steps: int = 100) -> np.ndarray:
    """The loss before each of ``steps`` gradient steps of size η and after the last; it stops
    (the rest ``inf``) once the loss is no longer finite or exceeds 10⁶ times its start."""
    step_size, steps = as_positive_number(step_size, "step_size"), as_dimension(steps, "steps")
    weights = task.weights.copy()
    losses = np.full(steps + 1, np.inf)
    with np.errstate(over="ignore", invalid="ignore"):
        for index in range(steps + 1):
            loss, gradients = task_loss_and_gradients(task, weights, arrangement)
            if not np.isfinite(loss) or loss > 1e6 * losses[0]:
                break
            losses[index] = loss
            weights = weights - step_size * gradients
    return losses


@dataclass(frozen=True)
class StepSizeSweep:
    """For each step size: the initial and final loss of each arrangement, and whether it trains."""

    step_sizes: np.ndarray
    steps: int
    target: float
    initial: dict[str, np.ndarray]
    final: dict[str, np.ndarray]

    def trains(self, arrangement: str) -> np.ndarray:
        """Step sizes at which the loss stays finite and ends at most ``target`` × its start."""
        return np.isfinite(self.final[arrangement]) & (self.final[arrangement] <= self.target * self.initial[arrangement])

    def count(self, arrangement: str) -> int:
        return int(self.trains(arrangement).sum())

    def ratios(self, arrangement: str) -> np.ndarray:
        """The final loss over the initial one per step size; ``inf`` where the run diverged."""
        final = self.final[arrangement]
        return np.where(np.isfinite(final), final / self.initial[arrangement], np.inf)

    def diverged(self, arrangement: str) -> int:
        """How many step sizes make the loss non-finite or grow 10⁶-fold."""
        return int((~np.isfinite(self.final[arrangement])).sum())

    def near_target(self, tolerance: float = 0.05) -> list[tuple[str, int]]:
        """(arrangement, step index) of the runs whose ratio lies within ``tolerance`` × ``target`` of
        the target: where the count of step sizes that "reach the target" hangs on the line's place."""
        return [(arrangement, int(i)) for arrangement in ("pre", "post")
                for i in np.flatnonzero(np.abs(self.ratios(arrangement) - self.target) <= tolerance * self.target)]

    @property
    def wider(self) -> str | None:
        """The arrangement that trains at more step sizes of the grid; None if they tie."""
        pre, post = self.count("pre"), self.count("post")
        return None if pre == post else ("pre" if pre > post else "post")


def step_size_sweep(depth: int = 24, width: int = 16, sublayer_scale: float = 1.0, seed: int = 0,
                    step_sizes=DEFAULT_STEP_SIZES, steps: int = 100, target: float = 0.1,
                    examples: int = 64) -> StepSizeSweep:
    """Train the same stack, arranged both ways, at every step size of the grid."""
    sizes = as_finite_array(step_sizes, "step_sizes")
    if sizes.ndim != 1 or sizes.size < 2 or (sizes <= 0).any():
        raise ValueError("step_sizes must be a list of at least two positive numbers")
    target = as_positive_number(target, "target")
    task = regression_task(depth, width, sublayer_scale, examples, seed)
    initial, final = {}, {}
    for arrangement in ARRANGEMENTS:
        runs = [training_losses(task, arrangement, size, steps) for size in sizes]
        initial[arrangement] = np.array([run[0] for run in runs])
        final[arrangement] = np.array([run[-1] for run in runs])
    return StepSizeSweep(sizes, steps, target, initial, final)
