"""layernorm-2d over every accepted spec (another helper owns its words): the scene builds for every
setting its spec accepts, narrates every step, and the numbers it speaks are the core's, recomputed
here independently."""

import numpy as np
from hypothesis import given

from scenes.layernorm_2d import LayerNorm2D, LayerNorm2DSpec
from tests.scenes.claims_support import build_recorded, scene_settings, spec_strategy


@scene_settings(share=0.15, least=6)
@given(spec=spec_strategy(LayerNorm2DSpec))
def test_builds_and_speaks_the_cores_numbers(spec, media_dir):
    scene = build_recorded(LayerNorm2D, spec, media_dir, check_layout=False)
    fmt = scene.fmt
    meet = scene.said_values["meet"]
    assert {meet["p"], meet["q"]} == {fmt.vector((1.0, -1.0)), fmt.vector((-1.0, 1.0))}
    dof = scene.said_values["dof"]
    assert dof["dof_high"] == spec.high_dim - 2
    assert scene.said_values["inputs"]["count"] == spec.count
