"""Output names: two different custom specs get two different names (a spec tag that hashed the
setting names only, or only the first setting, would give them one), the default spec has no
tag, and equal specs share a name however they were written."""

import dataclasses
import typing

import pytest

from normgeo_models.states_file import write_states
from scenes.kit.registry import SCENES
from scenes.kit.spec import SpecError
from scenes.radial_projection import RadialProjectionSpec
from scenes.render import RenderSettings, artifact_name, build_specs, gif_name, spec_tag
from tests.toolkit.test_spec import other_value

SPEC_TYPES = {scene.id: scene.load().spec_class for scene in SCENES}


def test_two_custom_vectors_get_two_names():
    a = RadialProjectionSpec(vectors=((3, 4),))
    b = RadialProjectionSpec(vectors=((6, 8),))
    settings = RenderSettings("l", "mp4")
    assert spec_tag(a) != spec_tag(b)
    assert artifact_name("radial-projection", a, settings) != artifact_name("radial-projection", b, settings)
    assert gif_name("radial-projection", a, 480) != gif_name("radial-projection", b, 480)


def test_the_default_has_no_tag_and_a_custom_spec_has_eight_hex_digits():
    spec = RadialProjectionSpec()
    assert spec_tag(spec) is None
    assert artifact_name("radial-projection", spec, RenderSettings("l", "mp4")) == \
        "radial-projection/radial-projection.en.dark.480p15.mp4"
    tag = spec_tag(RadialProjectionSpec(radius=2))
    assert len(tag) == 8 and int(tag, 16) >= 0
    assert artifact_name("radial-projection", RadialProjectionSpec(radius=2), RenderSettings("l", "mp4")) == \
        f"radial-projection/radial-projection.en.dark.{tag}.480p15.mp4"


def test_language_and_theme_are_in_the_name_not_in_the_tag():
    a = RadialProjectionSpec(radius=2, lang="ru", theme="light")
    b = RadialProjectionSpec(radius=2)
    assert spec_tag(a) == spec_tag(b)
    assert artifact_name("radial-projection", a, RenderSettings("l", "mp4")).split("/")[1].startswith(
        "radial-projection.ru.light.")


def test_equal_specs_written_two_ways_share_a_tag():
    a = build_specs(["radial-projection"], "en", "dark", {"vectors": "3,4;6,8"})["radial-projection"]
    b = RadialProjectionSpec(vectors=((3.0, 4.0), (6.0, 8.0)))
    assert spec_tag(a) == spec_tag(b)


def alternatives(spec_type, name, folder):
    """More candidates where other_value finds none: the other choices of a Literal, neighbours of
    an int (which a cross-field rule such as "groups divide features" may refuse, or a seed the
    spec refuses because its training diverges), a shorter tuple, two states files cut from the
    shipped one (written into ``folder``)."""
    hint = typing.get_type_hints(spec_type)[name]
    spec = spec_type()
    default = getattr(spec, name)
    if typing.get_origin(hint) is typing.Literal:
        return [choice for choice in typing.get_args(hint) if choice != default]
    if isinstance(default, bool):
        return []
    if isinstance(default, int):
        return [default * 2, default + 2, default // 2, default - 2, *range(default + 3, default + 60)]
    if name == "source":
        states = spec.states()
        cuts = {"first": states.layers[:-1], "last": states.layers[1:]}
        return [str(write_states(folder / f"without-{cut}.safetensors", dataclasses.replace(states, layers=kept)))
                for cut, kept in cuts.items()]
    if isinstance(default, tuple):
        halved = [tuple(v / 2 for v in default)] if all(isinstance(v, (int, float)) for v in default) else []
        return [tuple(reversed(default)), default[:-1], default[1:], (*default, default[-1]), *halved]
    return []


FIELDS = [(scene_id, f.name) for scene_id, spec_type in SPEC_TYPES.items() for f in spec_type.settings()]


@pytest.mark.parametrize(("scene_id", "name"), FIELDS, ids=[f"{s}.{n}" for s, n in FIELDS])
def test_changing_any_one_setting_changes_the_tag(scene_id, name, tmp_path):
    """For every setting of every scene: the default, and a spec with that one setting changed,
    and (where a third value exists) another change of the same setting, all get distinct names."""
    spec_type = SPEC_TYPES[scene_id]
    default = spec_type()
    value = other_value(spec_type, name)
    for candidate in alternatives(spec_type, name, tmp_path):
        if value != getattr(default, name):
            break
        try:
            value = getattr(dataclasses.replace(default, **{name: candidate}), name)
        except SpecError:
            continue
    if value == getattr(default, name):
        pytest.fail(f"{scene_id}.{name}: no other valid value found to test with")
    changed = dataclasses.replace(default, **{name: value})
    tags = {spec_tag(default), spec_tag(changed)}
    assert None in tags and len(tags) == 2
    names = {artifact_name(scene_id, spec, RenderSettings("l", "mp4")) for spec in (default, changed)}
    assert len(names) == 2
    third = []
    for candidate in alternatives(spec_type, name, tmp_path):
        try:
            other = dataclasses.replace(default, **{name: candidate})
        except SpecError:
            continue
        if getattr(other, name) not in (value, getattr(default, name)):
            third.append(other)
    for other in third[:1]:  # a second custom value of the same setting: a third name
        assert spec_tag(other) not in tags, (scene_id, name)
