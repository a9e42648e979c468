"""Scale invariance of a linear map followed by LayerNorm, and what weight decay does to it.

LN((cW)x) = LN(Wx) for c > 0, so the loss depends on the direction of W only; its gradient
is orthogonal to W and scales as 1/c. Under SGD with weight decay, ‖W‖ shrinks and the
effective step η/‖W‖² (the step in angle) grows: weight decay acts as a learning-rate knob.

Because ⟨∇L, W⟩ = 0 (Frobenius), one step W ← (1 − ηλ)W − η∇L gives exactly
‖W′‖² = (1 − ηλ)²‖W‖² + η²‖∇L‖²: without decay (λ = 0) plain SGD can only grow ‖W‖, which
shrinks the effective step; with decay the two terms balance near an equilibrium norm (C3).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from normgeo.backprop import normalize_backward, normalize_forward
from normgeo.errors import InvalidParameterError
from normgeo.validation import as_dimension, as_finite_array, as_nonnegative_number, as_positive_number

__all__ = [
    "ScaledOutputs",
    "scaled_outputs",
    "linear_layer_norm",
    "linear_layer_norm_loss",
    "WeightDecayRun",
    "weight_decay_run",
    "teacher_problem",
    "NormGrowthRun",
    "norm_growth_run",
]


def linear_layer_norm(w, x, eps: float = 0.0) -> np.ndarray:
    """LN(W x) for a batch x of shape (batch, d_in), W of shape (d_out, d_in); no affine."""
    w, x = as_finite_array(w, "W", 2), as_finite_array(x, "x", 2)
    return normalize_forward(x @ w.T, axes=-1, eps=eps)[0]


def linear_layer_norm_loss(w, x, target, eps: float = 0.0) -> tuple[float, np.ndarray]:
    """L = ½·mean over the batch of ‖LN(Wx) − t‖², and ∂L/∂W (hand-written backprop)."""
    w, x, target = as_finite_array(w, "W", 2), as_finite_array(x, "x", 2), as_finite_array(target, "target", 2)
    y, cache = normalize_forward(x @ w.T, axes=-1, eps=eps)
    residual = y - target
    loss = 0.5 * float(np.mean(np.sum(residual**2, axis=-1)))
    grad_pre = normalize_backward(residual / x.shape[0], cache)
    return loss, grad_pre.T @ x


def teacher_problem(d_in: int = 8, d_out: int = 8, batch: int = 64, seed: int = 0, noise: float = 0.0):
    """Inputs x and targets LN(W* x) of a random teacher W*: a problem whose optimum is a direction.

    With ``noise`` > 0 every target entry gets N(0, noise²) added, so no W fits every example.
    """
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(batch, as_dimension(d_in, "d_in")))
    teacher = rng.normal(size=(as_dimension(d_out, "d_out", minimum=2), d_in))
    target = linear_layer_norm(teacher, x)
    noise = as_nonnegative_number(noise, "noise")
    if noise > 0:
        target = target + rng.normal(scale=noise, size=target.shape)
    return x, target


def _trend(norms: np.ndarray, rtol: float) -> str:
    """"falls", "rises" or "flat": where the last norm lies against the first, beyond ``rtol`` (relative)."""
    start, end = norms[0], norms[-1]
    if end < (1.0 - rtol) * start:
        return "falls"
    return "rises" if end > (1.0 + rtol) * start else "flat"


@dataclass(frozen=True)
class WeightDecayRun:
    """Per iteration (steps + 1 values): ‖W‖, the effective step η/‖W‖², and the loss."""

    weight_norms: np.ndarray
    effective_steps: np.ndarray
    losses: np.ndarray
    learning_rate: float
    weight_decay: float

    def norm_trend(self, rtol: float = 1e-3) -> str:
        """``"falls"`` if ‖W‖ ends more than ``rtol`` (relative) below where it started (then the
        effective step η/‖W‖² ends above where it started), ``"rises"`` if it ends more than ``rtol``
        above (the effective step falls), else ``"flat"``.

        Each step gives ‖W′‖² = (1 − ηλ)²‖W‖² + η²‖∇L‖²: decay shrinks, the gradient step lengthens;
        with a small λ the second wins and the norm rises.
        """
        return _trend(self.weight_norms, rtol)


def weight_decay_run(steps: int = 150, learning_rate: float = 0.2, weight_decay: float = 0.02,
                     initial_norm: float = 6.0, seed: int = 0) -> WeightDecayRun:
    """SGD with weight decay on LN(Wx) from a large ‖W‖: W ← W − η(∇L + λW)."""
    steps = as_dimension(steps, "steps")
    lr = as_positive_number(learning_rate, "learning_rate")
    decay = as_nonnegative_number(weight_decay, "weight_decay")
    x, target = teacher_problem(seed=seed)
    w = np.random.default_rng(seed + 1).normal(size=(target.shape[1], x.shape[1]))
    w *= as_positive_number(initial_norm, "initial_norm") / np.linalg.norm(w)
    norms, losses = [], []
    for _ in range(steps + 1):
        loss, grad = linear_layer_norm_loss(w, x, target)
        norms.append(float(np.linalg.norm(w)))
        losses.append(loss)
        w = w - lr * (grad + decay * w)
    norms = np.array(norms)
    return WeightDecayRun(norms, lr / norms**2, np.array(losses), lr, decay)


@dataclass(frozen=True)
class ScaledOutputs:
    """For each c: the pre-activations (cW)x and the outputs LN((cW)x) of one example."""

    factors: np.ndarray
    pre_activations: np.ndarray
    outputs: np.ndarray


def scaled_outputs(factors=(1.0, 2.0, 0.5), d_in: int = 8, d_out: int = 6, seed: int = 0) -> ScaledOutputs:
    """Scale a random W by each c and record what one example becomes before and after LN."""
    factors = as_finite_array(factors, "factors")
    if (factors <= 0).any():
        raise ValueError("factors: every c must be positive")
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(1, as_dimension(d_in, "d_in")))
    w = rng.normal(size=(as_dimension(d_out, "d_out", minimum=2), d_in)) / np.sqrt(d_in)
    pre = np.array([(c * w @ x.T).ravel() for c in factors])
    post = np.array([linear_layer_norm(c * w, x).ravel() for c in factors])
    return ScaledOutputs(factors, pre, post)


@dataclass(frozen=True)
class NormGrowthRun:
    """Minibatch SGD on LN(Wx): per step t the norm ‖W_t‖ (steps + 1 values), and the
    minibatch gradient's norm ‖∇_t‖ and inner product ⟨∇_t, W_t⟩ (steps values)."""

    weight_norms: np.ndarray
    gradient_norms: np.ndarray
    inner_products: np.ndarray
    learning_rate: float
    weight_decay: float

    def norm_trend(self, rtol: float = 1e-2) -> str:
        """Whether ‖W‖ ends visibly above (``"rises"``) or below (``"falls"``) its start, by more than
        ``rtol`` (relative), or neither (``"flat"``: too few or too small steps to see it)."""
        return _trend(self.weight_norms, rtol)

    def settled(self, rtol: float = 0.03) -> bool:
        """‖W‖ has levelled off: its mean over the last quarter of the run is within ``rtol``
        (relative) of its mean over the quarter before, and known that well: the standard error of the
        last quarter's mean is within ``rtol`` too (minibatch noise makes single steps jitter; a short,
        noisy quarter can agree with the one before by chance)."""
        norms = self.weight_norms
        quarter = max(1, (norms.size - 1) // 4)
        tail = norms[-quarter:]
        last, before = tail.mean(), norms[-2 * quarter:-quarter].mean()
        error = tail.std(ddof=1) / np.sqrt(quarter) if quarter > 1 else 0.0
        return bool(abs(last - before) <= rtol * last and error <= rtol * last)

    def balanced(self, rtol: float = 0.2) -> bool:
        """Over the last quarter of the run, what decay takes from ‖W‖² per step, (1 − (1 − ηλ)²)‖W_t‖²,
        adds up to within ``rtol`` of what the gradient adds, η²‖∇_t‖²: the norm sits where shrinking
        and growth balance, not merely falling too slowly for ``settled`` to see (a small ηλ)."""
        quarter = max(1, self.gradient_norms.size // 4)
        removed = (1.0 - (1.0 - self.learning_rate * self.weight_decay) ** 2) * self.weight_norms[-quarter - 1:-1] ** 2
        added = self.learning_rate**2 * self.gradient_norms[-quarter:] ** 2
        return bool(abs(removed.sum() - added.sum()) <= rtol * added.sum())

    def decay_effect(self, plain: NormGrowthRun, rtol: float = 0.1) -> str:
        """What this run's weight decay did against ``plain`` (the same run with λ = 0):

        * ``"holds"``: the norm has settled (``settled``) where decay and growth balance (``balanced``),
          clearly below plain SGD's end;
        * ``"shrinks"``: not held, and it ends more than ``rtol`` below its own start: the decay
          outweighs the growth (a large λ or a long start), so "slows the growth" would be false;
        * ``"slows"``: it ends clearly below plain SGD's end, more than ``rtol`` lower, but is not held;
        * ``"barely"``: it ends within ``rtol`` of plain SGD's end: too weak to matter over this run.
        """
        if self.weight_norms[-1] > (1.0 - rtol) * plain.weight_norms[-1]:
            return "barely"
        if self.settled() and self.balanced():
            return "holds"
        return "shrinks" if self.weight_norms[-1] < (1.0 - rtol) * self.weight_norms[0] else "slows"

    @property
    def predicted_squared_norms(self) -> np.ndarray:
        """(1 − ηλ)²‖W_t‖² + η²‖∇_t‖²: what ‖W_{t+1}‖² is when ⟨∇_t, W_t⟩ = 0."""
        shrink = 1.0 - self.learning_rate * self.weight_decay
        return shrink**2 * self.weight_norms[:-1] ** 2 + self.learning_rate**2 * self.gradient_norms**2


def norm_growth_run(steps: int = 300, learning_rate: float = 0.5, weight_decay: float = 0.0,
                    initial_norm: float = 1.0, batch_size: int = 16, noise: float = 0.5,
                    seed: int = 0) -> NormGrowthRun:
    """W ← W − η(∇L + λW) on minibatches of a noisy teacher problem (256 examples), from ‖W‖ =
    ``initial_norm``. The noise keeps the minibatch gradients from vanishing, so with λ > 0 the
    norm settles where decay and growth balance; with λ = 0 it grows at every step."""
    steps = as_dimension(steps, "steps")
    lr = as_positive_number(learning_rate, "learning_rate")
    decay = as_nonnegative_number(weight_decay, "weight_decay")
    batch_size = as_dimension(batch_size, "batch_size")
    x, target = teacher_problem(batch=256, seed=seed, noise=noise)
    if batch_size > x.shape[0]:
        raise InvalidParameterError(f"batch_size must be ≤ {x.shape[0]}, got {batch_size}")
    w = np.random.default_rng(seed + 1).normal(size=(target.shape[1], x.shape[1]))
    w *= as_positive_number(initial_norm, "initial_norm") / np.linalg.norm(w)
    batches = np.random.default_rng(seed + 2)
    norms, gradient_norms, inner = [float(np.linalg.norm(w))], [], []
    for _ in range(steps):
        rows = batches.choice(x.shape[0], size=batch_size, replace=False)
        _, grad = linear_layer_norm_loss(w, x[rows], target[rows])
        gradient_norms.append(float(np.linalg.norm(grad)))
        inner.append(float(np.sum(grad * w)))
        w = w - lr * (grad + decay * w)
        norms.append(float(np.linalg.norm(w)))
    return NormGrowthRun(np.array(norms), np.array(gradient_norms), np.array(inner), lr, decay)
