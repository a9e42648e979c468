"""epsilon-and-affine over every accepted spec (another helper owns its words): the scene builds for every
setting its spec accepts, narrates every step, and the numbers it speaks are the core's, recomputed
here independently."""

import numpy as np
from hypothesis import given

from scenes.epsilon_and_affine import EpsilonAndAffine, EpsilonAndAffineSpec
from tests.scenes.claims_support import build_recorded, scene_settings, spec_strategy


@scene_settings(share=0.15, least=6)
@given(spec=spec_strategy(EpsilonAndAffineSpec))
def test_builds_and_speaks_the_cores_numbers(spec, media_dir):
    scene = build_recorded(EpsilonAndAffine, spec, media_dir, check_layout=False)
    fmt = scene.fmt
    inputs = np.array(spec.inputs)
    sigma = inputs.std(axis=1)
    n = inputs.shape[1]
    radii = np.sqrt(n) * sigma / np.sqrt(sigma**2 + spec.eps)  # ‖x̂‖ = √n·σ/√(σ² + ε) < √n
    radius = scene.said_values["radius"]
    assert radius["n"] == n and radius["low"] == fmt.number(sigma.min()) and radius["shortest"] == fmt.number(radii.min())
    assert scene.said_values["epsilon"]["eps"] == fmt.number(spec.eps)
    assert scene.said_values["gamma"]["gamma"] == fmt.vector(spec.gamma)
