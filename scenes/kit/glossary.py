"""The glossary (``glossary.toml`` beside this file): one name per concept in each language, and the
variants each concept rules out, for the scenes and the site's widgets alike.

A variant is a regular expression matched against a message's plain text: its Typst math (``$…$``)
cut out (a span that is one Greek letter or the ones vector is kept as its symbol: ``$gamma$`` is γ,
``$bold(1)$`` is 𝟏), each value placeholder written ``#`` (as a plural branch writes its number),
plural branches kept, and its quotations cut out: a quotation is quoted as written, so no rule applies
inside it (en “…”; ru «…» and „…“; zh “…”, 「…」 and 『…』). ``misuses(path)`` lists every ruled-out
variant found in a text file.

>>> term("weight-decay", "zh")
'权重衰减'
>>> [m.concept for m in misuses_in("в 2-D — прямая, $epsilon$ {seed}", "ru")]
['two-dimensional']
>>> misuses_in("урок «Нормировка как предобусловливание»", "ru")
[]
"""

from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from scenes.kit.languages import LANGUAGES
from scenes.kit.text import COMMON_TEXT, SCENES_DIR, text_file

__all__ = ["GLOSSARY_FILE", "QUOTATION_MARKS", "Concept", "Misuse", "glossary", "term", "plain_text",
           "without_quotations", "misuses_in", "misuses", "checked_text_files", "GlossaryError"]

GLOSSARY_FILE = Path(__file__).resolve().with_name("glossary.toml")
UI_TEXT = SCENES_DIR / "web" / "ui.toml"
# The other text files in en/zh/ru: the CLI's words around `normgeo spec`, the slides' and handout's.
OTHER_TEXTS = (SCENES_DIR / "cli" / "spec_words.toml", SCENES_DIR / "render" / "slides" / "words.toml")
# (opening, closing) quotation marks of each language; text between them is a quotation.
QUOTATION_MARKS = {"en": ("“”",), "ru": ("«»", "„“"), "zh": ("“”", "「」", "『』")}
_FIELDS = {*LANGUAGES, "not", "note", "scope", "skip_keys"}


class GlossaryError(ValueError):
    """The glossary file is malformed."""


@dataclass(frozen=True)
class Concept:
    """One concept: its name in each language and the variants it rules out."""

    id: str
    names: dict[str, str]
    ruled_out: dict[str, tuple[re.Pattern, ...]]
    scope: tuple[str, ...] | None = None  # text-file stems the rules apply to; None: every file
    skip_keys: re.Pattern | None = None  # message keys exempt from the rules
    note: str = ""

    def applies_to(self, path: Path, key: str) -> bool:
        if self.scope is not None and Path(path).stem not in self.scope:
            return False
        return not (self.skip_keys and self.skip_keys.search(key))


@dataclass(frozen=True)
class Misuse:
    """A ruled-out variant found in a message."""

    path: Path
    key: str
    lang: str
    concept: str
    found: str

    def __str__(self) -> str:
        return f"{self.path.name} [{self.key}] {self.lang}: {self.found!r} (glossary: {self.concept})"


def _concept(name: str, table: dict) -> Concept:
    unknown = set(table) - _FIELDS
    if unknown or not set(LANGUAGES) <= set(table):
        raise GlossaryError(f"glossary [{name}]: needs {', '.join(LANGUAGES)}; unknown {sorted(unknown)}")
    try:
        ruled = {lang: tuple(re.compile(p) for p in table.get("not", {}).get(lang, ())) for lang in LANGUAGES}
        skip = re.compile(table["skip_keys"]) if "skip_keys" in table else None
    except re.error as error:
        raise GlossaryError(f"glossary [{name}]: bad pattern: {error}") from None
    scope = tuple(table["scope"]) if "scope" in table else None
    return Concept(name, {lang: table[lang] for lang in LANGUAGES}, ruled, scope, skip, table.get("note", ""))


@functools.cache
def glossary() -> dict[str, Concept]:
    """Every concept of the glossary, by id, in file order."""
    data = tomllib.loads(GLOSSARY_FILE.read_text(encoding="utf-8"))
    return {name: _concept(name, table) for name, table in data.items()}


def term(concept: str, lang: str) -> str:
    """The name of ``concept`` in ``lang``."""
    return glossary()[concept].names[lang]


_MATH = re.compile(r"(?<!\\)\$(.*?)(?<!\\)\$", re.S)
_MATH_SYMBOLS = {"alpha": "α", "beta": "β", "gamma": "γ", "epsilon": "ε", "eta": "η", "kappa": "κ", "lambda": "λ",
                 "mu": "μ", "rho": "ρ", "sigma": "σ", "bold(1)": "𝟏"}
_VALUE = re.compile(r"\{\s*[A-Za-z_]\w*\s*\}")
_PLURAL_HEAD = re.compile(r"\{\s*[A-Za-z_]\w*\s*,\s*plural\s*,")
_BRANCH = re.compile(r"\b(zero|one|two|few|many|other)\s*\{")


def plain_text(template: str) -> str:
    """The words of a message: math cut out (a lone Greek letter or 𝟏 kept as its symbol), each value
    written ``#``, plural syntax cut out (math and syntax each leave a space).

    >>> plain_text("at $epsilon = 0$, {n, plural, one {# step} other {# steps}} of {lr}, $gamma$")
    'at  ,    # step   # steps  of #, γ'
    """
    text = _MATH.sub(lambda m: _MATH_SYMBOLS.get(m.group(1).strip(), " "), template)
    text = _PLURAL_HEAD.sub(" ", _VALUE.sub("#", text))
    return _BRANCH.sub(" ", text).replace("{{", " ").replace("}}", " ").replace("{", " ").replace("}", " ")


def without_quotations(text: str, lang: str) -> str:
    """``text`` with every quotation in ``lang``'s marks cut out (nested ones too); an unclosed mark
    cuts nothing.

    >>> without_quotations("урок «Нормировка как „предобусловливание“» и нормировка", "ru")
    'урок   и нормировка'
    """
    spans = [re.compile(f"{re.escape(o)}[^{re.escape(o + c)}]*{re.escape(c)}") for o, c in QUOTATION_MARKS[lang]]
    previous = None
    while previous != text:
        previous = text
        for span in spans:
            text = span.sub(" ", text)
    return text


def misuses_in(template: str, lang: str, path: Path = Path("-"), key: str = "-") -> list[Misuse]:
    """Every ruled-out variant in one message of one language, outside its quotations."""
    text = without_quotations(plain_text(template), lang)
    found = []
    for concept in glossary().values():
        if not concept.applies_to(path, key):
            continue
        for pattern in concept.ruled_out[lang]:
            found += [Misuse(Path(path), key, lang, concept.id, m.group(0)) for m in pattern.finditer(text)]
    return found


def misuses(path: Path) -> list[Misuse]:
    """Every ruled-out variant in a text file (a scene's, the common one or the site's)."""
    found = []
    for key, entry in text_file(Path(path)).messages.items():
        for lang, template in entry.items():
            found += misuses_in(template, lang, Path(path), key)
    return found


def checked_text_files() -> list[Path]:
    """The files the glossary governs: every scene's text, the common text, the site's words, the CLI's
    and the slides' words."""
    return [*sorted(SCENES_DIR.glob("*.toml")), COMMON_TEXT, UI_TEXT, *OTHER_TEXTS]
