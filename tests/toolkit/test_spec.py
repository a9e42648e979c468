"""Scene specs: frozen, validated, overridable from strings with one-line errors."""

import dataclasses

import pytest

from scenes.layernorm_2d import LayerNorm2DSpec
from scenes.radial_projection import RadialProjectionSpec
from scenes.spec import SpecError, Vectors, parse_value


def test_specs_are_frozen():
    """A spec cannot be changed in place."""
    spec = RadialProjectionSpec()
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.radius = 2.0


def test_defaults_come_from_the_source():
    """The worked example (3, 4) is the first default vector; the radius is 1."""
    spec = RadialProjectionSpec()
    assert spec.vectors[0] == (3.0, 4.0) and spec.radius == 1.0


def test_overrides_parse_strings_by_field_type():
    """--set style strings become tuples of floats, ints, floats."""
    spec = RadialProjectionSpec().with_overrides({"vectors": "3,4; 6,8; -2,1", "radius": "2"})
    assert spec.vectors == ((3.0, 4.0), (6.0, 8.0), (-2.0, 1.0)) and spec.radius == 2.0
    assert LayerNorm2DSpec().with_overrides({"count": "10", "high-dim": "4096"}).high_dim == 4096
    assert parse_value("vectors", "(1, 2)|(3 4)", Vectors) == ((1.0, 2.0), (3.0, 4.0))


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"vectors": "0,0; 3,4"}, "zero vector"),
        ({"vectors": "3,4,5"}, "2-D"),
        ({"vectors": "3,nan"}, "finite|NaN|nan"),
        ({"vectors": "3,inf"}, "finite|inf"),
        ({"vectors": "a,b"}, "not a list of numbers"),
        ({"vectors": "3,4; 1,2,3"}, "same dimension"),
        ({"radius": "0"}, "radius"),
        ({"radius": "big"}, "expected a number"),
        ({"colour": "red"}, "not a setting"),
        ({"lang": "de"}, "unknown language"),
        ({"theme": "solarized"}, "unknown theme"),
    ],
)
def test_bad_values_raise_one_line_spec_errors(overrides, message):
    """Each malformed or out-of-range value is refused with a message naming it."""
    with pytest.raises(SpecError, match=message) as error:
        RadialProjectionSpec().with_overrides(overrides)
    assert "\n" not in str(error.value)


def test_int_fields_refuse_fractions():
    """count=2.5 is not a whole number."""
    with pytest.raises(SpecError, match="whole number"):
        LayerNorm2DSpec().with_overrides({"count": "2.5"})


def test_as_dict_is_json_ready():
    """Tuples become lists so that the manifest can record the spec."""
    assert RadialProjectionSpec().as_dict()["vectors"][0] == [3.0, 4.0]
