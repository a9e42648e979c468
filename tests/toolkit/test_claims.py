"""The claims mechanism: a claim message is spoken only with its own predicate's outcome, each
outcome has its variant in every language, and every predicate a text file names exists in the core
(or the scene's spec)."""

import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import normgeo  # noqa: F401  (loads every core module, whose sources name the predicates)
from scenes.kit.claims import ClaimError, Outcome, claim
from scenes.kit.languages import LANGUAGES
from scenes.kit.registry import SCENES
from scenes.kit.text import TextError, text_file

TOML = """
[title]
en = 't'
zh = 't'
ru = 't'

[say.first]
en = 'a'
zh = 'a'
ru = 'a'

[say.compare]
claim = 'grows'

[say.compare.true]
en = 'it grows to {n}'
zh = '增长到 {n}'
ru = 'растёт до {n}'

[say.compare.false]
en = 'it does not grow: {n}'
zh = '没有增长：{n}'
ru = 'не растёт: {n}'
"""


@pytest.fixture()
def claims_file(tmp_path) -> Path:
    path = tmp_path / "claims_demo.toml"
    path.write_text(TOML, encoding="utf-8")
    return path


def test_the_outcome_is_the_core_predicates_value():
    assert claim(SimpleNamespace(grows=True), "grows") == Outcome("grows", "true")
    assert claim(SimpleNamespace(grows=np.bool_(False)), "grows") == Outcome("grows", "false")
    assert claim(SimpleNamespace(kind=lambda tol=0.1: "signs" if tol < 1 else "x"), "kind", 0.5) == Outcome("kind", "signs")
    with pytest.raises(ClaimError, match="no predicate 'missing'"):
        claim(SimpleNamespace(), "missing")
    with pytest.raises(ClaimError, match="a boolean or an outcome name"):
        claim(SimpleNamespace(ratio=0.7), "ratio")


def test_a_claim_is_spoken_only_with_its_own_predicates_outcome(claims_file):
    texts = text_file(claims_file)
    assert texts.steps() == ["first", "compare"]
    assert texts.template("say.compare", "en", Outcome("grows", "false")) == "it does not grow: {n}"
    with pytest.raises(TextError, match="chosen by the predicate 'grows': pass its outcome"):
        texts.template("say.compare", "en")
    with pytest.raises(TextError, match="chosen by 'grows', not by 'shrinks'"):
        texts.template("say.compare", "en", Outcome("shrinks", "true"))
    with pytest.raises(TextError, match="no variant for grows = maybe"):
        texts.template("say.compare", "en", Outcome("grows", "maybe"))
    with pytest.raises(TextError, match="fixed text, not chosen by 'grows'"):
        texts.template("say.first", "en", Outcome("grows", "true"))


def test_a_malformed_claim_is_refused(tmp_path):
    path = tmp_path / "bad_claim.toml"
    path.write_text("[say.x]\nclaim = 'p'\nnote = 'not a variant'\n", encoding="utf-8")
    with pytest.raises(TextError, match="is a claim"):
        text_file(path)


def test_every_claim_in_the_scenes_names_a_real_predicate_and_has_every_language():
    core = "".join(Path(m.__file__).read_text(encoding="utf-8") for name, m in list(sys.modules.items())
                   if name == "normgeo" or name.startswith("normgeo."))
    found = 0
    for scene in SCENES:
        texts = text_file(scene.text_file)
        source = scene.source_file.read_text(encoding="utf-8")
        for key, (name, outcomes) in texts.claims.items():
            found += 1
            # a predicate is a function, or a field the core computes into a frozen result (``name: bool``)
            assert f"def {name}(" in core or f"def {name}(" in source or f"    {name}: bool" in core, (scene.id, key, name)
            assert f'"{name}"' in source, f"{scene.id} never passes the outcome of {name}"
            for outcome in outcomes:
                assert set(texts.messages[f"{key}[{outcome}]"]) == set(LANGUAGES), (scene.id, key, outcome)
    assert found >= 15
