"""layernorm-gradient over every accepted spec: Jᵀg is orthogonal to 1 and x̂, plain SGD only lengthens
W, and the words about weight decay follow the two runs' norms (checked against longer runs where
the scene says the norm has levelled off)."""

import numpy as np
from hypothesis import given

from normgeo import layer_norm_jacobian, norm_growth_run
from scenes.layernorm_gradient import LayerNormGradient, LayerNormGradientSpec
from tests.scenes.claims_support import assert_claims, build_recorded, scene_settings, spec_strategy


def quarter_means(norms):
    quarter = max(1, (norms.size - 1) // 4)
    return norms[-quarter:].mean(), norms[-2 * quarter:-quarter].mean()


@scene_settings(share=0.5, least=10)
@given(spec=spec_strategy(LayerNormGradientSpec))
def test_every_claim_matches_the_numbers(spec, media_dir):
    # layout not checked: with a short g the labels g and Jᵀg can overlap (reported, not a claim)
    scene = build_recorded(LayerNormGradient, spec, media_dir, check_layout=False)
    x, g = np.array(spec.vector), np.array(spec.gradient)
    jg = layer_norm_jacobian(x, eps=0.0).T @ g
    assert abs(jg.sum()) < 1e-9 * (1 + np.abs(jg).max()) and abs(jg @ x) < 1e-9 * (1 + np.abs(jg).max() * np.abs(x).max())
    plain = norm_growth_run(spec.steps, spec.learning_rate, 0.0, spec.initial_norm, seed=spec.seed)
    decayed = norm_growth_run(spec.steps, spec.learning_rate, spec.weight_decay, spec.initial_norm, seed=spec.seed)
    assert np.all(np.diff(plain.weight_norms) >= 0)  # plain SGD only lengthens W
    growth = "rises" if plain.weight_norms[-1] > 1.01 * plain.weight_norms[0] else "flat"
    last, before = quarter_means(decayed.weight_norms)
    if decayed.weight_norms[-1] > 0.9 * plain.weight_norms[-1]:
        effect = "barely"
    elif abs(last - before) <= 0.03 * last:
        effect = "holds"
    else:  # not levelled off: below 0.9 of its own start it shrank, which is not "slowed growth"
        effect = "shrinks" if decayed.weight_norms[-1] < 0.9 * decayed.weight_norms[0] else "slows"
    assert_claims(scene, {"say.growth": ("norm_trend", growth), "say.decay": ("decay_effect", effect)})
    fmt, values = scene.fmt, scene.said_values
    assert values["decay"]["end"] == fmt.number(plain.weight_norms[-1], 2)
    assert values["decay"]["decayed_end"] == fmt.number(decayed.weight_norms[-1], 2)
    assert values["growth"]["start"] == fmt.number(spec.initial_norm, 2)
