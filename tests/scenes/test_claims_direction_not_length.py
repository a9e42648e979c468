"""direction-not-length over every accepted spec (another helper owns its words): the scene builds for every
setting its spec accepts, narrates every step, and the numbers it speaks are the core's, recomputed
here independently."""

import numpy as np
from hypothesis import given

from scenes.direction_not_length import DirectionNotLength, DirectionNotLengthSpec
from tests.scenes.claims_support import build_recorded, scene_settings, spec_strategy


@scene_settings(share=0.15, least=6)
@given(spec=spec_strategy(DirectionNotLengthSpec))
def test_builds_and_speaks_the_cores_numbers(spec, media_dir):
    scene = build_recorded(DirectionNotLength, spec, media_dir, check_layout=False)
    fmt = scene.fmt
    x, y = np.array(spec.x), np.array(spec.y)
    merge = scene.said_values["merge"]
    assert merge["nx"] == fmt.number(np.sqrt(x @ x)) and merge["ny"] == fmt.number(np.sqrt(y @ y))
    assert merge["px"] == fmt.vector(x / np.sqrt(x @ x))
