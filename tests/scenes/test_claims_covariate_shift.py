"""covariate-shift over every accepted spec: no run diverges (the spec refuses such settings, so no
10²² is ever shown), and each comparison follows the three runs' numbers, read off the runs here."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from normgeo import VARIANTS, covariate_shift_study
from scenes.covariate_shift import CovariateShift, CovariateShiftSpec
from tests.scenes.claims_support import assert_claims, build_recorded, scene_settings, spec_strategy


@scene_settings(share=0.25, least=8)
@given(spec=spec_strategy(CovariateShiftSpec, window=lambda drawn: st.integers(1, drawn["steps"] // 2)))
def test_every_claim_matches_the_numbers(spec, media_dir):
    scene = build_recorded(CovariateShift, spec, media_dir)
    study = covariate_shift_study(steps=spec.steps, learning_rate=spec.learning_rate, seed=spec.seed)
    loss = {v: float(np.mean(study.runs[v].losses)) for v in VARIANTS}
    shift = {v: float(np.mean(study.runs[v].distribution_shift)) for v in VARIANTS}
    rough = {v: float(np.mean(study.runs[v].landscape_variation)) for v in VARIANTS}
    assert max(shift.values()) < 1e4 and all(np.isfinite(list(loss.values())))
    closer = abs(loss["noisy-batchnorm"] - loss["batchnorm"]) < abs(loss["noisy-batchnorm"] - loss["none"])
    if shift["noisy-batchnorm"] <= shift["none"]:
        separation = "cannot"
    else:
        separation = "against-shift" if loss["noisy-batchnorm"] < loss["none"] else "with-shift"
    assert_claims(scene, {"say.fast": ("noisy_closer_to_batchnorm", closer),
                          "say.separate": ("shift_separation", separation),
                          "say.landscape": ("batchnorm_smooths", rough["batchnorm"] < rough["none"]),
                          "say.shift": ("batchnorm_cuts_shift", shift["batchnorm"] < shift["none"])})
    fixed, values = scene.fmt.fixed, scene.said_values
    assert values["fast"]["noisy"] == fixed(loss["noisy-batchnorm"], 3) and values["fast"]["none"] == fixed(loss["none"], 3)
    assert values["separate"]["none_shift"] == fixed(shift["none"], 3)
    assert values["shift"]["ratio"] == scene.fmt.number(shift["noisy-batchnorm"] / shift["batchnorm"], 1)
    assert values["shift"]["cut"] == scene.fmt.number(shift["none"] / shift["batchnorm"], 1)
