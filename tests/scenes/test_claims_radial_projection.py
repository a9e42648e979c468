"""radial-projection over every accepted spec (another helper owns its words): the scene builds for every
setting its spec accepts, narrates every step, and the numbers it speaks are the core's, recomputed
here independently."""

import numpy as np
from hypothesis import given

from scenes.radial_projection import RadialProjection, RadialProjectionSpec
from tests.scenes.claims_support import build_recorded, scene_settings, spec_strategy


@scene_settings(share=0.15, least=6)
@given(spec=spec_strategy(RadialProjectionSpec))
def test_builds_and_speaks_the_cores_numbers(spec, media_dir):
    scene = build_recorded(RadialProjection, spec, media_dir, check_layout=False)
    fmt = scene.fmt
    x = np.array(spec.vectors[0])
    length = float(np.sqrt(np.sum(x**2)))
    example = scene.said_values["example"]
    assert example["x"] == fmt.vector(x) and example["norm"] == fmt.number(length)
    assert example["proj"] == fmt.vector(spec.radius * x / length)
