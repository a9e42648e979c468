"""Scene numbers against references that share no code with the core call the scene makes
(issue 21, part 1): what the scene draws is read back from its mobjects and compared with a
closed form or a brute-force computation written out here.

- prenorm-postnorm: each drawn gradient norm is the geometric mean over the stacks of ‖∂L/∂x_l‖₂,
  here by central differences of a forward pass written out in numpy (no backprop at all).
- conditioning: every drawn contour lies on its level set ½wᵀHw = f(w₀)·0.3ᵏ, the drawn path is
  the closed form (I − ηH)ᵏw₀ with η = fraction·2/λ_max, and the drawn κ is the eigenvalue ratio.
- batch-dependence: the drawn "predicted" line is σ/√B (σ = 1), and the measured dots agree with
  it within four standard errors of a standard deviation from 2 000 batches.
- scale-invariance: the drawn effective step is η/‖W‖², ‖W‖ read from the drawn norm curve.
"""

import numpy as np
import pytest

from normgeo import make_stack
from manim import VMobject

from scenes.batch_dependence import BatchDependence, BatchDependenceSpec
from scenes.conditioning import Conditioning, ConditioningSpec
from scenes.scale_invariance import ScaleInvariance, ScaleInvarianceSpec
from scenes.kit.adapters import to_coordinates
from scenes.prenorm_postnorm import PrenormPostnorm, PrenormPostnormSpec
from tests.scenes.helpers import build_scene, centres


def _layer_norm_rows(x: np.ndarray) -> np.ndarray:
    """(x − μ)/σ along each row, σ the population standard deviation, ε = 0."""
    centred = x - x.mean(axis=-1, keepdims=True)
    return centred / np.sqrt((centred**2).mean(axis=-1, keepdims=True))


def _run_blocks(weights: np.ndarray, x: np.ndarray, arrangement: str) -> np.ndarray:
    """Rows of x through the blocks: x + W·LN(x) (pre-norm) or LN(x + W·x) (post-norm)."""
    for w in weights:
        x = x + _layer_norm_rows(x) @ w.T if arrangement == "pre" else _layer_norm_rows(x + x @ w.T)
    return x


def gradient_norms_by_differences(stack, arrangement: str, h: float = 1e-5) -> np.ndarray:
    """‖∂L/∂x_l‖₂ for l = 0 … depth − 1, L = ⟨v, x_depth⟩, each by central differences over x_l."""
    depth, width = stack.weights.shape[0], stack.weights.shape[1]
    states = [stack.start[None, :]]
    for l in range(depth):
        states.append(_run_blocks(stack.weights[l : l + 1], states[-1], arrangement))
    norms = []
    for l in range(depth):
        steps = h * np.eye(width)
        up = _run_blocks(stack.weights[l:], states[l] + steps, arrangement) @ stack.readout
        down = _run_blocks(stack.weights[l:], states[l] - steps, arrangement) @ stack.readout
        norms.append(np.linalg.norm((up - down) / (2 * h)))
    return np.array(norms)


@pytest.mark.parametrize("overrides", [{}, {"depth": 10, "sublayer_scale": 2.0, "stacks": 3, "seed": 4}])
def test_prenorm_postnorm_curves_are_gradient_norms_by_finite_differences(overrides, media_dir):
    spec = PrenormPostnormSpec(**overrides)
    scene = build_scene(PrenormPostnorm, spec, media_dir, check_each_step=False)
    for name in ("pre", "post"):
        logs = [np.log(gradient_norms_by_differences(make_stack(spec.depth, spec.width, spec.sublayer_scale, spec.seed + k), name))
                for k in range(spec.stacks)]
        expected = np.exp(np.mean(logs, axis=0))
        points = to_coordinates(scene.axes, scene.curves[name].get_anchors())
        drawn = np.append(points[::2, 1][: spec.depth - 1], points[-1, 1])
        assert np.allclose(points[-1, 0], spec.depth)
        assert np.allclose(drawn, expected, rtol=1e-6), (name, drawn, expected)


def _polyline_corners(plane, path) -> np.ndarray:
    return to_coordinates(plane, np.vstack([path.get_start_anchors(), path.get_end_anchors()[-1:]]))


@pytest.mark.parametrize("overrides", [{}, {"large_scale": 100.0, "correlation": 0.5, "drawn_kappa": 20.0, "step_fraction": 0.4}])
def test_conditioning_contours_lie_on_their_level_sets_and_paths_are_the_closed_form(overrides, media_dir):
    spec = ConditioningSpec(**overrides)
    scene = build_scene(Conditioning, spec, media_dir, check_each_step=False)
    panels = ((scene.before_plane, scene.curves_a, scene.before_path, scene.demo.drawn_before),
              (scene.after_plane, scene.curves_b, scene.after_path, scene.demo.drawn_after))
    for plane, curves, path, run in panels:
        h = np.asarray(run.hessian, dtype=float)
        low, high = np.linalg.eigvalsh(h)
        start = _polyline_corners(plane, path)[0]
        top = 0.5 * start @ h @ start
        assert len(curves) == 5
        for k, curve in enumerate(curves):
            points = to_coordinates(plane, curve.get_anchors())
            values = 0.5 * np.einsum("ij,jk,ik->i", points, h, points)
            assert np.allclose(values, top * 0.3**k, rtol=1e-6), (k, values.min(), values.max(), top * 0.3**k)
        step = spec.step_fraction * 2.0 / high
        expected = np.array([np.linalg.matrix_power(np.eye(2) - step * h, k) @ start for k in range(spec.steps_drawn + 1)])
        drawn = _polyline_corners(plane, path)
        assert np.allclose(drawn, expected, rtol=1e-6, atol=1e-9 * np.abs(start).max())
    assert np.linalg.eigvalsh(scene.demo.drawn_before.hessian)[1] / np.linalg.eigvalsh(scene.demo.drawn_before.hessian)[0] \
        == pytest.approx(spec.drawn_kappa, rel=1e-9)


def _polylines_through(scene, axes, xs) -> list[np.ndarray]:
    """Every drawn polyline on screen with one corner per x in ``xs``, in ``axes`` coordinates."""
    found = []
    for top in scene.mobjects:
        for mobject in top.get_family():
            if type(mobject) is VMobject and len(mobject.points) == 4 * (len(xs) - 1):
                corners = _polyline_corners(axes, mobject)
                if np.allclose(corners[:, 0], xs, atol=1e-9):
                    found.append(corners)
    return found


@pytest.mark.parametrize("overrides", [{}, {"batch_sizes": (4, 16, 64, 256), "seed": 3}])
def test_batch_mean_spread_is_drawn_against_sigma_over_root_b(overrides, media_dir):
    spec = BatchDependenceSpec(**overrides)
    scene = build_scene(BatchDependence, spec, media_dir, check_each_step=False)
    sizes = np.array(spec.batch_sizes, dtype=float)
    law = 1.0 / np.sqrt(sizes)  # σ/√B with σ = 1
    lines = _polylines_through(scene, scene.spread_axes, np.log2(sizes))
    assert any(np.allclose(line[:, 1], law, rtol=1e-9) for line in lines), [line[:, 1] for line in lines]
    measured = centres(scene.spread_axes, scene.measured_dots)[:, 1]
    standard_error = 1.0 / np.sqrt(2 * (2000 - 1))  # relative s.e. of a standard deviation from 2 000 draws
    assert np.all(np.abs(measured / law - 1.0) <= 4 * standard_error), measured / law


@pytest.mark.parametrize("overrides", [{}, {"steps": 60, "learning_rate": 0.05, "weight_decay": 0.2, "seed": 2}])
def test_the_drawn_effective_step_is_the_learning_rate_over_the_drawn_norm_squared(overrides, media_dir):
    spec = ScaleInvarianceSpec(**overrides)
    scene = build_scene(ScaleInvariance, spec, media_dir, check_each_step=False)
    norms = _polyline_corners(scene.norm_axes, scene.norm_curve)
    steps = _polyline_corners(scene.step_axes, scene.step_curve)
    assert np.allclose(norms[:, 0], np.arange(len(norms))) and np.allclose(steps[:, 0], norms[:, 0])
    assert np.allclose(steps[:, 1], spec.learning_rate / norms[:, 1] ** 2, rtol=1e-9)
