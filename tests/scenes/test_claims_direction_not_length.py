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


def test_the_pre_norm_stream_keeps_the_length_with_the_states_numbers(media_dir):
    """The summary says where the length is not lost, with the bundled SmolLM2 states' numbers,
    recomputed here (a plain median of plain norms), and 'grows' chosen by what they show."""
    from normgeo_models.states_file import read_states
    from scenes.kit.real_states import STATES_DIR
    from tests.scenes.claims_support import assert_claims

    scene = build_recorded(DirectionNotLength, DirectionNotLengthSpec(), media_dir, check_layout=False)
    layers = read_states(STATES_DIR / "smollm2.safetensors").of_kind("rmsnorm")
    medians = [float(np.median(np.linalg.norm(layer.input.reshape(-1, layer.input.shape[-1]), axis=1)))
               for layer in layers]
    assert_claims(scene, {"stream": ("grows", medians[-1] > medians[0])})
    summary = scene.steps[-1].text
    fmt = scene.fmt
    for said in (fmt.number(medians[0], 1), fmt.number(medians[-1], 0), str(len(layers))):
        assert said in summary
    assert (fmt.number(medians[0], 1), fmt.number(medians[-1], 0), len(layers)) == ("2.6", "553", 61)
