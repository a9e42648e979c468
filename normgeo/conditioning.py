"""Conditioning of least squares, and what standardizing the features does to it.

For the loss f(w) = ‖Xw − y‖²/(2m) the Hessian is H = XᵀX/m, its condition number is
κ = λ_max/λ_min, and gradient descent w ← w − η∇f is stable only for η < 2/L with
L = λ_max. Uncorrelated features with scales 1 and 10⁴ give κ = 10⁸ (a correlation raises it:
5.3·10⁸ at ρ = 0.9); standardized, κ is that of the features' correlation matrix,
(1 + |ρ|)/(1 − |ρ|) for two features with correlation ρ: standardizing removes scale, not
correlation.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from normgeo.errors import InvalidParameterError, ShapeError, ZeroVarianceError
from normgeo.validation import as_dimension, as_finite_array, as_positive_number

__all__ = [
    "least_squares_hessian",
    "condition_number",
    "largest_stable_step",
    "standardize_features",
    "scaled_features",
    "gradient_descent_path",
    "steps_to_tolerance",
    "GradientDescentRun",
    "gradient_descent_run",
    "quadratic_contours",
    "quadratic_value",
    "contour_levels",
    "ConditioningDemo",
    "conditioning_demo",
]


def _matrix(x, name: str) -> np.ndarray:
    array = as_finite_array(x, name, min_ndim=2)
    if array.ndim != 2:
        raise ShapeError(f"{name} must be a 2-D matrix, got shape {array.shape}")
    return array


def _symmetric_positive_definite(h) -> np.ndarray:
    matrix = _matrix(h, "H")
    if matrix.shape[0] != matrix.shape[1]:
        raise ShapeError(f"H must be square, got shape {matrix.shape}")
    if not np.allclose(matrix, matrix.T, rtol=0, atol=1e-10 * np.max(np.abs(matrix))):  # up to rounding
        raise ShapeError("H must be symmetric")
    return matrix


def least_squares_hessian(x) -> np.ndarray:
    """H = XᵀX/m for the loss ‖Xw − y‖²/(2m), X of shape (m samples, d features).

    >>> least_squares_hessian([[1.0, 0.0], [0.0, 2.0]])
    array([[0.5, 0. ],
           [0. , 2. ]])
    """
    data = _matrix(x, "X")
    return data.T @ data / data.shape[0]


def condition_number(h) -> float:
    """κ = λ_max/λ_min of a symmetric positive definite H; a singular H raises.

    >>> condition_number([[1.0, 0.0], [0.0, 1e8]])
    100000000.0
    """
    eigenvalues = np.linalg.eigvalsh(_symmetric_positive_definite(h))
    if eigenvalues[0] <= 0:
        raise InvalidParameterError(f"H is not positive definite (smallest eigenvalue {eigenvalues[0]:.3g}): κ is infinite")
    return float(eigenvalues[-1] / eigenvalues[0])


def largest_stable_step(h) -> float:
    """2/L with L = λ_max(H): gradient descent on the quadratic diverges for any larger step.

    >>> largest_stable_step([[1.0, 0.0], [0.0, 4.0]])
    0.5
    """
    return float(2.0 / np.linalg.eigvalsh(_symmetric_positive_definite(h))[-1])


def standardize_features(x) -> np.ndarray:
    """Each column shifted to mean 0 and scaled to (biased) standard deviation 1.

    >>> standardize_features([[1.0, 10.0], [3.0, 30.0]])
    array([[-1., -1.],
           [ 1.,  1.]])
    """
    data = _matrix(x, "X")
    if data.shape[0] < 2:
        raise ShapeError("standardizing needs at least two samples")
    centred = data - data.mean(axis=0)
    spread = np.sqrt(np.mean(centred**2, axis=0))
    if (spread == 0).any():
        column = int(np.argmax(spread == 0))
        raise ZeroVarianceError(f"feature {column} is constant: it cannot be standardized")
    return centred / spread


def scaled_features(n_samples: int = 256, scales=(1.0, 1e4), correlation: float = 0.9, seed: int = 0) -> np.ndarray:
    """Data whose sample covariance is exactly S·R·S: standard deviations ``scales``, and
    correlation ``correlation`` between every pair of features (mean 0).

    Random directions (seeded) are whitened, so the statistics, and with them every κ
    computed from this data, do not depend on sampling noise.
    """
    n_samples = as_dimension(n_samples, "n_samples", minimum=2)
    scales = as_finite_array(scales, "scales")
    if scales.ndim != 1 or (scales <= 0).any():
        raise InvalidParameterError("scales must be a 1-D list of positive numbers")
    d = scales.size
    if n_samples <= d:
        raise InvalidParameterError(f"n_samples must exceed the number of features ({d})")
    rho = float(correlation)
    if not (-1.0 / max(d - 1, 1) < rho < 1.0):
        raise InvalidParameterError(f"correlation {rho} does not give a positive definite correlation matrix")
    raw = np.random.default_rng(seed).standard_normal((n_samples, d))
    raw -= raw.mean(axis=0)
    orthonormal, _ = np.linalg.qr(raw)
    white = orthonormal * np.sqrt(n_samples)  # exactly mean 0, covariance I
    white -= white.mean(axis=0)
    correlation_matrix = np.full((d, d), rho) + (1 - rho) * np.eye(d)
    return (white @ np.linalg.cholesky(correlation_matrix).T) * scales


def gradient_descent_path(h, start, step: float, n_steps: int, minimum=None) -> np.ndarray:
    """Iterates of w ← w − η·H(w − w*) on f(w) = ½(w − w*)ᵀH(w − w*); shape (n_steps + 1, d).

    >>> gradient_descent_path([[1.0, 0.0], [0.0, 1.0]], [2.0, 0.0], step=0.5, n_steps=2)
    array([[2. , 0. ],
           [1. , 0. ],
           [0.5, 0. ]])
    """
    matrix = _symmetric_positive_definite(h)
    w = as_finite_array(start, "start")
    if w.shape != (matrix.shape[0],):
        raise ShapeError(f"start must have shape ({matrix.shape[0]},), got {w.shape}")
    target = np.zeros_like(w) if minimum is None else as_finite_array(minimum, "minimum")
    step = as_positive_number(step, "step")
    with np.errstate(over="ignore"):
        if not np.isfinite(w - target).all():  # else the first step would be said to diverge
            raise InvalidParameterError("start and minimum are too far apart: their difference overflows float64")
    path = [w]
    with np.errstate(over="ignore", invalid="ignore"):  # a diverging run is said below, in one line
        for _ in range(as_dimension(n_steps, "n_steps", minimum=0)):
            w = w - step * matrix @ (w - target)
            if not np.isfinite(w).all():
                raise InvalidParameterError(f"gradient descent diverged to infinity (step {step:.3g} is far above 2/L)")
            path.append(w)
    return np.array(path)


def steps_to_tolerance(h, start, step: float, tol: float = 1e-6, minimum=None) -> float:
    """Exact number of steps until the error is ``tol`` of where it started (relative, not absolute):
    ‖w − w*‖₂ ≤ tol·‖w₀ − w*‖₂, each eigen-direction holding its share;
    ``inf`` if a direction does not contract (step ≥ 2/L).

    In the eigenbasis each error component shrinks by |1 − ηλᵢ| per step, so the count is
    max over components of ⌈log(tol·‖e₀‖/|e₀ᵢ|)/log|1 − ηλᵢ|⌉, found without iterating
    (κ ≈ 10⁸ would take ~10⁹ iterations).
    """
    matrix = _symmetric_positive_definite(h)
    w0 = as_finite_array(start, "start")
    target = np.zeros_like(w0) if minimum is None else as_finite_array(minimum, "minimum")
    step = as_positive_number(step, "step")
    tol = as_positive_number(tol, "tol")
    eigenvalues, eigenvectors = np.linalg.eigh(matrix)
    error = eigenvectors.T @ (w0 - target)
    initial = np.linalg.norm(error)
    if initial == 0:
        return 0.0
    # Each component may use an equal share of the tolerance: ‖e‖ ≤ √d·max|eᵢ| ≤ tol·‖e₀‖.
    share = tol * initial / np.sqrt(error.size)
    steps = 0.0
    for component, eigenvalue in zip(np.abs(error), eigenvalues):
        if component <= share:
            continue
        factor = abs(1.0 - step * eigenvalue)
        if factor >= 1.0:
            return float("inf")
        if factor == 0.0:
            steps = max(steps, 1.0)
            continue
        steps = max(steps, float(np.ceil(np.log(share / component) / np.log(factor))))
    return steps


@dataclass(frozen=True)
class GradientDescentRun:
    """A gradient descent run on a least-squares Hessian: κ, 2/L, the step used, the path."""

    hessian: np.ndarray
    kappa: float
    step_limit: float
    step: float
    path: np.ndarray
    steps_to_tolerance: float

    @property
    def overshoots(self) -> bool:
        """η > 1/L: along the steepest direction the error 1 − ηL changes sign every step, so the
        path zig-zags across the valley (for η < 1/L it approaches from one side)."""
        return self.step * float(np.linalg.eigvalsh(self.hessian)[-1]) > 1.0

    @property
    def slow_along_valley(self) -> bool:
        """The error along the flattest direction (the valley) shrinks more slowly per step,
        |1 − ηλ_min| > |1 − ηλ_max|, so the way along the valley sets the step count; otherwise (κ
        near 1, or a step near 2/L) the fixed step's overshoot or undershoot in the steepest
        direction does."""
        low, high = np.linalg.eigvalsh(self.hessian)[[0, -1]]
        return bool(abs(1.0 - self.step * low) > abs(1.0 - self.step * high))

    @property
    def path_shape(self) -> str:
        """How the path looks and what sets its pace: ``"zigzag-valley"``, ``"zigzag-step"``
        (overshoots, η > 1/L), ``"one-side-valley"``, ``"one-side-step"`` (η ≤ 1/L); ``-valley`` when
        :attr:`slow_along_valley`."""
        return f"{'zigzag' if self.overshoots else 'one-side'}-{'valley' if self.slow_along_valley else 'step'}"


def gradient_descent_run(h, start, step_fraction: float = 0.9, n_steps: int = 40, tol: float = 1e-6) -> GradientDescentRun:
    """Gradient descent at ``step_fraction``·(2/L) from ``start``: the path and the exact step count."""
    matrix = _symmetric_positive_definite(h)
    fraction = as_positive_number(step_fraction, "step_fraction")
    if fraction >= 1:
        raise InvalidParameterError("step_fraction must be below 1: at 2/L or above gradient descent does not converge")
    limit = largest_stable_step(matrix)
    step = fraction * limit
    return GradientDescentRun(
        hessian=matrix,
        kappa=condition_number(matrix),
        step_limit=limit,
        step=step,
        path=gradient_descent_path(matrix, start, step, n_steps),
        steps_to_tolerance=steps_to_tolerance(matrix, start, step, tol),
    )


def quadratic_value(h, w, minimum=None) -> np.ndarray:
    """f(w) = ½(w − w*)ᵀH(w − w*) for one point or a batch of points (last axis)."""
    matrix = _symmetric_positive_definite(h)
    points = as_finite_array(w, "w")
    offset = points if minimum is None else points - as_finite_array(minimum, "minimum")
    return 0.5 * np.einsum("...i,ij,...j->...", offset, matrix, offset)


def contour_levels(h, start, count: int = 5, ratio: float = 0.3) -> np.ndarray:
    """``count`` levels f(start)·ratioᵏ: the first contour passes through the starting point."""
    top = float(quadratic_value(h, start))
    return top * as_positive_number(ratio, "ratio") ** np.arange(as_dimension(count, "count"))


def quadratic_contours(h, levels, samples: int = 120, minimum=None) -> list[np.ndarray]:
    """Level sets {w : ½(w − w*)ᵀH(w − w*) = c} of a 2-D quadratic, one (samples, 2) array per c.

    In the eigenbasis (λ₁, λ₂; v₁, v₂) each is the ellipse with semi-axes √(2c/λᵢ) along vᵢ.
    """
    matrix = _symmetric_positive_definite(h)
    if matrix.shape != (2, 2):
        raise ShapeError("contours are drawn for 2-D quadratics only")
    eigenvalues, eigenvectors = np.linalg.eigh(matrix)
    if eigenvalues[0] <= 0:
        raise InvalidParameterError("H is not positive definite: its level sets are not ellipses")
    centre = np.zeros(2) if minimum is None else as_finite_array(minimum, "minimum")
    t = np.linspace(0, 2 * np.pi, as_dimension(samples, "samples", minimum=3), endpoint=False)[:, None]
    curves = []
    for level in np.atleast_1d(as_finite_array(levels, "levels")):
        semi_axes = np.sqrt(2 * as_positive_number(level, "level") / eigenvalues)
        curves.append(centre + np.cos(t) * semi_axes[0] * eigenvectors[:, 0] + np.sin(t) * semi_axes[1] * eigenvectors[:, 1])
    return curves


@dataclass(frozen=True)
class ConditioningDemo:
    """B4/B5 in numbers: κ of the real least-squares problem before and after standardizing,
    exact step counts for both, and drawable gradient-descent runs.

    κ ≈ 10⁸ cannot be drawn (its ellipses would be 10⁴ times longer than wide), so the
    "before" picture uses ``drawn_kappa``; every number shown for the real problem is computed
    from the real Hessian.
    """

    kappa_raw: float
    kappa_standardized: float
    kappa_raw_uncorrelated: float
    kappa_standardized_uncorrelated: float
    tolerance: float
    step_limit_raw: float
    steps_raw: float
    steps_standardized: float
    drawn_before: GradientDescentRun
    drawn_after: GradientDescentRun
    step_fraction: float


def conditioning_demo(scales=(1.0, 1e4), correlation: float = 0.9, drawn_kappa: float = 60.0,
                      step_fraction: float = 0.9, n_steps: int = 30, tol: float = 1e-6, seed: int = 0) -> ConditioningDemo:
    """Compute every number of the conditioning scene; the same features without correlation give
    the κ that scale alone causes (before standardizing) and 1 (after)."""
    raw = scaled_features(scales=scales, correlation=correlation, seed=seed)
    uncorrelated = scaled_features(scales=scales, correlation=0.0, seed=seed)
    h_raw = least_squares_hessian(raw)
    h_standardized = least_squares_hessian(standardize_features(raw))
    drawn = np.diag([1.0, as_positive_number(drawn_kappa, "drawn_kappa")])
    run_raw = gradient_descent_run(h_raw, [1.0, 1e-4], step_fraction, n_steps=1, tol=tol)
    before = gradient_descent_run(drawn, [-2.6, 0.5], step_fraction, n_steps, tol)
    after = gradient_descent_run(h_standardized, [-2.6, 0.5], step_fraction, n_steps, tol)
    return ConditioningDemo(
        kappa_raw=run_raw.kappa,
        kappa_standardized=after.kappa,
        kappa_raw_uncorrelated=condition_number(least_squares_hessian(uncorrelated)),
        kappa_standardized_uncorrelated=condition_number(least_squares_hessian(standardize_features(uncorrelated))),
        tolerance=float(tol),
        step_limit_raw=run_raw.step_limit,
        steps_raw=run_raw.steps_to_tolerance,
        steps_standardized=after.steps_to_tolerance,
        drawn_before=before,
        drawn_after=after,
        step_fraction=step_fraction,
    )
