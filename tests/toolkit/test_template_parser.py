"""The message template parser (scenes/kit/text.py), with its cache cleared so that every template
here is parsed again: ICU-style plurals filled in the CLDR category Babel gives for the number,
placeholders inside branches, and every malformed template refused in so many words."""

from __future__ import annotations

import pytest
from babel import Locale

from scenes.kit.base import Step
from scenes.kit.glossary import plain_text
from scenes.kit.text import TextError, _parse, fill

RU = "{k, plural, one {# раз} few {# раза} many {# раз} other {# раза}}"


@pytest.fixture(autouse=True)
def fresh_parser():
    _parse.cache_clear()
    yield
    _parse.cache_clear()


@pytest.mark.parametrize("count", [1, 2, 5, 11, 21, 22, 25, 101])
def test_russian_plurals_follow_babels_cldr_category(count):
    category = Locale("ru").plural_form(count)
    word = {"one": "раз", "few": "раза", "many": "раз", "other": "раза"}[category]
    assert fill(RU, "ru", {"k": count}) == f"{count} {word}"


def test_placeholders_inside_branches_and_after_the_plural_are_filled():
    template = "{count, plural, one {# cat at {p}} other {# cats at {p}}}!"
    assert fill(template, "en", {"count": 3, "p": "home"}) == "3 cats at home!"
    assert fill(template, "en", {"count": 1, "p": "sea"}) == "1 cat at sea!"
    assert fill("{a} and {b}", "en", {"a": "x", "b": "y"}) == "x and y"


def test_doubled_braces_are_literal_braces():
    assert fill("set {{x}} of {n}: {{", "en", {"n": 2}) == "set {x} of 2: {"
    assert fill("}}{a}}}", "en", {"a": "v"}) == "}v}"


@pytest.mark.parametrize(("template", "message"), [
    ("{", "'{' at 0 in '{' starts no placeholder (write '{{' for a literal brace)"),
    ("a } b", "unmatched '}' at 2 in 'a } b' (write '}}' for a literal brace)"),
    ("ab {1x}", "'{' at 3 in 'ab {1x}' starts no placeholder (write '{{' for a literal brace)"),
    ("{x,}", "placeholder {x … in '{x,}': expected '}' or ', plural,'"),
    ("{n, plural, one {a}}", "plural n in '{n, plural, one {a}}': needs an 'other' branch and a closing '}'"),
    ("{n, plural, one {a} other {b}", "plural n in '{n, plural, one {a} other {b}': needs an 'other' branch and a closing '}'"),
    ("{n, plural, one {a", "unclosed branch 'one' of n in '{n, plural, one {a'"),
    ("{n, plural, one {a {x}", "unclosed branch 'one' of n in '{n, plural, one {a {x}'"),
])
def test_malformed_templates_are_refused_exactly(template, message):
    with pytest.raises(TextError) as refused:
        fill(template, "en", {"n": 1, "x": 1})
    assert str(refused.value) == message


def test_plain_text_turns_every_brace_into_a_space():
    assert plain_text("x {{ 1 }} y") == "x   1   y"
    assert plain_text("p { 2 q") == "p   2 q"


def test_a_step_rounds_its_times_to_milliseconds():
    assert Step("k", "t", 1.23456, 2.34567).as_dict() == {"key": "k", "text": "t", "start": 1.235, "end": 2.346}
