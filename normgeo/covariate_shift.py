"""Santurkar et al. (2018) in miniature: does BatchNorm work by reducing covariate shift?

A small ReLU MLP is trained on synthetic classification data three ways: without
normalization, with BatchNorm, and with BatchNorm followed by noise that changes at every
step (a random per-unit scale and shift), which re-creates a moving input distribution
for the next layer. The noisy network's layer inputs move far more than plain BatchNorm's;
whether it still trains about as fast, and whether its inputs move even more than the
unnormalized network's (only then can the toy separate "less shift" from other explanations),
are the study's predicates. The loss-landscape probe measures how much the loss varies along the
gradient direction. A run whose loss turns non-finite, or whose layer inputs grow past
DIVERGED_SCALE (stable runs stay below 10²), diverged: ``train_mlp`` refuses it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from normgeo.backprop import normalize_backward, normalize_forward
from normgeo.errors import InvalidParameterError
from normgeo.validation import as_dimension, as_positive_number

__all__ = ["VARIANTS", "TrainingRun", "train_mlp", "classification_data", "covariate_shift_study", "CovariateShiftStudy"]

VARIANTS = ("none", "batchnorm", "noisy-batchnorm")
DIVERGED_SCALE = 1e4
VARIANT_NAMES = {"none": "without normalization", "batchnorm": "with BatchNorm", "noisy-batchnorm": "with noisy BatchNorm"}


def classification_data(n_samples: int = 1024, n_features: int = 20, n_classes: int = 4, seed: int = 0):
    """Gaussian clusters (one per class) in ``n_features`` dimensions with features of unequal scale."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(scale=1.2, size=(n_classes, n_features))
    labels = rng.integers(n_classes, size=n_samples)
    scales = np.exp(rng.uniform(-2.0, 2.5, size=n_features))  # features of unequal scale
    features = (centres[labels] + rng.normal(size=(n_samples, n_features))) * scales
    return features, labels


def _init_weights(sizes, rng):
    return [rng.normal(scale=np.sqrt(1.0 / fan_in), size=(fan_in, fan_out)) for fan_in, fan_out in zip(sizes, sizes[1:])]


def _forward(weights, x, variant, rng, noise):
    """Logits and the caches for backprop; also the input of the last hidden layer."""
    caches, h = [], x
    hidden_input = None
    for index, w in enumerate(weights):
        z = h @ w
        if index == len(weights) - 1:
            caches.append(("out", h))
            return z, caches, hidden_input
        cache = {"h": h}
        if variant != "none":
            z, cache["bn"] = normalize_forward(z, axes=0, eps=1e-5)
            if variant == "noisy-batchnorm":
                scale = rng.uniform(1 - noise, 1 + noise, size=z.shape[1])
                shift = rng.normal(scale=noise, size=z.shape[1])
                cache["noise_scale"] = scale
                z = z * scale + shift
        cache["z"] = z
        h = np.maximum(z, 0.0)
        if index == len(weights) - 2:
            hidden_input = h  # what the output layer receives: its input distribution
        caches.append(("hidden", cache))
    raise AssertionError("unreachable")


def _loss_and_grads(weights, x, labels, variant, rng, noise):
    logits, caches, hidden_input = _forward(weights, x, variant, rng, noise)
    shifted = logits - logits.max(axis=1, keepdims=True)
    probabilities = np.exp(shifted)
    probabilities /= probabilities.sum(axis=1, keepdims=True)
    n = x.shape[0]
    loss = float(-np.mean(np.log(probabilities[np.arange(n), labels] + 1e-12)))
    grad = probabilities
    grad[np.arange(n), labels] -= 1.0
    grad /= n
    grads = [None] * len(weights)
    _, h_last = caches[-1]
    grads[-1] = h_last.T @ grad
    upstream = grad @ weights[-1].T
    for index in range(len(weights) - 2, -1, -1):
        cache = caches[index][1]
        upstream = upstream * (cache["z"] > 0)
        if "noise_scale" in cache:
            upstream = upstream * cache["noise_scale"]
        if "bn" in cache:
            upstream = normalize_backward(upstream, cache["bn"])
        grads[index] = cache["h"].T @ upstream
        upstream = upstream @ weights[index].T
    return loss, grads, hidden_input


@dataclass(frozen=True)
class TrainingRun:
    """One variant's training: loss per step, how far the last hidden layer's input
    distribution moves per step, and the loss-landscape variation along the gradient."""

    variant: str
    losses: np.ndarray
    distribution_shift: np.ndarray
    landscape_variation: np.ndarray

    def smoothed_losses(self, window: int = 10) -> np.ndarray:
        """Trailing mean of the last ``window`` losses at every step (fewer at the start)."""
        window = as_dimension(window, "window")
        totals = np.cumsum(np.insert(self.losses, 0, 0.0))
        steps = np.arange(1, self.losses.size + 1)
        starts = np.maximum(steps - window, 0)
        return (totals[steps] - totals[starts]) / (steps - starts)


def _evaluate(weights, x, labels, variant):
    """Loss with the same variant but no noise, on fixed data (for the landscape probe)."""
    logits, _, _ = _forward(weights, x, "batchnorm" if variant != "none" else "none", None, 0.0)
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_probabilities = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    return float(-np.mean(log_probabilities[np.arange(x.shape[0]), labels]))


def train_mlp(variant: str, steps: int = 200, learning_rate: float = 1.0, batch_size: int = 64,
              hidden: int = 32, depth: int = 5, noise: float = 0.3, probe_every: int = 20,
              probe_steps=(0.25, 0.5, 1.0, 2.0, 4.0), seed: int = 0) -> TrainingRun:
    """SGD on the MLP; the same data, initial weights and batches for every variant."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; choose one of {', '.join(VARIANTS)}")
    steps = as_dimension(steps, "steps")
    lr = as_positive_number(learning_rate, "learning_rate")
    features, labels = classification_data(seed=seed)
    rng = np.random.default_rng(seed + 1)
    weights = _init_weights([features.shape[1]] + [hidden] * depth + [int(labels.max()) + 1], rng)
    batch_rng, noise_rng = np.random.default_rng(seed + 2), np.random.default_rng(seed + 3)
    losses, shifts, variations = [], [], []
    previous = None
    for step in range(steps):
        batch = batch_rng.choice(features.shape[0], size=batch_size, replace=False)
        with np.errstate(over="ignore", invalid="ignore"):
            loss, grads, hidden_input = _loss_and_grads(weights, features[batch], labels[batch], variant, noise_rng, noise)
            moments = np.stack([hidden_input.mean(axis=0), hidden_input.std(axis=0)])
        if (not np.isfinite(loss) or not all(np.isfinite(g).all() for g in grads) or not np.isfinite(moments).all()
                or np.abs(moments).max() > DIVERGED_SCALE):
            raise InvalidParameterError(
                f"training {VARIANT_NAMES[variant]} diverged at step {step} (learning rate {lr:g} is too large for "
                f"it with seed {seed})"
            )
        losses.append(loss)
        if previous is not None:
            shifts.append(float(np.mean(np.abs(moments - previous))))
        previous = moments
        if step % probe_every == 0:
            with np.errstate(over="ignore", invalid="ignore"):
                probe = [_evaluate([w - lr * s * g for w, g in zip(weights, grads)], features[batch], labels[batch], variant)
                         for s in probe_steps]
            variations.append(max(probe) - min(probe))
        weights = [w - lr * g for w, g in zip(weights, grads)]
    return TrainingRun(variant, np.array(losses), np.array(shifts), np.array(variations))


@dataclass(frozen=True)
class CovariateShiftStudy:
    """The three runs, by variant."""

    runs: dict

    def mean_loss(self, variant: str) -> float:
        """Mean training loss over the whole run: how fast a variant trains (area under its curve)."""
        return float(np.mean(self.runs[variant].losses))

    def final_loss(self, variant: str, window: int = 20) -> float:
        return float(np.mean(self.runs[variant].losses[-window:]))

    def mean_shift(self, variant: str) -> float:
        return float(np.mean(self.runs[variant].distribution_shift))

    def mean_landscape_variation(self, variant: str) -> float:
        return float(np.mean(self.runs[variant].landscape_variation))

    @property
    def noisy_closer_to_batchnorm(self) -> bool:
        """The noisy network's mean loss lies nearer BatchNorm's than the unnormalized network's."""
        noisy = self.mean_loss("noisy-batchnorm")
        return bool(abs(noisy - self.mean_loss("batchnorm")) < abs(noisy - self.mean_loss("none")))

    @property
    def shift_separation(self) -> str:
        """Whether this toy can tell "less shift" from BatchNorm's other effects:

        * ``"cannot"``: the noisy network's inputs move no more per step than the unnormalized
          network's, so "less shift trains faster" predicts the same order as "BatchNorm helps";
        * ``"against-shift"``: they move more, yet the noisy network trains faster (lower mean loss);
        * ``"with-shift"``: they move more and it trains no faster.
        """
        if self.mean_shift("noisy-batchnorm") <= self.mean_shift("none"):
            return "cannot"
        return "against-shift" if self.mean_loss("noisy-batchnorm") < self.mean_loss("none") else "with-shift"

    @property
    def batchnorm_cuts_shift(self) -> bool:
        """With BatchNorm the next layer's inputs move less per step than without normalization."""
        return bool(self.mean_shift("batchnorm") < self.mean_shift("none"))

    @property
    def shift_cut(self) -> float:
        """How many times less the next layer's inputs move per step with BatchNorm than without
        normalization (below 1 when they move more)."""
        return self.mean_shift("none") / self.mean_shift("batchnorm")

    @property
    def batchnorm_smooths(self) -> bool:
        """With BatchNorm the loss varies less along the gradient than without normalization."""
        return bool(self.mean_landscape_variation("batchnorm") < self.mean_landscape_variation("none"))


def covariate_shift_study(steps: int = 200, learning_rate: float = 1.0, seed: int = 0) -> CovariateShiftStudy:
    """All three variants with identical data, initial weights and batches."""
    return CovariateShiftStudy({v: train_mlp(v, steps=steps, learning_rate=learning_rate, seed=seed) for v in VARIANTS})
