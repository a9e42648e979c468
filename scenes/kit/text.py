"""The text beside each scene: a TOML file with en, zh and ru side by side under each key.

A scene ``scenes/<name>.py`` reads ``scenes/<name>.toml``; keys shared by several scenes live in
``scenes/kit/common.toml`` and are asked for as ``common.<key>``. A message is filled like this:

- ``{name}``: a value the scene computed and formatted (a string), or a whole number;
- ``{n, plural, one {# input} few {# входа} many {# входов} other {# входа}}``: the branch for the
  CLDR plural category of ``n`` in the message's language (Babel), ``#`` standing for ``n`` as
  written. Every category the language has must be given (en: one, other; ru: one, few, many,
  other; zh: other); the category is taken from the number as written, so "5,7" picks ru "other";
- ``{{`` and ``}}``: literal braces (Typst sets).

A message can be a *claim* (see ``scenes.kit.claims``): a table with ``claim = '<predicate>'`` and
one table of languages per outcome (``true``, ``false`` or named outcomes). It is flattened to one
message per variant, ``<key>[<outcome>]``, and asked for with the predicate's outcome.

Inside Typst math (between ``$``), a digit-comma-digit becomes ``0","6`` and a digit-group space
``thin``, so that Russian decimals and groups are not spaced out like list commas.
"""

from __future__ import annotations

import dataclasses
import functools
import numbers
import re
import tomllib
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path

from babel import Locale
from babel.numbers import NumberFormatError, parse_decimal

from scenes.kit.claims import Outcome
from scenes.kit.languages import LANGUAGES, check_language
from scenes.kit.numbers import BABEL_LOCALES, MINUS, localize

__all__ = ["TextError", "TextFile", "text_file", "scene_text_path", "message", "fill", "math_number", "placeholders", "plural_forms",
           "plural_category", "COMMON_TEXT", "SCENES_DIR"]

SCENES_DIR = Path(__file__).resolve().parents[1]
COMMON_TEXT = Path(__file__).resolve().parent / "common.toml"


class TextError(ValueError):
    """A text file or message is malformed, or a message was asked for that does not exist."""


def scene_text_path(scene_id: str) -> Path:
    """``scenes/<scene_id with _>.toml``."""
    return SCENES_DIR / f"{scene_id.replace('-', '_')}.toml"


@dataclass(frozen=True)
class TextFile:
    """One text file: message key → {language → template}."""

    path: Path
    messages: dict[str, dict[str, str]]
    claims: dict[str, tuple[str, tuple[str, ...]]] = dataclasses.field(default_factory=dict)

    def template(self, key: str, lang: str, when: Outcome | None = None) -> str:
        """The template of ``key`` in ``lang``; for a claim, of the variant ``when`` names, which must
        be the outcome of the claim's own predicate."""
        if key in self.claims:
            name, outcomes = self.claims[key]
            if when is None:
                raise TextError(f"{self.path.name}: {key} is chosen by the predicate {name!r}: pass its outcome")
            if when.claim != name:
                raise TextError(f"{self.path.name}: {key} is chosen by {name!r}, not by {when.claim!r}")
            if when.value not in outcomes:
                raise TextError(f"{self.path.name}: {key} has no variant for {when} (it gives {', '.join(outcomes)})")
            key = f"{key}[{when.value}]"
        elif when is not None:
            raise TextError(f"{self.path.name}: {key} is fixed text, not chosen by {when.claim!r}")
        try:
            return self.messages[key][check_language(lang)]
        except KeyError:
            raise TextError(f"no message {key!r} in {self.path.name}") from None

    def steps(self) -> list[str]:
        """The narrated steps (``say.<step>``) in file order (a claim's variants are one step)."""
        keys = (key.split("[", 1)[0] for key in self.messages if key.startswith("say."))
        return [key.removeprefix("say.") for key in dict.fromkeys(keys)]


@functools.cache
def text_file(path: Path) -> TextFile:
    """The text file at ``path``, flattened: a table whose keys are languages is a message."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise TextError(f"cannot read {path}: {error.strerror}") from None
    except tomllib.TOMLDecodeError as error:
        raise TextError(f"{Path(path).name} is not valid TOML: {error}") from None
    messages: dict[str, dict[str, str]] = {}
    claims: dict[str, tuple[str, tuple[str, ...]]] = {}

    def is_message(table) -> bool:
        return isinstance(table, dict) and table and set(table) <= set(LANGUAGES) and all(isinstance(v, str) for v in table.values())

    def walk(table: dict, prefix: str) -> None:
        if is_message(table):
            messages[prefix] = dict(table)
            return
        if isinstance(table.get("claim"), str):
            variants = {k: v for k, v in table.items() if k != "claim"}
            if not variants or not all(map(is_message, variants.values())):
                raise TextError(f"{Path(path).name}: {prefix} is a claim: give claim = '<predicate>' and one table "
                                f"of languages per outcome")
            claims[prefix] = (table["claim"], tuple(variants))
            messages.update({f"{prefix}[{outcome}]": dict(entry) for outcome, entry in variants.items()})
            return
        for key, value in table.items():
            if not isinstance(value, dict):
                raise TextError(f"{Path(path).name}: {prefix + '.' if prefix else ''}{key} is not a table of languages")
            walk(value, f"{prefix}.{key}" if prefix else key)

    walk(data, "")
    return TextFile(Path(path), messages, claims)


def message(scene_id: str, key: str, lang: str, when: Outcome | None = None, **values) -> str:
    """Message ``key`` of scene ``scene_id`` (or ``common.<key>`` from the shared file), filled in ``lang``.

    >>> message("radial-projection", "title", "en")
    'L2 and RMSNorm: a radial projection'
    """
    if key.startswith("common."):
        source, key = text_file(COMMON_TEXT), key.removeprefix("common.")
    else:
        source = text_file(scene_text_path(scene_id))
    return fill(source.template(key, lang, when), lang, values)


# ------------------------------------------------------------------ parsing templates
@dataclass(frozen=True)
class _Literal:
    text: str


@dataclass(frozen=True)
class _Value:
    name: str


@dataclass(frozen=True)
class _Plural:
    name: str
    branches: dict[str, tuple]


_NAME = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*")


@functools.cache
def _parse(template: str) -> tuple:
    """The template as a tuple of literals, values and plurals; raises TextError when malformed."""
    nodes, position = _parse_sequence(template, 0, top=True)
    return tuple(nodes)


def _parse_sequence(template: str, position: int, top: bool):
    nodes, literal = [], []
    while position < len(template):
        char = template[position]
        if template.startswith("{{", position):
            literal.append("{")
            position += 2
        elif template.startswith("}}", position) and top:
            literal.append("}")
            position += 2
        elif char == "{":
            if literal:
                nodes.append(_Literal("".join(literal)))
                literal = []
            node, position = _parse_placeholder(template, position + 1)
            nodes.append(node)
        elif char == "}":
            if top:
                raise TextError(f"unmatched '}}' at {position} in {template!r} (write '}}}}' for a literal brace)")
            break
        else:
            literal.append(char)
            position += 1
    if literal:
        nodes.append(_Literal("".join(literal)))
    return nodes, position


def _parse_placeholder(template: str, position: int):
    match = _NAME.match(template, position)
    if not match:
        raise TextError(f"'{{' at {position - 1} in {template!r} starts no placeholder (write '{{{{' for a literal brace)")
    name, position = match.group(1), match.end()
    if template.startswith("}", position):
        return _Value(name), position + 1
    plural = re.compile(r",\s*plural\s*,").match(template, position)
    if not plural:
        raise TextError(f"placeholder {{{name} … in {template!r}: expected '}}' or ', plural,'")
    position = plural.end()
    branches: dict[str, tuple] = {}
    while True:
        category = re.compile(r"\s*(zero|one|two|few|many|other)\s*\{").match(template, position)
        if not category:
            break
        body, position = _parse_sequence(template, category.end(), top=False)
        if not template.startswith("}", position):
            raise TextError(f"unclosed branch {category.group(1)!r} of {name} in {template!r}")
        branches[category.group(1)] = tuple(body)
        position += 1
    closing = re.compile(r"\s*\}").match(template, position)
    if not closing or "other" not in branches:
        raise TextError(f"plural {name} in {template!r}: needs an 'other' branch and a closing '}}'")
    return _Plural(name, branches), closing.end()


def placeholders(template: str) -> set[str]:
    """Every name a template fills (plural selectors and the names inside branches).

    >>> sorted(placeholders("{count, plural, one {# input at {p}} other {# inputs at {p}}} and {{x}}"))
    ['count', 'p']
    """
    names: set[str] = set()

    def walk(nodes):
        for node in nodes:
            if isinstance(node, _Value):
                names.add(node.name)
            elif isinstance(node, _Plural):
                names.add(node.name)
                for branch in node.branches.values():
                    walk(branch)

    walk(_parse(template))
    return names


def plural_forms(template: str) -> dict[str, set[str]]:
    """For each plural selector of a template, the categories it gives."""
    forms: dict[str, set[str]] = {}

    def walk(nodes):
        for node in nodes:
            if isinstance(node, _Plural):
                forms.setdefault(node.name, set()).update(node.branches)
                for branch in node.branches.values():
                    walk(branch)

    walk(_parse(template))
    return forms


@functools.cache
def _plural_rule(lang: str):
    return Locale.parse(BABEL_LOCALES[lang]).plural_form


_POWER_OF_TEN = re.compile(r"·?10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)$")
_FROM_SUPERSCRIPT = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")


def plural_category(written: str, lang: str) -> str:
    """The CLDR plural category of a number as written in ``lang`` ("5,7" in ru → "other").

    >>> [plural_category(n, "ru") for n in ("1", "3", "5", "21", "5,7", "4,14·10⁹", "10⁴")]
    ['one', 'few', 'many', 'one', 'other', 'many', 'many']
    """
    text = written.replace(MINUS, "-").strip()
    scale = Decimal(1)
    power = _POWER_OF_TEN.search(text)
    if power:  # 4,14·10⁹ or 10⁴, as fmt_plain_scientific writes them: the category of the whole value
        scale = Decimal(10) ** int(power.group(1).translate(_FROM_SUPERSCRIPT))
        text = text[: power.start()].rstrip("·") or "1"
    try:
        number = parse_decimal(text, locale=BABEL_LOCALES[lang], strict=False)
    except (NumberFormatError, InvalidOperation):
        raise TextError(f"{written!r} is not a number in {lang}: a plural needs one") from None
    value = Decimal(number) * scale
    if power and value == value.to_integral_value():
        value = value.quantize(Decimal(1))
    return _plural_rule(lang)(value)


def _as_text(name: str, value, lang: str) -> str:
    if isinstance(value, bool) or isinstance(value, numbers.Real) and not isinstance(value, numbers.Integral):
        raise TextError(f"{name}: format {value!r} first (digits are the scene's choice); only whole numbers and text fill a message")
    if isinstance(value, numbers.Integral):
        return localize(str(int(value)), lang)
    if not isinstance(value, str):
        raise TextError(f"{name}: cannot fill a message with {type(value).__name__}")
    return value


_DIGIT_COMMA = re.compile(r"(?<=\d),(?=\d)")
_DIGIT_SPACE = re.compile(r"(?<=\d)[\u00a0\u202f ](?=\d)")


_UNARY_MINUS = 'class("unary", ' + MINUS + ")"


def math_number(text: str) -> str:
    """A number (or vector) as written, made safe inside Typst math: a decimal comma is not spaced
    like a list comma, digit groups stay visible, "; " between entries keeps its space, and a minus
    after it stays a sign glued to its number (after a text Typst would space it as a binary minus:
    "(1; − 1,2)").

    >>> math_number("(0,6; −1 000)")
    '(0","6"; "class("unary", −)1 thin 000)'
    """
    text = _DIGIT_SPACE.sub(" thin ", _DIGIT_COMMA.sub('","', text)).replace("; ", '"; "')
    return text.replace('"; "' + MINUS, '"; "' + _UNARY_MINUS)


_math_safe = math_number


def fill(template: str, lang: str, values: dict | None = None, chosen: dict | None = None) -> str:
    """The template with its placeholders filled in ``lang``.

    >>> fill("{n, plural, one {# group} other {# groups}}", "en", {"n": 1})
    '1 group'
    >>> fill("в {r, plural, one {# раз} few {# раза} many {# раз} other {# раза}}", "ru", {"r": "5,7"})
    'в 5,7 раза'
    >>> fill("$x = {x}$, {x}", "ru", {"x": "(0,6; 0,8)"})
    '$x = (0","6"; "0","8)$, (0,6; 0,8)'

    The plural category picked for each selector is recorded in ``chosen`` when given.
    """
    values = values or {}
    missing = placeholders(template) - set(values)
    if missing:
        raise TextError(f"{template[:40]!r}…: no value for {', '.join(sorted(missing))}")
    texts = {name: _as_text(name, value, lang) for name, value in values.items()}
    out: list[str] = []

    def in_math() -> bool:
        return "".join(out).replace("\\$", "").count("$") % 2 == 1

    def emit(nodes, number: str | None) -> None:
        for node in nodes:
            if isinstance(node, _Literal):
                if number is not None and "#" in node.text:
                    for index, piece in enumerate(node.text.split("#")):
                        if index:
                            out.append(_math_safe(number) if in_math() else number)
                        out.append(piece)
                else:
                    out.append(node.text)
            elif isinstance(node, _Value):
                text = texts[node.name]
                out.append(_math_safe(text) if in_math() else text)
            else:
                category = plural_category(texts[node.name], lang)
                if category not in node.branches:
                    raise TextError(f"{template[:40]!r}…: {node.name} = {texts[node.name]} is CLDR '{category}' in {lang}, "
                                    f"which the message does not give")
                if chosen is not None:
                    chosen[node.name] = category
                emit(node.branches[category], texts[node.name])

    emit(_parse(template), None)
    return "".join(out)
