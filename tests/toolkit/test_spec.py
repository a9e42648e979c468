"""Scene specs: one conversion for --set strings and TOML values, driven by each field's type;
declared ranges; one-line refusals naming the scene, the field, the expected type and the value."""

import dataclasses
import typing
from pathlib import Path

import pytest

from scenes.kit.registry import SCENES
from scenes.kit.spec import SpecError, Vector, Vectors, as_setting_text, coerce
from scenes.layernorm_2d import LayerNorm2DSpec
from scenes.radial_projection import RadialProjectionSpec
from scenes.render import InputError, RenderJob, RenderSettings, build_specs, input_hash

SPEC_TYPES = {scene.id: scene.load().spec_class for scene in SCENES}
FIELDS = [(scene_id, f.name) for scene_id, spec_type in SPEC_TYPES.items() for f in spec_type.settings()]


def toml_literal(value) -> str:
    """How a person would write the value in a TOML file: integral floats as integers."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "[" + ", ".join(toml_literal(v) for v in value) + "]"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def other_value(spec_type, name):
    """A valid value for the field that differs from its default when one can be found."""
    default_spec = spec_type()
    field = next(f for f in spec_type.settings() if f.name == name)
    default = getattr(default_spec, name)
    high = field.metadata.get("high")
    candidates = []
    if isinstance(default, bool):
        candidates = [not default]
    elif isinstance(default, (int, float)):
        candidates = [default + 1, default * 2, default / 2] if isinstance(default, float) else [default + 1, default - 1]
    elif isinstance(default, tuple) and default and isinstance(default[0], (int, float)):
        candidates = [tuple(v + 1 for v in default), tuple(type(v)(v * 2) for v in default)]
    elif isinstance(default, tuple):
        candidates = [tuple(tuple(v * 2 for v in row) for row in default)]
    for candidate in candidates:
        if high is not None and any(v > high for v in _flat(candidate)):
            continue
        try:
            return getattr(dataclasses.replace(default_spec, **{name: candidate}), name)
        except SpecError:
            continue
    return default


def _flat(value):
    if isinstance(value, tuple):
        for v in value:
            yield from _flat(v)
    else:
        yield value


@pytest.mark.parametrize(("scene_id", "name"), FIELDS, ids=[f"{s}.{n}" for s, n in FIELDS])
def test_command_line_and_spec_file_give_equal_specs_and_equal_input_hashes(scene_id, name, tmp_path):
    """--set NAME=TEXT and a [scene] NAME = VALUE table build the same spec, and so the same cache key."""
    value = other_value(SPEC_TYPES[scene_id], name)
    from_cli = build_specs([scene_id], "en", "dark", {name: as_setting_text(value)})[scene_id]
    spec_file = tmp_path / "spec.toml"
    spec_file.write_text(f"[{scene_id}]\n{name} = {toml_literal(value)}\n", encoding="utf-8")
    from_file = build_specs([scene_id], "en", "dark", {}, spec_file)[scene_id]
    assert from_cli == from_file
    assert getattr(from_cli, name) == value
    settings = RenderSettings("l", "mp4")
    assert input_hash(RenderJob(scene_id, from_cli, settings, tmp_path)) == \
        input_hash(RenderJob(scene_id, from_file, settings, tmp_path))


def bad_value(hint) -> tuple[str, str]:
    """A --set text and a TOML literal that the field's type cannot take."""
    if typing.get_origin(hint) is typing.Literal:
        return "nonsense", '"nonsense"'
    return "a1", '"a1"'


@pytest.mark.parametrize(("scene_id", "name"), FIELDS, ids=[f"{s}.{n}" for s, n in FIELDS])
def test_a_bad_value_is_one_line_naming_scene_field_type_and_value(scene_id, name, tmp_path):
    hint = typing.get_type_hints(SPEC_TYPES[scene_id])[name]
    text, literal = bad_value(hint)
    spec_file = tmp_path / "bad.toml"
    spec_file.write_text(f"[{scene_id}]\n{name} = {literal}\n", encoding="utf-8")
    for attempt in (lambda: build_specs([scene_id], "en", "dark", {name: text}),
                    lambda: build_specs([scene_id], "en", "dark", {}, spec_file)):
        with pytest.raises(InputError) as error:
            attempt()
        message = str(error.value)
        assert "\n" not in message
        assert message.startswith(f"{scene_id}: {name}: expected ") and "'a1'" in message or "'nonsense'" in message


def test_a_vector_of_integers_in_a_file_is_the_same_as_floats_on_the_command_line(tmp_path):
    """vector = [3, 4] in TOML and --set vector=3,4 give (3.0, 4.0): one spec, one hash, one file."""
    spec_file = tmp_path / "s.toml"
    spec_file.write_text("[layernorm-hyperplane]\nvector = [5, -1, 2]\n")
    a = build_specs(["layernorm-hyperplane"], "en", "dark", {}, spec_file)["layernorm-hyperplane"]
    b = build_specs(["layernorm-hyperplane"], "en", "dark", {"vector": "5,-1,2"})["layernorm-hyperplane"]
    assert a == b and a.vector == (5.0, -1.0, 2.0) and all(isinstance(v, float) for v in a.vector)


@pytest.mark.parametrize(("content", "expected"), [
    ("[layernorm-hyperplane]\nx = [5.0, -1.0, 2.0]\n", "x: not a setting of layernorm-hyperplane"),
    ("[layernorm-hyperplne]\nvector = [5.0, -1.0, 2.0]\n", "did you mean 'layernorm-hyperplane'"),
    ("[layernorm-hyperplane]\nvektor = [5.0, -1.0, 2.0]\n", "did you mean 'vector'"),
    ("[layernorm-hyperplane]\nlang = 'ru'\n", "--lang"),
    ("colour = 'red'\n", "colour: not a setting"),
])
def test_a_spec_file_is_read_as_strictly_as_set(content, expected, tmp_path):
    """An unknown section or key is refused (with "did you mean" where one is close)."""
    spec_file = tmp_path / "s.toml"
    spec_file.write_text(content)
    with pytest.raises(InputError, match=expected):
        build_specs(["layernorm-hyperplane"], "en", "dark", {}, spec_file)


def test_a_one_element_tuple_field_takes_a_bare_value(tmp_path):
    """factors = 2 means (2.0,), from a file and from --set."""
    spec_file = tmp_path / "s.toml"
    spec_file.write_text("[scale-invariance]\nfactors = 2\n")
    assert build_specs(["scale-invariance"], "en", "dark", {}, spec_file)["scale-invariance"].factors == (2.0,)
    assert build_specs(["scale-invariance"], "en", "dark", {"factors": "2"})["scale-invariance"].factors == (2.0,)


@pytest.mark.parametrize(("scene_id", "assignment"), [
    ("normalization-axes", {"groups": "2,1"}),
    ("degrees-of-freedom", {"dims": "2,3,4096"}),
    ("batch-dependence", {"batch_sizes": "2,8,32"}),
])
def test_tuple_fields_can_be_set_from_the_command_line(scene_id, assignment):
    spec = build_specs([scene_id], "en", "dark", assignment)[scene_id]
    name, text = next(iter(assignment.items()))
    assert as_setting_text(getattr(spec, name)) == text


def test_an_unknown_key_suggests_the_closest_setting():
    with pytest.raises(InputError, match="did you mean 'radius'"):
        build_specs(["radial-projection"], "en", "dark", {"radious": "2"})


@pytest.mark.parametrize(("overrides", "message"), [
    ({"vectors": "0,0; 3,4"}, "zero vector"),
    ({"vectors": "3,4,5"}, "2-D"),
    ({"vectors": "3,nan"}, "finite"),
    ({"vectors": "3,inf"}, "finite"),
    ({"vectors": "a,b"}, "expected vectors like 3,4;6,8, got 'a,b'"),
    ({"vectors": "3,4; 1,2,3"}, "same dimension"),
    ({"radius": "0"}, "radius: must be between 0.05 and 1000, got 0"),
    ({"radius": "big"}, "radius: expected a number, got 'big'"),
    ({"colour": "red"}, "not a setting"),
    ({"lang": "de"}, "unknown language"),
    ({"theme": "solarized"}, "unknown theme"),
])
def test_bad_values_raise_one_line_spec_errors(overrides, message):
    """Each malformed or out-of-range value is refused with a message naming it."""
    with pytest.raises(SpecError, match=message) as error:
        RadialProjectionSpec().with_overrides(overrides)
    assert "\n" not in str(error.value)


def test_declared_ranges_are_checked_for_each_value_of_a_tuple():
    with pytest.raises(SpecError, match="gamma: each value must be between 0.1 and 3"):
        build_specs(["degrees-of-freedom"], "en", "dark", {"gamma": "5,1"}) if False else \
            SPEC_TYPES["degrees-of-freedom"]().with_overrides({"gamma": "5,1"})
    with pytest.raises(SpecError, match="gamma: give 2 values, got 3"):
        SPEC_TYPES["degrees-of-freedom"]().with_overrides({"gamma": "1,1,1"})


def test_int_fields_refuse_fractions():
    with pytest.raises(SpecError, match="whole number"):
        LayerNorm2DSpec().with_overrides({"count": "2.5"})
    with pytest.raises(SpecError, match="whole number"):
        LayerNorm2DSpec().with_overrides({"count": 2.5})


def test_specs_are_frozen_and_built_in_python_with_integers_hold_floats():
    spec = RadialProjectionSpec(vectors=((3, 4),))
    assert spec.vectors == ((3.0, 4.0),) and isinstance(spec.vectors[0][0], float)
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.radius = 2.0


def test_coerce_handles_nested_and_flat_forms():
    assert coerce("v", "(1, 2)|(3 4)", Vectors) == ((1.0, 2.0), (3.0, 4.0))
    assert coerce("v", [3, 4], Vectors) == ((3.0, 4.0),)
    assert coerce("v", "3 4", Vector) == (3.0, 4.0)
    assert as_setting_text(coerce("v", [[1, 2], [3, 4]], Vectors)) == "1,2;3,4"


def test_as_dict_is_json_ready():
    """Tuples become lists so that the manifest can record the spec."""
    assert RadialProjectionSpec().as_dict()["vectors"][0] == [3.0, 4.0]
    assert Path  # keeps the import used where Path is needed by tmp_path fixtures


def test_a_covariate_shift_run_that_diverges_is_refused_as_bad_input():
    """Seed 2 at learning rate 1 makes the unnormalized run diverge: the spec says so in one line
    (exit 2 from the CLI) instead of failing mid-render; a smaller rate with the same seed is fine."""
    from scenes.covariate_shift import CovariateShiftSpec

    with pytest.raises(SpecError, match=r"^learning_rate: training without normalization diverged at step \d+ "
                                        r"\(learning rate 1 is too large for it with seed 2\)"):
        CovariateShiftSpec(seed=2)
    CovariateShiftSpec(seed=2, learning_rate=0.5)
