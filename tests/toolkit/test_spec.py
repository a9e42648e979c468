"""Scene specs: one conversion for --set strings and TOML values, driven by each field's type;
declared ranges; one-line refusals naming the scene, the field, the expected type and the value."""

import dataclasses
import json
import typing

import numpy as np

import pytest

from scenes.kit.registry import SCENES
from scenes.kit.spec import (
    SpecError,
    Vector,
    Vectors,
    as_setting_text,
    check_range,
    check_vectors,
    coerce,
    did_you_mean,
    scene_id_of_module,
    type_description,
)
from scenes.layernorm_2d import LayerNorm2DSpec
from scenes.radial_projection import RadialProjectionSpec
from scenes.render import InputError, RenderJob, RenderSettings, build_specs, input_hash, parse_assignments

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
    shown = "'nonsense'" if text == "nonsense" else "'a1'"
    for prefix, attempt in ((f"{scene_id}: ", lambda: build_specs([scene_id], "en", "dark", {name: text})),
                            (f"spec file {spec_file}: {scene_id}: ",
                             lambda: build_specs([scene_id], "en", "dark", {}, spec_file))):
        with pytest.raises(InputError) as error:
            attempt()
        message = str(error.value)
        assert "\n" not in message
        assert message.startswith(f"{prefix}{name}: expected "), message
        assert shown in message, message


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
        SPEC_TYPES["degrees-of-freedom"]().with_overrides({"gamma": "5,1"})
    with pytest.raises(InputError, match="degrees-of-freedom: gamma: each value must be between 0.1 and 3"):
        build_specs(["degrees-of-freedom"], "en", "dark", {"gamma": "1,5"})
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
    as_dict = RadialProjectionSpec(radius=2).as_dict()
    assert as_dict["vectors"][0] == [3.0, 4.0] and as_dict["radius"] == 2.0
    assert json.loads(json.dumps(as_dict)) == as_dict


def test_a_covariate_shift_run_that_diverges_is_refused_as_bad_input():
    """Seed 2 at learning rate 1 makes the unnormalized run diverge: the spec says so in one line
    (exit 2 from the CLI) instead of failing mid-render; a smaller rate with the same seed is fine."""
    from scenes.covariate_shift import CovariateShiftSpec

    with pytest.raises(SpecError, match=r"^learning_rate: training without normalization diverged at step \d+ "
                                        r"\(learning rate 1 is too large for it with seed 2\)"):
        CovariateShiftSpec(seed=2)
    CovariateShiftSpec(seed=2, learning_rate=0.5)


# ------------------------------------------------------------------ issue 25: silent wrong specs
def test_a_key_given_twice_with_set_is_refused_in_one_line():
    """--set vectors=3,4 --set vectors=6,8 used to render only (6, 8)."""
    assert parse_assignments(["vectors=3,4", "radius=2"]) == {"vectors": "3,4", "radius": "2"}
    with pytest.raises(InputError, match=r"^--set vectors: given twice \('3,4' and '6,8'\); give each setting once$"):
        parse_assignments(["vectors=3,4", "vectors=6,8"])
    with pytest.raises(InputError, match="given twice"):
        parse_assignments(["batch-sizes=2", "batch_sizes=4"])  # one setting, two spellings


@pytest.mark.parametrize("text", ["3,4;;6,8", "3,4;", ";3,4", "3,,4", "3,4,", ",3,4", "3,4; ;6,8", "3, ,4"])
def test_an_empty_item_in_a_list_value_is_refused(text):
    """"3,4;;6,8" used to be read as two vectors, "3,,4" as (3, 4)."""
    with pytest.raises(SpecError, match=r"^vectors: an empty (vector|number) in ") as error:
        RadialProjectionSpec().with_overrides({"vectors": text})
    assert "\n" not in str(error.value)


@pytest.mark.parametrize(("text", "expected"), [("3,4;6,8", ((3.0, 4.0), (6.0, 8.0))),
                                                ("3 4 | 6 8", ((3.0, 4.0), (6.0, 8.0))),
                                                (" (3, 4) ; (6,8) ", ((3.0, 4.0), (6.0, 8.0)))])
def test_separators_with_spaces_are_still_one_item_each(text, expected):
    assert RadialProjectionSpec().with_overrides({"vectors": text}).vectors == expected


@pytest.mark.parametrize(("line", "shown"), [('radius = "2"', "radius: expected a number, got the text '2'"),
                                             ('vectors = "2,1;-1,3"', "vectors: expected vectors like 3,4;6,8, "
                                                                      "got the text '2,1;-1,3'"),
                                             ('vectors = [["2", 1]]', "vectors: expected a number, got the text '2'"),
                                             ("radius = true", "radius: expected a number, got True")])
def test_a_spec_file_value_of_the_wrong_toml_type_is_refused_naming_the_file(line, shown, tmp_path):
    """TOML has numbers and lists: text (or a boolean) where a number is expected is a mistake,
    refused with the file's name, the scene and the setting."""
    spec_file = tmp_path / "mine.toml"
    spec_file.write_text(f"[radial-projection]\n{line}\n", encoding="utf-8")
    with pytest.raises(InputError) as error:
        build_specs(["radial-projection"], "en", "dark", {}, spec_file)
    assert str(error.value).startswith(f"spec file {spec_file}: radial-projection: {shown}"), str(error.value)


def test_every_error_from_a_spec_file_names_the_file(tmp_path):
    """Out of range, unknown key, unknown scene, a cross-field rule: each message names the file."""
    spec_file = tmp_path / "mine.toml"
    for content in ("[radial-projection]\nradius = 0\n", "[radial-projection]\nradious = 2\n",
                    "[radial-projektion]\nradius = 2\n", "radious = 2\n", "[radial-projection]\nvectors = [[0, 0]]\n"):
        spec_file.write_text(content, encoding="utf-8")
        with pytest.raises(InputError) as error:
            build_specs(["radial-projection"], "en", "dark", {}, spec_file)
        assert str(error.value).startswith(f"spec file {spec_file}: "), (content, str(error.value))


def test_a_top_level_key_applies_only_to_the_scenes_that_have_it(tmp_path):
    """radius = 2 at the top of a file sets radial-projection's radius and leaves a scene without a
    radius alone; a key that no selected scene has (it would change nothing) and a key no scene has are refused."""
    spec_file = tmp_path / "shared.toml"
    spec_file.write_text("radius = 2\n", encoding="utf-8")
    assert "radius" not in SPEC_TYPES["layernorm-2d"].field_names()
    with pytest.raises(InputError, match=r"radius: a setting of radial-projection, none of which is selected"):
        build_specs(["layernorm-2d"], "en", "dark", {}, spec_file)
    both = build_specs(["radial-projection", "layernorm-2d"], "en", "dark", {}, spec_file)
    assert both["radial-projection"].radius == 2.0 and both["layernorm-2d"] == LayerNorm2DSpec()
    spec_file.write_text("radious = 2\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"radious: not a setting of any scene; did you mean 'radius'"):
        build_specs(["layernorm-2d"], "en", "dark", {}, spec_file)


def test_set_overrides_the_file_and_a_set_key_must_belong_to_a_selected_scene(tmp_path):
    spec_file = tmp_path / "s.toml"
    spec_file.write_text("[radial-projection]\nradius = 2\n", encoding="utf-8")
    spec = build_specs(["radial-projection"], "en", "dark", {"radius": "3"}, spec_file)["radial-projection"]
    assert spec.radius == 3.0
    with pytest.raises(InputError, match=r"^--set radius: not a setting of layernorm-2d"):
        build_specs(["layernorm-2d"], "en", "dark", {"radius": "3"})


@pytest.mark.parametrize("value", [True, False])
def test_a_toml_boolean_for_a_number_field_is_refused(value):
    """TOML's true is Python's True, an int: a number field must not read it as 1."""
    for hint in (int, float, Vector, tuple[int, ...]):
        with pytest.raises(SpecError, match="expected"):
            coerce("x", value, hint)
        with pytest.raises(SpecError, match="expected"):
            coerce("x", [value, 1] if hint in (Vector, tuple[int, ...]) else value, hint)
    assert coerce("flag", value, bool) is value


# ------------------------------------------------------------------ the helpers, one by one
@pytest.mark.parametrize(("hint", "text"), [(int, "a whole number"), (float, "a number"), (bool, "true or false"),
                                            (str, "text"), (typing.Literal["a", "b"], "one of a, b"),
                                            (Vectors, "vectors like 3,4;6,8"), (Vector, "a vector like 3,4"),
                                            (tuple[int, ...], "whole numbers like 2,1"),
                                            (tuple[float, ...], "a vector like 3,4"), (list, "<class 'list'>")])
def test_type_descriptions(hint, text):
    assert type_description(hint) == text


def test_did_you_mean_and_scene_ids():
    assert did_you_mean("radious", ["radius", "vectors"]) == "; did you mean 'radius'?"
    assert did_you_mean("zzz", ["radius", "vectors"]) == "; known: radius, vectors"
    assert did_you_mean("abcdxyz", ["abcd"]) == "; did you mean 'abcd'?"  # similarity 8/11 ≈ 0.73
    assert did_you_mean("abcwxyz", ["abcd"]) == "; did you mean 'abcd'?"  # 6/11 ≈ 0.55: kept at cutoff 0.5
    assert did_you_mean("abxyz", ["abcd"]) == "; known: abcd"  # 4/9 ≈ 0.44
    assert scene_id_of_module("scenes.layernorm_2d") == "layernorm-2d"
    assert scene_id_of_module("radial_projection") == "radial-projection"
    assert RadialProjectionSpec.scene_id() == "radial-projection"


@pytest.mark.parametrize(("value", "text"), [(((3.0, 4.0), (6.0, 8.0)), "3,4;6,8"), ((2.5, -1.0), "2.5,-1"),
                                             (1e-05, "1e-05"), (1e15, "1000000000000000.0"), (1e16, "1e+16"), (1e14, "100000000000000"), (3.0, "3"), (True, "true"),
                                             (False, "false"), (7, "7"), ("wire", "wire"), ((), "")])
def test_as_setting_text_round_trips_through_coerce(value, text):
    assert as_setting_text(value) == text


@pytest.mark.parametrize(("value", "hint", "expected"), [
    ("  7 ", int, 7), ("+3", int, 3), ("-2", int, -2), (" 2.5 ", float, 2.5), ("1e-3", float, 0.001),
    ("yes", bool, True), ("ON", bool, True), ("1", bool, True), ("off", bool, False), ("No", bool, False),
    ("0", bool, False), (" hi ", str, "hi"), ("hi", str, "hi"), (" wire", typing.Literal["wire", "surface"], "wire"),
    (np.int64(4), int, 4), (np.float32(0.5), float, 0.5), (3, float, 3.0), ("3;4", Vectors, ((3.0,), (4.0,))),
])
def test_coerce_accepts(value, hint, expected):
    result = coerce("x", value, hint)
    assert result == expected and type(result) is type(expected)


@pytest.mark.parametrize(("value", "hint", "message"), [
    ("2.5", int, "x: expected a whole number, got '2.5'"), ("nan", float, "x: must be a finite number, got 'nan'"),
    (float("inf"), float, "x: must be a finite number, got inf"), ("maybe", bool, "x: expected true or false, got 'maybe'"),
    (1, bool, "x: expected true or false, got 1"), ("abc", float, "x: expected a number, got 'abc'"),
    (True, int, "x: expected a whole number, got True"), (2.0, int, "x: expected a whole number, got 2.0"),
    ("", Vector, "x: expected a vector like 3,4, got an empty value"), (3, str, "x: expected text, got 3"),
    ("other", typing.Literal["wire", "surface"], "x: expected one of wire, surface, got 'other'"),
    ("3,inf", Vector, "x: every value must be a finite number, got '3,inf'"),
    ({"a": 1}, Vector, "x: expected a vector like 3,4, got {'a': 1}"), ("x", list, "x: expected <class 'list'>, got 'x'"),
])
def test_coerce_refuses_in_one_line(value, hint, message):
    with pytest.raises(SpecError) as error:
        coerce("x", value, hint)
    assert str(error.value) == message


def test_check_vectors_and_ranges_say_what_is_wrong():
    check_vectors("v", ((3.0, 4.0),), dim=2)
    for vectors, dim, message in [((), None, "v: give at least one vector"),
                                  (((1.0, 2.0), (1.0,)), None, r"v: all vectors need the same dimension, got \[1, 2\]"),
                                  (((1.0, 2.0, 3.0),), 2, "v: this scene draws 2-D vectors, got 3-D"),
                                  (((0.0, 0.0),), 2, "v: vector 1 is the zero vector"),
                                  (((3.0, 4.0), (3e3, 4e3)), 2, "v: vector 2 has length 5e\\+03; keep lengths between "
                                                               "0.001 and 1000"),
                                  (((1e-4, 0.0),), 2, "v: vector 1 has length 0.0001")]:
        with pytest.raises(SpecError, match=f"^{message}"):
            check_vectors("v", vectors, dim)
    check_vectors("v", ((1e-3, 0.0), (1e3, 0.0)))  # both ends of the allowed lengths
    check_vectors("v", ((3e3, 4e3),), max_length=5e3)
    check_range("r", 2.0, 1.0, 2.0)
    with pytest.raises(SpecError, match=r"^r: must be between 1 and 2, got 2.5$"):
        check_range("r", 2.5, 1.0, 2.0)


def test_declared_ranges_and_item_counts():
    spec_type = SPEC_TYPES["degrees-of-freedom"]
    field = next(f for f in spec_type.settings() if f.name == "gamma")
    assert field.metadata["items"] == (2, 2) and field.metadata["low"] == 0.1 and field.metadata["high"] == 3
    assert spec_type().with_overrides({"gamma": "0.1,3"}).gamma == (0.1, 3.0)  # both ends allowed
    with pytest.raises(SpecError, match="^gamma: give 2 values, got 1: 1$"):
        spec_type().with_overrides({"gamma": "1"})
    with pytest.raises(SpecError, match="^count: must be between 2 and 200, got 201$"):
        LayerNorm2DSpec().with_overrides({"count": "201"})
    assert LayerNorm2DSpec().with_overrides({"count": "200"}).count == 200
    with pytest.raises(SpecError, match=r"^groups: give 1 to 4 values, got 5: 1,1,1,1,1$"):
        SPEC_TYPES["normalization-axes"]().with_overrides({"groups": "1,1,1,1,1"})


def test_specs_know_their_fields_and_settings():
    names = RadialProjectionSpec.field_names()
    assert names[:2] == ["lang", "theme"] and "radius" in names
    assert [f.name for f in RadialProjectionSpec.settings()] == names[2:]
    spec = RadialProjectionSpec(radius=2, lang="ru")
    assert spec.settings_dict() == {k: v for k, v in spec.as_dict().items() if k not in ("lang", "theme")}
    assert spec.as_dict()["lang"] == "ru" and spec.settings_dict()["radius"] == 2.0
    with pytest.raises(SpecError, match="^radious: not a setting of this scene; did you mean 'radius'"):
        spec.with_overrides({"radious": 1})
    assert spec.with_overrides({"radius": 3}).lang == "ru"
    assert spec.with_overrides({}) == spec
