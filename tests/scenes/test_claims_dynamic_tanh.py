"""dynamic-tanh over every accepted spec: "an S" and "a tanh follows it more closely" only when the
tanh's residual (checked by an independent least-squares fit) is at most 0.8 of the best line's; "whose
large channels inflate its σ" only when the last token's σ is the larger; DyT stays in its box."""

import numpy as np
from hypothesis import given

from normgeo import dynamic_tanh_fit
from scenes.dynamic_tanh import DynamicTanh, DynamicTanhSpec
from tests.scenes.claims_support import assert_claims, build_recorded, scene_settings, spec_strategy


@scene_settings(share=0.5, least=10)
@given(spec=spec_strategy(DynamicTanhSpec))
def test_every_claim_matches_the_numbers(spec, media_dir):
    scene = build_recorded(DynamicTanh, spec, media_dir)
    fit = dynamic_tanh_fit(spec.tokens, spec.channels, spec.massive_channels, spec.largest_massive, spec.seed)
    xs, ys = fit.inputs.ravel(), fit.outputs.ravel()
    line = np.polyval(np.polyfit(xs, ys, 1), xs)
    line_residual = float(np.sqrt(np.mean((line - ys) ** 2)))
    design = np.column_stack([np.tanh(fit.alpha * xs), np.ones_like(xs)])
    coef, *_ = np.linalg.lstsq(design, ys, rcond=None)
    residual = float(np.sqrt(np.mean((design @ coef - ys) ** 2)))
    assert np.isclose(residual, fit.residual, rtol=1e-6) and np.isclose(line_residual, fit.line_residual, rtol=1e-6)
    sigma = fit.inputs.std(axis=1)
    assert_claims(scene, {"say.lines": ("last_token_flatter", bool(sigma[-1] > sigma[0])),
                          "say.union": ("is_s_curve", residual <= 0.8 * line_residual),
                          "say.fit": ("is_s_curve", residual <= 0.8 * line_residual)})
    fmt, values = scene.fmt, scene.said_values
    assert values["fit"]["residual"] == fmt.number(residual, 3)
    assert values["union"]["line_residual"] == fmt.number(line_residual, 3)
    assert values["lines"]["last"] == fmt.number(1 / sigma[-1], 3)
    assert np.all(np.abs(scene.inset_dyt - fit.bias) <= abs(fit.weight) + 1e-12)  # the box, a cube for one γ
