"""dynamic-tanh's predicates against an independent fit (numpy's least squares over a grid of α, and
polyfit for the line) and against σ computed from the inputs."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from normgeo import dynamic_tanh_fit


def brute_force(fit) -> tuple[float, float]:
    """RMS residual of the best γ·tanh(αx) + β over a fine log grid of α, and of the best line."""
    xs, ys = fit.inputs.ravel(), fit.outputs.ravel()
    best = np.inf
    for alpha in np.geomspace(1e-3, 10.0, 3000):
        design = np.column_stack([np.tanh(alpha * xs), np.ones_like(xs)])
        coef, *_ = np.linalg.lstsq(design, ys, rcond=None)
        best = min(best, float(np.sqrt(np.mean((design @ coef - ys) ** 2))))
    line = np.polyval(np.polyfit(xs, ys, 1), xs)
    return best, float(np.sqrt(np.mean((line - ys) ** 2)))


@pytest.mark.parametrize("largest, expected", [(30.0, True), (2.0, False)])
def test_the_s_curve_is_there_at_the_default_and_absent_with_small_large_channels(largest, expected):
    """The hard case of the issue: largest_massive = 2 (the spec's smallest) leaves no S-curve."""
    fit = dynamic_tanh_fit(largest_massive=largest)
    tanh_residual, line_residual = brute_force(fit)
    assert fit.residual == pytest.approx(tanh_residual, rel=2e-3) and fit.line_residual == pytest.approx(line_residual)
    assert fit.is_s_curve() == expected == (tanh_residual <= 0.8 * line_residual)


@given(seed=st.integers(0, 2**32 - 1), tokens=st.integers(2, 12), massive=st.integers(1, 4),
       largest=st.floats(2.0, 500.0))
def test_is_s_curve_agrees_with_the_brute_force_fit(seed, tokens, massive, largest):
    fit = dynamic_tanh_fit(tokens, 16, massive, largest, seed)
    tanh_residual, line_residual = brute_force(fit)
    assert fit.residual <= tanh_residual * (1 + 2e-3) + 1e-12  # the core's search is at least as good
    if abs(tanh_residual - 0.8 * line_residual) > 5e-3 * line_residual:
        assert fit.is_s_curve() == (tanh_residual <= 0.8 * line_residual)
    sigma = fit.inputs.std(axis=1)
    assert fit.last_token_flatter == (sigma[-1] > sigma[0])
