"""What the kit tells its users, compared whole: a spec value refused in one clear line (which
item is empty, what was expected), a glossary misuse naming the file, message key, language,
concept and the very words found, and the site's palette written as well-formed CSS custom
properties, one per line.
"""

import re
from pathlib import Path

import pytest

from scenes.kit.glossary import misuses_in
from scenes.kit.site_data import css_properties, palette_css
from scenes.kit.spec import SpecError, coerce

VECTOR = tuple[float, ...]
VECTORS = tuple[tuple[float, ...], ...]


def refusal(value, hint) -> str:
    with pytest.raises(SpecError) as info:
        coerce("vectors", value, hint)
    return str(info.value)


@pytest.mark.parametrize(("value", "hint", "expected"), [
    ("()", VECTOR, "vectors: expected a vector like 3,4, got an empty value"),
    ("[ ]", VECTOR, "vectors: expected a vector like 3,4, got an empty value"),
    ("1,,2", VECTOR, "vectors: an empty number in '1,,2'; expected a vector like 3,4"),
    ("1,2;;3,4", VECTORS, "vectors: an empty vector in '1,2;;3,4'; expected vectors like 3,4;6,8"),
    ("1,2;3,,4", VECTORS, "vectors: an empty number in '1,2;3,,4'; expected vectors like 3,4;6,8"),
    ("X2", VECTOR, "vectors: expected a vector like 3,4, got 'X2'"),
    ("2X", VECTOR, "vectors: expected a vector like 3,4, got '2X'"),
])
def test_a_refused_tuple_says_what_was_wrong(value, hint, expected):
    assert refusal(value, hint) == expected


def test_brackets_round_a_vector_or_its_items_are_read_as_written():
    assert coerce("vector", "(1, 2)", VECTOR) == (1.0, 2.0)
    assert coerce("vector", "(1), (2)", VECTOR) == (1.0, 2.0)
    assert coerce("vectors", "[1, 2]; [3, 4]", VECTORS) == ((1.0, 2.0), (3.0, 4.0))


def test_a_misuse_names_where_it_was_found():
    """The symbols rule skips aria keys, but the others still apply there: 'normalisation' is the
    ruled-out spelling of the glossary's 'normalization'."""
    found = misuses_in("the normalisation of x", "en", Path("scenes/prenorm_postnorm.toml"), "grid.formula-aria")
    assert len(found) == 1
    assert str(found[0]) == "prenorm_postnorm.toml [grid.formula-aria] en: 'normalisation' (glossary: normalization)"
    assert found[0].path == Path("scenes/prenorm_postnorm.toml")


PROPERTY = re.compile(r"^  --([a-z0-9-]+): (#[0-9a-f]{6});$")


@pytest.mark.parametrize(("selector", "theme"), [(":root", "light"), (':root[data-theme="dark"]', "dark")])
def test_the_palette_is_one_custom_property_per_line(selector, theme):
    css = palette_css()
    start = css.index(selector + " {\n") + len(selector) + 3
    body = css[start:css.index("\n}\n", start)].split("\n")
    assert body[-1] == f"  color-scheme: {theme};"
    parsed = [PROPERTY.match(line) for line in body[:-1]]
    assert all(parsed), [line for line, m in zip(body, parsed) if not m]
    assert {m.group(1): m.group(2) for m in parsed} == css_properties(theme)
