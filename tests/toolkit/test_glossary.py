"""The glossary: one name per concept and language, and none of the variants it rules out anywhere in
the scenes' text, the common text or the site's words."""

import re
from pathlib import Path

import pytest

from scenes.kit.glossary import GLOSSARY_FILE, checked_text_files, glossary, misuses, misuses_in, plain_text, term
from scenes.kit.languages import LANGUAGES
from scenes.kit.text import text_file


def test_every_concept_is_named_in_every_language_and_scoped_to_real_files():
    stems = {path.stem for path in checked_text_files()}
    concepts = glossary()
    assert len(concepts) >= 30
    for concept in concepts.values():
        assert all(concept.names[lang].strip() for lang in LANGUAGES), concept.id
        assert concept.scope is None or set(concept.scope) <= stems, concept.id


def test_no_rule_forbids_the_name_it_prescribes():
    """The chosen name of a concept (its plain words) is never one of the variants it rules out."""
    for concept in glossary().values():
        for lang in LANGUAGES:
            name = concept.names[lang]
            for pattern in concept.ruled_out[lang]:
                assert not pattern.search(name), (concept.id, lang, pattern.pattern)


def test_the_check_finds_what_the_issue_found():
    """Planted misuses from the issue are all caught; their corrections are not."""
    bad = {"zh": ["推理时只能保存 running statistics", "零均值平面上", "减小 weight decay", "学习率 warmup"],
           "ru": ["в 2-D это прямая", "поперёк батча", "средний loss", "seed данных", "решётка значений"],
           "en": ["at epsilon = 0", "the square root of 2", "the mean mu"]}
    good = {"zh": ["推理时只能保存滑动统计量", "零均值超平面上", "减小权重衰减", "学习率预热"],
            "ru": ["в двумерном случае это прямая", "по батчу", "среднее значение функции потерь",
                   "зерно генератора данных", "сетка значений", "поперёк долины"],
            "en": ["at ε = 0", "√2", "the mean μ", "at $epsilon = 0$", "{epsilon} steps"]}
    for lang, lines in bad.items():
        for line in lines:
            assert misuses_in(line, lang), (lang, line)
    for lang, lines in good.items():
        for line in lines:
            assert not misuses_in(line, lang), (lang, line, misuses_in(line, lang))


def test_plain_text_keeps_plural_branches_and_drops_math_and_placeholders():
    text = plain_text("{n, plural, one {# seed} other {# seeds}} at $epsilon$ and {loss}")
    assert "seed" in text and "epsilon" not in text and "loss" not in text


def test_scope_and_skipped_keys(tmp_path: Path):
    """A scoped rule applies to its files only; an aria label may spell symbols out for a screen reader."""
    assert not misuses_in("三层网络", "zh", Path("conditioning.toml"))
    assert misuses_in("第一层", "zh", Path("prenorm_postnorm.toml"))
    assert not misuses_in("x hat equals x minus mu", "en", Path("ui.toml"), "grid.formula-aria")
    path = tmp_path / "planted.toml"
    path.write_text("[say.a]\nen = 'with gamma'\nzh = '用 γ'\nru = 'в 2-D'\n", encoding="utf-8")
    found = {(m.lang, m.concept) for m in misuses(path)}
    assert found == {("en", "symbols"), ("ru", "two-dimensional")}
    assert term("zero-mean-hyperplane", "zh") == "零均值超平面"
    assert GLOSSARY_FILE.name == "glossary.toml"


@pytest.mark.parametrize("path", checked_text_files(), ids=lambda path: path.name)
def test_no_ruled_out_variant_in(path):
    text_file.cache_clear()
    found = misuses(path)
    assert not found, "\n".join(map(str, found))
