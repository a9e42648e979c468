"""Tokens as particles on a sphere moved by self-attention (E2). A toy, with Q = K = V = I.

Attention of token i over the directions θⱼ = xⱼ/‖xⱼ‖: Aᵢ = Σⱼ wᵢⱼ θⱼ with wᵢⱼ = softmax_j(β⟨θᵢ, θⱼ⟩)
(``kernel="softmax"``) or wᵢⱼ = e^{β⟨θᵢ,θⱼ⟩}/n (``kernel="mean"``, the unnormalized "SA" model).
P_θ v = v − ⟨θ, v⟩θ projects onto the tangent space at θ. The four schemes are the small-step
limits of four discrete updates with step dt (derived here, not copied from a paper's equations):

- post  x ← Norm(x + dt·A)                ẋᵢ = P_{xᵢ} Aᵢ on the unit sphere: the "USA" model of
                                            Geshkovski, Letrouit, Polyanskiy, Rigollet (2023)
- pre   x ← x + dt·A(Norm x)               ẋᵢ = Aᵢ: rᵢ = ‖xᵢ‖ changes by ⟨θᵢ, Aᵢ⟩ and the direction
                                            turns at speed ‖P_θ Aᵢ‖/rᵢ: a growing r slows it
- peri  x ← x + dt·Norm(A(Norm x))         ẋᵢ = Aᵢ/‖Aᵢ‖: a unit-length update (ṙ ≤ 1)
- ngpt  x ← Norm(x + α·dt·(Norm A − x))    ẋᵢ = α·P_{xᵢ}(Aᵢ/‖Aᵢ‖) on the unit sphere

Karagodin, Ge, Polyanskiy, Rigollet (NeurIPS 2025) read normalization as a regulation of these
speeds; the equations above are this toy's, stated here, and the time t stands for depth.
For ``kernel="mean"``, post is the gradient ascent on the sphere of E = (1/2βn)·Σᵢⱼ e^{β⟨xᵢ,xⱼ⟩}.

The integrator is classical RK4 in ℝ^d; for post and ngpt each step ends by putting the points
back on the sphere (the exact flow never leaves it, so the order stays 4). A cluster measure:
the diameter, the largest angle between two directions; the points fit in a cap of that radius.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from normgeo.errors import InvalidParameterError, ShapeError, ZeroVectorError
from normgeo.projection import unit_direction
from normgeo.validation import as_dimension, as_finite_array, as_nonnegative_number, as_positive_number

__all__ = [
    "ATTENTION_KERNELS",
    "ATTENTION_SCHEMES",
    "ClusteringTimes",
    "ParticleRun",
    "angular_speeds",
    "attention_targets",
    "cluster_count",
    "clustering_times",
    "particle_run",
    "particle_velocity",
    "sphere_points",
]

ATTENTION_SCHEMES = ("post", "pre", "peri", "ngpt")
ATTENTION_KERNELS = ("softmax", "mean")
ON_SPHERE = ("post", "ngpt")
MAX_MEAN_BETA = 700.0  # e^700 is finite in float64, e^710 is not


def sphere_points(n: int = 16, d: int = 3, seed: int = 0) -> np.ndarray:
    """n seeded points uniform on S^{d−1}: normalized N(0, I_d) draws, shape (n, d)."""
    n, d = as_dimension(n, "n"), as_dimension(d, "d", minimum=2)
    return unit_direction(np.random.default_rng(seed).normal(size=(n, d)))


def _points(x) -> np.ndarray:
    array = as_finite_array(x, "points", min_ndim=2)
    if array.ndim != 2 or array.shape[1] < 2:
        raise ShapeError(f"points must have shape (n, d ≥ 2), got {array.shape}")
    return array


def _targets(theta: np.ndarray, beta: float, kernel: str) -> np.ndarray:
    logits = beta * (theta @ theta.T)
    if kernel == "softmax":
        weights = np.exp(logits - logits.max(axis=1, keepdims=True))
        weights /= weights.sum(axis=1, keepdims=True)
    else:
        weights = np.exp(logits) / theta.shape[0]
    return weights @ theta


def _unit_rows(x: np.ndarray) -> np.ndarray:
    lengths = np.linalg.norm(x, axis=1, keepdims=True)
    if (lengths == 0).any():
        raise ZeroVectorError(f"particle {int(np.argmin(lengths))} is at the origin: it has no direction")
    return x / lengths


def _velocity(x: np.ndarray, beta: float, scheme: str, alpha: float, kernel: str) -> np.ndarray:
    theta = _unit_rows(x)
    target = _targets(theta, beta, kernel)
    if scheme in ("peri", "ngpt"):
        lengths = np.linalg.norm(target, axis=1, keepdims=True)
        if (lengths == 0).any():
            raise ZeroVectorError(f"the attention output of particle {int(np.argmin(lengths))} is 0: "
                                  "normalizing it has no direction")
        target = target / lengths
    if scheme in ON_SPHERE:
        target = target - np.sum(target * theta, axis=1, keepdims=True) * theta
    return alpha * target if scheme == "ngpt" else target


def _check(beta, scheme: str, alpha, kernel: str) -> tuple[float, float]:
    if scheme not in ATTENTION_SCHEMES:
        raise InvalidParameterError(f"unknown scheme {scheme!r}; choose one of {', '.join(ATTENTION_SCHEMES)}")
    if kernel not in ATTENTION_KERNELS:
        raise InvalidParameterError(f"unknown kernel {kernel!r}; choose softmax or mean")
    beta = as_nonnegative_number(beta, "beta")
    if kernel == "mean" and beta > MAX_MEAN_BETA:
        raise InvalidParameterError(f"beta must be ≤ {MAX_MEAN_BETA:g} with the mean kernel (e^β overflows), "
                                    f"got {beta}")
    return beta, as_positive_number(alpha, "alpha")


def attention_targets(directions, beta: float, kernel: str = "softmax") -> np.ndarray:
    """Aᵢ = Σⱼ wᵢⱼ θⱼ for the directions θ of the rows (see the module docstring), shape (n, d)."""
    beta, _ = _check(beta, "post", 1.0, kernel)
    return _targets(unit_direction(_points(directions)), beta, kernel)


def particle_velocity(x, beta: float, scheme: str = "post", alpha: float = 1.0, kernel: str = "softmax") -> np.ndarray:
    """ẋ for every particle (rows of x) under ``scheme`` (module docstring); ``alpha`` is nGPT's rate."""
    beta, alpha = _check(beta, scheme, alpha, kernel)
    return _velocity(_points(x), beta, scheme, alpha, kernel)


def angular_speeds(x, beta: float, scheme: str = "post", alpha: float = 1.0, kernel: str = "softmax") -> np.ndarray:
    """How fast each particle's direction turns, ‖P_θ ẋ‖/‖x‖ (radians per unit time), shape (n,).

    Post and ngpt live on the unit sphere, so their points are put there first (r = 1), as
    ``particle_run`` does. At r = 1 it is ‖P_θ A‖ (post, pre), ‖P_θ A‖/‖A‖ (peri) and α‖P_θ A‖/‖A‖
    (ngpt); since A is an average of unit vectors, ‖A‖ ≤ 1, so at r = 1 peri turns every token at
    least as fast as post.
    """
    beta, alpha = _check(beta, scheme, alpha, kernel)
    points = _unit_rows(_points(x)) if scheme in ON_SPHERE else _points(x)
    theta = _unit_rows(points)
    velocity = _velocity(points, beta, scheme, alpha, kernel)
    tangent = velocity - np.sum(velocity * theta, axis=1, keepdims=True) * theta
    return np.linalg.norm(tangent, axis=1) / np.linalg.norm(points, axis=1)


@dataclass(frozen=True)
class ParticleRun:
    """``states`` (steps + 1, n, d) at ``times``; their directions, radii ‖xᵢ‖, and per time the
    diameter (largest angle between two directions, radians) and the mean pairwise cosine."""

    scheme: str
    beta: float
    times: np.ndarray
    states: np.ndarray
    directions: np.ndarray
    radii: np.ndarray
    diameters: np.ndarray
    mean_cosines: np.ndarray

    def time_to_cluster(self, angle: float = 0.05) -> float | None:
        """The time at which every direction first lies within ``angle`` (radians) of every other:
        the diameter's first crossing of ``angle``, interpolated linearly between the two grid times
        around it (0 if it starts below); None if it never happens before the run ends."""
        angle = as_positive_number(angle, "angle")
        reached = np.flatnonzero(self.diameters <= angle)
        if not reached.size:
            return None
        k = int(reached[0])
        if k == 0:
            return 0.0
        before, after = self.diameters[k - 1], self.diameters[k]
        share = (before - angle) / (before - after)
        return float(self.times[k - 1] + share * (self.times[k] - self.times[k - 1]))

    def cluster_count(self, index: int = -1, angle: float = 0.1) -> int:
        """How many groups the directions at time ``times[index]`` form, two directions being in one
        group when a chain of directions joins them with every link at most ``angle`` (radians)."""
        return cluster_count(self.directions[index], angle)


def cluster_count(directions, angle: float = 0.1) -> int:
    """The number of connected groups of unit rows, linking two rows whose angle is ≤ ``angle``.

    >>> cluster_count([[1.0, 0.0], [0.999, 0.04], [0.0, 1.0]])
    2
    """
    theta = unit_direction(_points(directions))
    angle = as_positive_number(angle, "angle")
    linked = 2 * np.arctan2(np.linalg.norm(theta[:, None] - theta[None], axis=2),
                            np.linalg.norm(theta[:, None] + theta[None], axis=2)) <= angle
    unseen, groups = set(range(theta.shape[0])), 0
    while unseen:
        groups += 1
        frontier = [unseen.pop()]
        while frontier:
            neighbours = {int(j) for j in np.flatnonzero(linked[frontier.pop()])} & unseen
            unseen -= neighbours
            frontier.extend(neighbours)
    return groups


def _diameters_and_mean_cosines(directions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per time: the largest pairwise angle, 2·atan2(‖a − b‖, ‖a + b‖) (exact near 0), and the mean
    pairwise cosine, over the pairs i < j of unit rows."""
    i, j = np.triu_indices(directions.shape[1], k=1)
    if i.size == 0:
        return np.zeros(directions.shape[0]), np.ones(directions.shape[0])
    a, b = directions[:, i], directions[:, j]
    angles = 2 * np.arctan2(np.linalg.norm(a - b, axis=2), np.linalg.norm(a + b, axis=2))
    return angles.max(axis=1), np.sum(a * b, axis=2).mean(axis=1)


def particle_run(points, beta: float, scheme: str = "post", t_end: float = 10.0, steps: int = 200,
                 alpha: float = 1.0, kernel: str = "softmax") -> ParticleRun:
    """Integrate the dynamics from ``points`` (n, d) over [0, t_end] with ``steps`` RK4 steps.

    For post and ngpt the points are first put on the unit sphere; pre and peri start from the
    points as given (their radii are part of the state). ``points`` is not changed.
    """
    beta, alpha = _check(beta, scheme, alpha, kernel)
    x = _points(points)
    x = unit_direction(x) if scheme in ON_SPHERE else x.copy()
    t_end = as_positive_number(t_end, "t_end")
    steps = as_dimension(steps, "steps")
    velocity = lambda y: _velocity(y, beta, scheme, alpha, kernel)  # noqa: E731
    dt = t_end / steps
    states = [x]
    for _ in range(steps):
        k1 = velocity(x)
        k2 = velocity(x + dt / 2 * k1)
        k3 = velocity(x + dt / 2 * k2)
        k4 = velocity(x + dt * k3)
        x = x + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        if scheme in ON_SPHERE:
            x = _unit_rows(x)
        states.append(x)
    states = np.stack(states)
    radii = np.linalg.norm(states, axis=2)
    directions = states / radii[:, :, None]
    diameters, cosines = _diameters_and_mean_cosines(directions)
    return ParticleRun(scheme, beta, np.linspace(0.0, t_end, steps + 1), states, directions, radii, diameters,
                       cosines)


@dataclass(frozen=True)
class ClusteringTimes:
    """Time to cluster (diameter ≤ ``angle``) per scheme (rows, in ``ATTENTION_SCHEMES`` order) and β
    (columns); None where the run of length ``t_end`` did not cluster."""

    betas: tuple[float, ...]
    schemes: tuple[str, ...]
    angle: float
    t_end: float
    times: tuple[tuple[float | None, ...], ...]
    final_clusters: tuple[tuple[int, ...], ...]  # groups at t_end (links ≤ 2·angle), same layout

    def time(self, scheme: str, beta: float) -> float | None:
        return self.times[self.schemes.index(scheme)][self.betas.index(beta)]

    def faster(self, first: str, second: str, beta: float) -> bool | None:
        """``first`` clusters strictly earlier than ``second`` at this β (None if either never does)."""
        a, b = self.time(first, beta), self.time(second, beta)
        return None if a is None or b is None else a < b


def clustering_times(betas=(0.0, 1.0, 4.0, 9.0), n: int = 16, d: int = 3, t_end: float = 30.0, steps: int = 120,
                     angle: float = 0.05, seed: int = 0, alpha: float = 1.0) -> ClusteringTimes:
    """Seeded points (``sphere_points(n, d, seed)``), the same for every scheme and β; the first time
    at which all directions are within ``angle`` of one another (``ParticleRun.time_to_cluster``),
    and the groups left at the end (large β: several groups that merge only on much longer times,
    so "no time" is not "no clusters"). The default 120 steps (dt = 0.25) give the times to within
    0.01 of ten times finer steps."""
    start = sphere_points(n, d, seed)
    angle = as_positive_number(angle, "angle")
    betas = tuple(float(as_nonnegative_number(b, "beta")) for b in betas)
    runs = [[particle_run(start, b, s, t_end, steps, alpha) for b in betas] for s in ATTENTION_SCHEMES]
    return ClusteringTimes(betas, ATTENTION_SCHEMES, angle, float(t_end),
                           tuple(tuple(r.time_to_cluster(angle) for r in row) for row in runs),
                           tuple(tuple(r.cluster_count(-1, 2 * angle) for r in row) for row in runs))
