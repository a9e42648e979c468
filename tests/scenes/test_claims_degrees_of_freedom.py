"""degrees-of-freedom over every accepted spec (another helper owns its words): the scene builds for every
setting its spec accepts, narrates every step, and the numbers it speaks are the core's, recomputed
here independently."""

import numpy as np
from hypothesis import given

from scenes.degrees_of_freedom import DegreesOfFreedom, DegreesOfFreedomSpec
from tests.scenes.claims_support import assert_claims, build_recorded, scene_settings, spec_strategy


@scene_settings(share=0.15, least=6)
@given(spec=spec_strategy(DegreesOfFreedomSpec))
def test_builds_and_speaks_the_cores_numbers(spec, media_dir):
    scene = build_recorded(DegreesOfFreedom, spec, media_dir, check_layout=False)
    fmt = scene.fmt
    assert scene.said_values["gamma"]["gamma"] == fmt.vector(spec.gamma)
    # a circle after γ exactly when its entries have one size (by hand, not the core's ellipsoid)
    round_ = abs(abs(spec.gamma[0]) - abs(spec.gamma[1])) <= 1e-9 * max(abs(g) for g in spec.gamma)
    assert_claims(scene, {"legend.after": ("is_round", round_), "shape": ("is_round", round_)})
