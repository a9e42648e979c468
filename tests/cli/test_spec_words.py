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


# Issue 34: Russian plurals agree with the number (the last one of a range), 21 takes the `one` form.
PLURALS_RU = {
    "items": {1: "1 значение", 2: "2 значения", 5: "5 значений", 21: "21 значение", 22: "22 значения",
              25: "25 значений", 111: "111 значений"},
    "header": {1: "1 параметр ", 2: "2 параметра ", 5: "5 параметров ", 21: "21 параметр ", 22: "22 параметра ",
               25: "25 параметров ", 111: "111 параметров "},
}


@pytest.mark.parametrize("n", [1, 2, 5, 21, 22, 25, 111])
@pytest.mark.parametrize("key", sorted(PLURALS_RU))
def test_every_russian_plural_takes_the_form_of_its_number(key, n):
    assert PLURALS_RU[key][n] in words(key, "ru", n=n, scene="x")


@pytest.mark.parametrize(("low", "high", "expected"), [
    ("1", "4", "1–4 значения"), ("2", "5", "2–5 значений"), ("1", "21", "1–21 значение"), ("2", "22", "2–22 значения"),
    ("2", "25", "2–25 значений"), ("1", "111", "1–111 значений"), ("2", "6", "2–6 значений")])
def test_a_russian_range_of_counts_agrees_with_its_last_number(low, high, expected):
    assert words("items-range", "ru", low=low, high=high) == expected


def _type_lines(output: str) -> list[str]:
    """The lines `normgeo spec` writes from spec_words.toml: a setting's type and what is allowed."""
    lines = output.splitlines()
    return [lines[i + 1] for i, line in enumerate(lines) if re.match(r"  \S+ = ", line)]


def test_no_russian_line_reads_a_list_as_a_decimal():
    """"например 3,4" read as 3.4 and "допустимо 0.1 … 3, 2 значения" as 3.2: every example of the
    --set syntax says what it is, and no digit stands after a comma and space of ours."""
    example = re.compile(r"(?<![\d.])[\d.]+(?:,[\d.]+)+(?:;[\d.]+(?:,[\d.]+)+)*")
    lines = [line for scene in LECTURE_ORDER for line in _type_lines(spec(scene, "--lang", "ru"))]
    lines += [words(f"type.{kind}", "ru") for kind in ("vector", "vectors", "ints", "floats", "float")]
    for line in lines:
        assert not re.search(r"\d, \d", line), line
        said = line.split(" — это ")
        for head in said[:-1]:  # every example is followed by what it is
            assert example.search(head.split()[-1]), line
        assert not example.search(said[-1].split(";")[0] if len(said) > 1 else line), line
    assert words("type.vector", "ru").endswith("3,4 — это (3; 4)")
    assert words("type.floats", "ru").endswith("1,2,0.5 — это 1; 2 и 0,5")


@pytest.mark.parametrize("scene", LECTURE_ORDER)
def test_chinese_type_lines_use_full_width_separators(scene):
    for line in _type_lines(spec(scene, "--lang", "zh")):
        assert not re.search(r"[\u4e00-\u9fff][,;:]|[,;:] ?[\u4e00-\u9fff]", line), line
        assert "；要求：" in line or "要求" not in line, line
