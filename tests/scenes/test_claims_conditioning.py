"""conditioning over every accepted spec (another helper owns its words): the scene builds for every
setting its spec accepts, narrates every step, and the numbers it speaks are the core's, recomputed
here independently."""

import numpy as np
from hypothesis import given

from scenes.conditioning import Conditioning, ConditioningSpec
from scenes.kit.claims import Outcome
from tests.scenes.claims_support import build_recorded, scene_settings, spec_strategy


@scene_settings(share=0.15, least=6)
@given(spec=spec_strategy(ConditioningSpec))
def test_builds_and_speaks_the_cores_numbers(spec, media_dir):
    scene = build_recorded(Conditioning, spec, media_dir, check_layout=False)
    fmt = scene.fmt
    s1, s2, rho = spec.small_scale, spec.large_scale, spec.correlation
    eigenvalues = np.linalg.eigvalsh(np.array([[s1 * s1, rho * s1 * s2], [rho * s1 * s2, s2 * s2]]))
    assert scene.said_values["before"]["kappa"] == fmt.plain_scientific(eigenvalues[-1] / eigenvalues[0])
    standardized = (1 + abs(rho)) / (1 - abs(rho))
    assert scene.said_values["after"]["kappa"] == fmt.number(standardized, 1)
    # the standardized κ of uncorrelated features (1) is spoken in either variant of the correlation step
    assert fmt.number(1.0, 1) in scene.said_values["correlation"]["detail"]
    # the descent's wording (issue 34): whether the drawn path overshoots (η > 1/L) and whether the way
    # along the valley (|1 − ηλ_min| > |1 − ηλ_max|) or the fixed step sets the pace, from the eigenvalues
    f, drawn = spec.step_fraction, spec.drawn_kappa
    eta = f * 2 / drawn  # the drawn Hessian is diag(1, κ)
    along, across = abs(1 - eta), abs(1 - eta * drawn)
    shape = f"{'zigzag' if eta * drawn > 1 else 'one-side'}-{'valley' if along > across else 'step'}"
    assert scene.claims_made["how"] == Outcome("path_shape", shape)
    # standardized: eigenvalues ∝ 1 ∓ |ρ|, the step f·2/λ_max
    along, across = abs(1 - 2 * f * (1 - rho) / (1 + rho)), abs(1 - 2 * f)
    if abs(along - across) > 1e-9:
        assert scene.claims_made["say.after"] == Outcome("slow_along_valley", "true" if along > across else "false")
