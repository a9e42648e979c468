"""batchnorm-geometry over every accepted spec (another helper owns its words): the scene builds for every
setting its spec accepts, narrates every step, and the numbers it speaks are the core's, recomputed
here independently."""

import numpy as np
from hypothesis import given

from scenes.batchnorm_geometry import BatchNormGeometry, BatchNormGeometrySpec
from tests.scenes.claims_support import build_recorded, scene_settings, spec_strategy


@scene_settings(share=0.15, least=6)
@given(spec=spec_strategy(BatchNormGeometrySpec))
def test_builds_and_speaks_the_cores_numbers(spec, media_dir):
    scene = build_recorded(BatchNormGeometry, spec, media_dir, check_layout=False)
    fmt = scene.fmt
    batch = len(spec.values)
    normalize = scene.said_values["normalize"]
    assert normalize["B"] == batch and normalize["radius"] == fmt.number(np.sqrt(batch))
    assert scene.said_values["pair"]["first"] == spec.pair[0] and scene.said_values["pair"]["second"] == spec.pair[1]
