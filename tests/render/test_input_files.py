"""A user's states file is an input like the code: the same path with other bytes is another
render (its cached output is not served), the same bytes again are the same render."""

import dataclasses

from normgeo_models.states_file import write_states
from scenes.real_states_rmsnorm import RealStatesRmsnormSpec
from scenes.render import RenderJob, RenderSettings, input_hash


def test_a_states_file_changed_in_place_changes_the_input_hash(tmp_path):
    shipped = RealStatesRmsnormSpec().states()
    path = tmp_path / "mine.safetensors"
    write_states(path, shipped)
    spec = RealStatesRmsnormSpec(source=str(path))
    settings = RenderSettings("l", "png")
    first = input_hash(RenderJob("real-states-rmsnorm", spec, settings, tmp_path))
    assert input_hash(RenderJob("real-states-rmsnorm", spec, settings, tmp_path)) == first
    write_states(path, dataclasses.replace(shipped, layers=shipped.layers[1:]))
    changed = input_hash(RenderJob("real-states-rmsnorm", spec, settings, tmp_path))
    assert changed != first
    write_states(path, shipped)
    assert input_hash(RenderJob("real-states-rmsnorm", spec, settings, tmp_path)) == first
