"""What the backward pass through LayerNorm keeps of a gradient, and what follows for the weights (C3).

At ε = 0 and before γ and β, LayerNorm's Jacobian is J = (1/σ)(I − 11ᵀ/n − x̂x̂ᵀ/n) with
x̂ = LN(x). Because x̂ ⟂ 1 and ‖1‖² = ‖x̂‖² = n, the bracket is the orthogonal projector onto
the directions orthogonal to both 1 and x̂: the tangent space, at x̂, of the set plane ∩ sphere
where the outputs live. An incoming gradient g therefore splits into three orthogonal parts,

    g = (⟨g, 1⟩/n)·1 + (⟨g, x̂⟩/n)·x̂ + t,

and the backward pass keeps only Jᵀg = t/σ (J is symmetric). The input is x = μ·1 + σ·x̂, so
⟨Jᵀg, x⟩ = 0 as well: when the norm's whole input is x = W·h (nothing, such as a residual, added
before it; for BatchNorm each row of W on its own), ⟨∂L/∂W, W⟩ = ⟨Jᵀg, W·h⟩ = 0, which is why
plain SGD on such weights can only lengthen them (``norm_growth_summary``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from normgeo.errors import ShapeError
from normgeo.jacobians import layer_norm_jacobian
from normgeo.normalize import layer_norm
from normgeo.scale_invariance import NormGrowthRun
from normgeo.validation import as_finite_array

__all__ = ["GradientSplit", "layer_norm_gradient_split", "NormGrowthSummary", "norm_growth_summary", "round_up"]


def round_up(value: float, significant: int = 3) -> float:
    """The least number of ``significant`` significant digits at or above ``value`` (≥ 0): a bound
    shown rounded must not sit below the true value, as rounding to nearest can.

    >>> round_up(1.2345e-16), round_up(1.2e-16), round_up(0.0)
    (1.24e-16, 1.2e-16, 0.0)
    """
    value = float(value)
    if not np.isfinite(value) or value < 0:
        raise ValueError(f"round_up needs a finite value ≥ 0, got {value}")
    if value == 0:
        return 0.0
    exponent = int(np.floor(np.log10(value))) - (significant - 1)
    scaled = value / 10.0**exponent
    bound = float(np.ceil(scaled - 1e-12 * scaled)) * 10.0**exponent  # 1.2e-16 / 1e-17 = 12.000000000000002
    bound = float(f"{bound:.{significant - 1}e}")  # the decimal the digits name (no 1.24000…01)
    while bound < value:  # the tolerance above never lets the bound fall below the value
        bound = float(f"{bound + 10.0**exponent:.{significant - 1}e}")
    return bound


@dataclass(frozen=True)
class GradientSplit:
    """An incoming gradient g at the output x̂ = LN(x) (ε = 0), split into its part along 1, its
    part along x̂ and its tangent part t (the three sum to g and are orthogonal), and the gradient
    the backward pass hands to x, Jᵀg = t/σ, with its inner products with 1, x̂ and x (all 0 up
    to rounding)."""

    output: np.ndarray
    sigma: float
    gradient: np.ndarray
    along_ones: np.ndarray
    along_output: np.ndarray
    tangent: np.ndarray
    input_gradient: np.ndarray
    ones_inner: float
    output_inner: float
    input_inner: float


def layer_norm_gradient_split(x, gradient) -> GradientSplit:
    """Split ``gradient`` (∂L/∂x̂, shape (n,)) at x̂ = LN(x) and apply LayerNorm's backward pass.

    ``input_gradient`` is computed from ``layer_norm_jacobian(x, eps=0.0)``, independently of
    the split, so ``tangent / sigma`` equals it only because the law holds. A constant x
    raises ``ZeroVarianceError``.

    >>> split = layer_norm_gradient_split([1.0, 2.0, 6.0], [1.0, 1.0, 1.0])  # g along 1: all dropped
    >>> bool(np.abs(split.input_gradient).max() < 1e-15), split.along_ones.tolist()
    (True, [1.0, 1.0, 1.0])
    """
    x = as_finite_array(x, "x")
    g = as_finite_array(gradient, "gradient")
    if x.ndim != 1 or g.shape != x.shape:
        raise ShapeError(f"x and gradient must be vectors of the same length, got shapes {x.shape} and {g.shape}")
    n = x.size
    output = layer_norm(x, eps=0.0)
    sigma = float(np.std(x))
    ones = np.ones(n)
    along_ones = (g @ ones / n) * ones
    along_output = (g @ output / n) * output
    tangent = g - along_ones - along_output
    input_gradient = layer_norm_jacobian(x, eps=0.0).T @ g
    return GradientSplit(output, sigma, g, along_ones, along_output, tangent, input_gradient,
                         float(input_gradient @ ones), float(input_gradient @ output), float(input_gradient @ x))


@dataclass(frozen=True)
class NormGrowthSummary:
    """How exactly a ``NormGrowthRun`` obeys ⟨∇_t, W_t⟩ = 0 and ‖W_{t+1}‖² = (1 − ηλ)²‖W_t‖² + η²‖∇_t‖².

    ``largest_cosine`` is max_t |⟨∇_t, W_t⟩|/(‖∇_t‖‖W_t‖); ``largest_growth_error`` is
    max_t |‖W_{t+1}‖² − predicted|/‖W_{t+1}‖²; ``effective_steps`` is η/‖W_t‖² per step
    (steps + 1 values): the step in angle, which shrinks as ‖W‖ grows.
    """

    largest_cosine: float
    largest_growth_error: float
    effective_steps: np.ndarray


def norm_growth_summary(run: NormGrowthRun) -> NormGrowthSummary:
    """The orthogonality and the growth law checked on every step of ``run``.

    >>> from normgeo.scale_invariance import norm_growth_run
    >>> summary = norm_growth_summary(norm_growth_run(steps=20))
    >>> summary.largest_cosine < 1e-12, summary.largest_growth_error < 1e-12
    (True, True)
    """
    norms = run.weight_norms
    cosines = np.abs(run.inner_products) / (run.gradient_norms * norms[:-1])
    errors = np.abs(norms[1:] ** 2 - run.predicted_squared_norms) / norms[1:] ** 2
    return NormGrowthSummary(float(cosines.max()), float(errors.max()), run.learning_rate / norms**2)
