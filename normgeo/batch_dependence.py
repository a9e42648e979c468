"""BatchNorm couples the examples of a batch; LayerNorm does not.

* the same example inside two different batches gets one LayerNorm output but, in general,
  two BatchNorm outputs. Per feature its BatchNorm score z = (x − μ)/σ (ε = 0) obeys
  |z| ≤ √(B − 1) (Samuelson's inequality), and moving one companion k changes it at the rate
  ∂z/∂a_k = −(1 + z·z_k)/(Bσ). With B = 2 the companion's score is −z and z = ±1, so the rate
  is 0: the output is sign(x − a) per feature, and two batches agree whenever the companions
  lie on the same side of x in every feature (with ε > 0 it is ±1/√(1 + 4ε/(x − a)²), so they
  nearly agree). With B ≥ 3 the rate vanishes for every
  companion only when |z| = √(B − 1), i.e. all companions are equal;
* the batch mean is an estimate whose spread grows as the batch shrinks (σ/√B);
* at inference BatchNorm switches to running statistics, so training-mode and eval-mode
  outputs differ, most for small batches.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from normgeo.normalize import batch_norm, layer_norm
from normgeo.validation import as_dimension, as_positive_number

__all__ = [
    "TwoBatches",
    "same_example_in_two_batches",
    "BatchMeanSpread",
    "batch_mean_spread",
    "TrainEvalGap",
    "train_eval_gap",
    "running_statistics",
]


@dataclass(frozen=True)
class TwoBatches:
    """One example (row 0 of both batches), its BatchNorm and LayerNorm outputs in each batch."""

    example: np.ndarray
    batch_a: np.ndarray
    batch_b: np.ndarray
    batchnorm_a: np.ndarray
    batchnorm_b: np.ndarray
    layernorm_a: np.ndarray
    layernorm_b: np.ndarray

    @property
    def largest_batchnorm_difference(self) -> float:
        """max_i |BN_A(x)ᵢ − BN_B(x)ᵢ|: how far the example's two BatchNorm outputs lie apart."""
        return float(np.abs(self.batchnorm_a - self.batchnorm_b).max())

    def batchnorm_outcome(self, tolerance: float = 5e-3) -> str:
        """Whether the example's two BatchNorm outputs differ by more than ``tolerance`` (default:
        half a unit of the second decimal, so that "differ" is visible at two decimals):

        * ``"differ"``: they do;
        * ``"signs"``: they agree and each batch has two examples, where at ε = 0 each output is
          sign(xᵢ − aᵢ) (a the companion): the companions lie on the same side of x in every feature;
        * ``"agree"``: they agree with larger batches (companions that happen to give x the same scores).
        """
        if self.largest_batchnorm_difference > tolerance:
            return "differ"
        return "signs" if self.batch_a.shape[0] == 2 else "agree"


def same_example_in_two_batches(n_features: int = 4, batch_size: int = 4, seed: int = 0, example=None,
                                eps: float = 1e-5) -> TwoBatches:
    """Put one example into two batches with different companions and normalize both ways (with ``eps``)."""
    rng = np.random.default_rng(seed)
    n_features = as_dimension(n_features, "n_features", minimum=2)
    batch_size = as_dimension(batch_size, "batch_size", minimum=2)
    x = rng.normal(size=n_features) if example is None else np.asarray(example, dtype=float)
    companions_a = rng.normal(loc=0.0, scale=1.0, size=(batch_size - 1, n_features))
    companions_b = rng.normal(loc=1.5, scale=2.0, size=(batch_size - 1, n_features))
    batch_a, batch_b = np.vstack([x, companions_a]), np.vstack([x, companions_b])
    return TwoBatches(
        example=x,
        batch_a=batch_a,
        batch_b=batch_b,
        batchnorm_a=batch_norm(batch_a, eps=eps)[0],
        batchnorm_b=batch_norm(batch_b, eps=eps)[0],
        layernorm_a=layer_norm(batch_a, eps=eps)[0],
        layernorm_b=layer_norm(batch_b, eps=eps)[0],
    )


@dataclass(frozen=True)
class BatchMeanSpread:
    """Standard deviation of the batch mean over many batches, measured and σ/√B."""

    batch_sizes: np.ndarray
    measured: np.ndarray
    predicted: np.ndarray

    def follows_law(self, rtol: float = 0.1) -> bool:
        """Every measured spread lies within ``rtol`` (relative) of σ/√B."""
        return bool(np.all(np.abs(self.measured / self.predicted - 1.0) <= rtol))


def batch_mean_spread(batch_sizes=(2, 4, 8, 16, 32, 64, 128), trials: int = 2000, sigma: float = 1.0,
                      seed: int = 0) -> BatchMeanSpread:
    """Draw ``trials`` batches of each size from N(0, σ²) and measure how much their means scatter
    (at least two trials: the spread of one mean is 0, whatever σ)."""
    rng = np.random.default_rng(seed)
    sizes = np.array([as_dimension(int(b), "batch size") for b in batch_sizes])
    trials = as_dimension(trials, "trials", minimum=2)
    sigma = as_positive_number(sigma, "sigma")
    measured = np.array([rng.normal(scale=sigma, size=(trials, b)).mean(axis=1).std() for b in sizes])
    return BatchMeanSpread(sizes, measured, sigma / np.sqrt(sizes))


def running_statistics(batches, momentum: float = 0.1):
    """PyTorch's running mean and (unbiased) variance after a sequence of training batches."""
    mean, var = 0.0, 1.0
    for batch in batches:
        mean = (1 - momentum) * mean + momentum * batch.mean(axis=0)
        var = (1 - momentum) * var + momentum * batch.var(axis=0, ddof=1)
    return mean, var


@dataclass(frozen=True)
class TrainEvalGap:
    """Mean |train-mode − eval-mode| BatchNorm output of a fresh batch, per batch size."""

    batch_sizes: np.ndarray
    gaps: np.ndarray

    @property
    def largest_at_smallest_batch(self) -> bool:
        """The gap is largest at the smallest batch size measured."""
        return bool(int(np.argmax(self.gaps)) == 0)


def train_eval_gap(batch_sizes=(2, 4, 8, 16, 32, 64, 128), n_features: int = 8, warmup_batches: int = 200,
                   test_batches: int = 50, eps: float = 1e-5, seed: int = 0) -> TrainEvalGap:
    """Train running statistics on ``warmup_batches``, then compare both modes on new batches."""
    rng = np.random.default_rng(seed)
    loc = rng.normal(scale=2.0, size=n_features)
    scale = np.exp(rng.normal(scale=0.5, size=n_features))
    gaps = []
    for b in batch_sizes:
        b = as_dimension(int(b), "batch size", minimum=2)
        draw = lambda: loc + scale * rng.normal(size=(b, n_features))  # noqa: E731
        mean, var = running_statistics([draw() for _ in range(warmup_batches)])
        differences = []
        for _ in range(test_batches):
            batch = draw()
            train_mode = batch_norm(batch, eps=eps)
            eval_mode = (batch - mean) / np.sqrt(var + eps)
            differences.append(np.mean(np.abs(train_mode - eval_mode)))
        gaps.append(float(np.mean(differences)))
    return TrainEvalGap(np.array(batch_sizes), np.array(gaps))
