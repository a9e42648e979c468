"""scale-invariance over every accepted spec: the outputs LN((cW)x) are the same for every c, and the
words about ‖W‖ and the effective step follow the run's own first and last norms."""

import numpy as np
from hypothesis import given

from normgeo import scaled_outputs, weight_decay_run
from scenes.scale_invariance import ScaleInvariance, ScaleInvarianceSpec
from tests.scenes.claims_support import assert_claims, build_recorded, scene_settings, spec_strategy


@scene_settings(share=0.5, least=12)
@given(spec=spec_strategy(ScaleInvarianceSpec))
def test_every_claim_matches_the_numbers(spec, media_dir):
    scene = build_recorded(ScaleInvariance, spec, media_dir)
    outputs = scaled_outputs(spec.factors, seed=spec.seed)
    assert np.allclose(outputs.outputs, outputs.outputs[0], atol=1e-12)  # "the output does not change at all"
    run = weight_decay_run(spec.steps, spec.learning_rate, spec.weight_decay, seed=spec.seed)
    start, end = run.weight_norms[0], run.weight_norms[-1]
    trend = "falls" if end < 0.999 * start else "rises" if end > 1.001 * start else "flat"
    assert_claims(scene, {"say.decay": ("norm_trend", trend), "say.effective": ("norm_trend", trend)})
    fmt, values = scene.fmt, scene.said_values
    assert values["decay"]["start"] == fmt.number(start, 2) and values["decay"]["end"] == fmt.number(end, 2)
    first, last = spec.learning_rate / start**2, spec.learning_rate / end**2
    assert values["effective"]["first"] == fmt.plain_scientific(first, 2)
    assert values["effective"]["last"] == fmt.plain_scientific(last, 2)
    if trend == "falls":
        assert last > first
    elif trend == "rises":
        assert last < first
