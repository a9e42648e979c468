"""conditioning over every accepted spec (another helper owns its words): the scene builds for every
setting its spec accepts, narrates every step, and the numbers it speaks are the core's, recomputed
here independently."""

import numpy as np
from hypothesis import given

from scenes.conditioning import Conditioning, ConditioningSpec
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
