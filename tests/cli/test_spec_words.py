"""`normgeo spec` speaks the language asked for, counts with CLDR plurals, and prints range bounds
exactly as --set takes them."""

import re

import pytest
from click.testing import CliRunner

from scenes.cli.main import cli
from scenes.cli.spec_command import describe_settings, exact, words
from scenes.kit.registry import LECTURE_ORDER


def spec(*args):
    result = CliRunner().invoke(cli, ["spec", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize(("lang", "n", "expected"), [("en", 1, "1 setting "), ("en", 4, "4 settings"),
                                                     ("ru", 1, "1 параметр "), ("ru", 3, "3 параметра"),
                                                     ("ru", 5, "5 параметров"), ("ru", 21, "21 параметр ")])
def test_the_header_counts_settings_with_plurals(lang, n, expected):
    assert expected in words("header", lang, scene="x", n=n)


def test_bounds_are_printed_exactly():
    assert exact(2**32 - 1) == "4294967295" and exact(1e6) == "1000000" and exact(0.1) == "0.1"
    assert "e+" not in spec("layernorm-2d") and "4294967295" in spec("layernorm-2d")


@pytest.mark.parametrize("lang", ["ru", "zh"])
def test_types_and_ranges_are_in_the_language_asked_for(lang):
    english = ("a whole number", "a number", "allowed", "values", "settings", "vectors like", "one of", "true or false")
    for scene in LECTURE_ORDER:
        for row in describe_settings(scene, lang):
            assert not any(word in row["type"] or word in row["allowed"] for word in english), (scene, row)
    output = spec("layernorm-2d", "--lang", lang)
    assert not re.search(r"\b(settings|allowed|a whole number)\b", output)
