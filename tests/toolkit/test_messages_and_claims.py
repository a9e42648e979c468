"""Messages chosen by a claim through ``message()`` (the variant the outcome names, read against the
scene's TOML file itself), and claims from predicates that take arguments."""

from __future__ import annotations

import tomllib
from types import SimpleNamespace

import pytest

from scenes.kit.claims import ClaimError, Outcome, claim
from scenes.kit.text import SCENES_DIR, TextError, message

RAW = tomllib.loads((SCENES_DIR / "batch_dependence.toml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", ["en", "zh", "ru"])
def test_message_fills_the_variant_the_outcome_names(lang):
    said = message("batch-dependence", "say.two-batches", lang, Outcome("batchnorm_outcome", "differ"))
    assert said == RAW["say"]["two-batches"]["differ"][lang]
    with pytest.raises(TextError, match="pass its outcome"):
        message("batch-dependence", "say.two-batches", lang)


class Predicates:
    def above(self, limit, strict=True):
        return 3 > limit if strict else 3 >= limit


def test_a_predicate_is_called_with_the_claims_arguments():
    assert claim(Predicates(), "above", 2) == Outcome("above", "true")
    assert claim(Predicates(), "above", 3) == Outcome("above", "false")
    assert claim(Predicates(), "above", 3, strict=False) == Outcome("above", "true")


def test_a_missing_predicate_names_the_results_type():
    with pytest.raises(ClaimError, match=r"^Predicates has no predicate 'below'$"):
        claim(Predicates(), "below")
    with pytest.raises(ClaimError, match=r"^SimpleNamespace has no predicate 'x'$"):
        claim(SimpleNamespace(), "x")
