"""layernorm-hyperplane over every accepted spec (another helper owns its words): the scene builds for every
setting its spec accepts, narrates every step, and the numbers it speaks are the core's, recomputed
here independently."""

import numpy as np
from hypothesis import given

from scenes.layernorm_hyperplane import LayerNormHyperplane, LayerNormHyperplaneSpec
from tests.scenes.claims_support import build_recorded, scene_settings, spec_strategy


@scene_settings(share=0.15, least=6)
@given(spec=spec_strategy(LayerNormHyperplaneSpec))
def test_builds_and_speaks_the_cores_numbers(spec, media_dir):
    scene = build_recorded(LayerNormHyperplane, spec, media_dir, check_layout=False)
    fmt = scene.fmt
    x = np.array(spec.vector)
    mean = sum(spec.vector) / 3
    assert scene.said_values["split"]["mean"] == fmt.number(mean)
    inner = sum(mean * (v - mean) for v in spec.vector)  # ⟨μ1, x − μ1⟩ = 0 up to rounding
    assert abs(inner) < 1e-9 * (1 + float(np.abs(x).max()) ** 2)
    assert scene.said_values["split"]["inner"] in (fmt.number(0.0), fmt.number(-0.0), "−0", "0")
    assert scene.said_values["face-on"]["n"] == 3
