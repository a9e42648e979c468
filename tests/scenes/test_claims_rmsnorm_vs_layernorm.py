"""rmsnorm-vs-layernorm over every accepted spec (another helper owns its words): the scene builds for every
setting its spec accepts, narrates every step, and the numbers it speaks are the core's, recomputed
here independently."""

import numpy as np
from hypothesis import given

from scenes.rmsnorm_vs_layernorm import RmsNormVsLayerNorm, RmsNormVsLayerNormSpec
from tests.scenes.claims_support import build_recorded, scene_settings, spec_strategy


@scene_settings(share=0.15, least=6)
@given(spec=spec_strategy(RmsNormVsLayerNormSpec))
def test_builds_and_speaks_the_cores_numbers(spec, media_dir):
    scene = build_recorded(RmsNormVsLayerNorm, spec, media_dir, check_layout=False)
    fmt = scene.fmt
    x = np.array(spec.vectors[0])
    mu, sigma = x.mean(), x.std()
    angle = scene.said_values["angle"]["angle"]  # between RMSNorm(x) and LN(x): arctan(|μ|/σ)
    assert angle == fmt.number(np.degrees(np.arctan2(abs(mu), sigma)), 1)
    assert scene.said_values["rms"]["x"] == fmt.vector(x)
