"""One glossary entry read into a Concept (scenes/kit/glossary.py's ``_concept``), with tables
written here by hand: the names per language, the ruled-out patterns, the scope, the exempt keys and
the note, and every malformed entry refused with the entry's name. ``glossary()`` is cached, so the
whole file is read again here after clearing the cache (a mutant reading it wrong must show)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from scenes.kit.glossary import GLOSSARY_FILE, Concept, GlossaryError, _concept, glossary

NAMES = {"en": "zero-mean hyperplane", "ru": "гиперплоскость нулевого среднего", "zh": "零均值超平面"}


def test_an_entry_with_every_field_is_read_as_written():
    table = {**NAMES, "not": {"en": ["hyper ?plane of zeros"], "zh": ["零均值平面(?!.)"]},
             "scope": ["conditioning", "layernorm_2d"], "skip_keys": "aria$", "note": "one name"}
    concept = _concept("zero-mean-hyperplane", table)
    assert isinstance(concept, Concept)
    assert concept.id == "zero-mean-hyperplane" and concept.names == NAMES
    assert [p.pattern for p in concept.ruled_out["en"]] == ["hyper ?plane of zeros"]
    assert [p.pattern for p in concept.ruled_out["zh"]] == ["零均值平面(?!.)"]
    assert concept.ruled_out["ru"] == ()
    assert concept.scope == ("conditioning", "layernorm_2d")
    assert concept.skip_keys.pattern == "aria$"
    assert concept.note == "one name"
    assert concept.applies_to(Path("scenes/conditioning.toml"), "say.x")
    assert not concept.applies_to(Path("scenes/conditioning.toml"), "grid.formula-aria")
    assert not concept.applies_to(Path("scenes/other.toml"), "say.x")


def test_an_entry_with_names_only_has_no_rules_scope_or_note():
    concept = _concept("c", dict(NAMES))
    assert concept.ruled_out == {"en": (), "ru": (), "zh": ()}
    assert concept.scope is None and concept.skip_keys is None and concept.note == ""
    assert concept.applies_to(Path("anything.toml"), "any-key")


@pytest.mark.parametrize("table", [
    {"en": "a", "ru": "б"},                                  # zh missing
    {**NAMES, "nope": 1},                                    # an unknown field
    {**NAMES, "scopes": ["x"]},                              # a misspelt field
])
def test_an_incomplete_or_unknown_entry_is_refused_with_its_name(table):
    with pytest.raises(GlossaryError, match=r"glossary \[the-entry\]: needs en, zh, ru; unknown"):
        _concept("the-entry", table)


def test_the_unknown_fields_are_named():
    with pytest.raises(GlossaryError, match=re.escape("unknown ['nope', 'other']")):
        _concept("e", {**NAMES, "other": 1, "nope": 2})


@pytest.mark.parametrize("table", [{**NAMES, "not": {"en": ["(unclosed"]}}, {**NAMES, "skip_keys": "[a-"}])
def test_a_bad_pattern_is_refused_with_the_entry_name(table):
    with pytest.raises(GlossaryError, match=r"glossary \[bad\]: bad pattern: "):
        _concept("bad", table)


def test_the_whole_file_read_again_matches_its_toml():
    """Every entry of glossary.toml, read again: its names and patterns are the file's."""
    glossary.cache_clear()
    concepts = glossary()
    data = tomllib.loads(GLOSSARY_FILE.read_text(encoding="utf-8"))
    assert list(concepts) == list(data)
    for name, table in data.items():
        concept = concepts[name]
        assert concept.names == {lang: table[lang] for lang in ("en", "zh", "ru")}
        for lang in ("en", "zh", "ru"):
            assert [p.pattern for p in concept.ruled_out[lang]] == list(table.get("not", {}).get(lang, []))
        assert concept.note == table.get("note", "")
        assert concept.scope == (tuple(table["scope"]) if "scope" in table else None)
