"""The glossary: one name per concept and language, and none of the variants it rules out anywhere in
the scenes' text, the common text or the site's words."""

from pathlib import Path

import pytest

from scenes.kit.glossary import (
    GLOSSARY_FILE,
    Misuse,
    checked_text_files,
    glossary,
    misuses,
    misuses_in,
    plain_text,
    term,
    without_quotations,
)
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
    text = plain_text("{n, plural, one {# seed} other {# seeds}} at $epsilon = 0$ and {loss}")
    assert "seed" in text and "epsilon" not in text and "loss" not in text


def test_plain_text_keeps_a_lone_greek_letter_as_its_symbol_and_writes_a_value_as_a_number_sign():
    assert plain_text("乘 $gamma$、加 $beta$ 之前") == "乘 γ、加 β 之前"
    assert plain_text("вектору $bold(1)$, $gamma x + beta$") == "вектору 𝟏,  "
    words = plain_text("угол {angle}°, {n, plural, one {# шаг} other {# шага}}").split()
    assert words == ["угол", "#°,", "#", "шаг", "#", "шага"]


# Issue 34: quotations of a source are quoted as written, whatever the glossary says.
@pytest.mark.parametrize(("lang", "quoted", "bare"), [
    ("ru", "урок «Нормировка как предобусловливание»", "урок: нормировка как предобусловливание"),
    ("ru", "слова «а не „про качество нормировки“», как в уроке", "а не про качество нормировки"),
    ("ru", "«сглаживание рельефа» — слова Santurkar и др. в переводе", "сглаживание рельефа"),
    ("zh", "论文原话是“用 warmup”", "用 warmup"),
    ("zh", "课程标题「归一化即预条件，见俄文课程」", "见俄文课程"),
    ("zh", "「引文中『您』字照录」", "您"),
    ("en", "the paper says “the loss surface is smoother”", "the loss surface is smoother"),
])
def test_a_variant_inside_a_quotation_is_exempt_and_the_same_words_outside_are_not(lang, quoted, bare):
    assert misuses_in(bare, lang), bare
    assert not misuses_in(quoted, lang), misuses_in(quoted, lang)


@pytest.mark.parametrize(("lang", "text"), [
    ("ru", "урок «Нормировка как предобусловливание"),  # never closed: nothing is cut
    ("ru", "“нормировка”"),                             # English quotes are not Russian ones
    ("zh", "《俄文课程》"),                              # a translated title is our wording
    ("en", '"loss surface"'),                          # straight quotes are Typst strings
])
def test_only_a_closed_quotation_in_the_language_s_own_marks_is_exempt(lang, text):
    assert misuses_in(text, lang), text
    assert without_quotations(text, lang) == text


# Issue 34: one term per concept and language, also across scenes.
ISSUE_34_BAD = {
    "ru": ["слой нормировки", "нормированные значения", "GroupNorm нормирует каждую группу", "без нормировки",
           "рельеф функции потерь", "поверхность потерь", "входов, ортогональных 1", "ортогональны $bold(1)$",
           "Реальные (скрытые) состояния", "Настоящие скрытые состояния модели", "стремится к 90 градусам",
           "угол {angle} градусов", "{a, plural, one {# градус} few {# градуса} many {# градусов} other {# градуса}}",
           "В русском уроке сказано", "массивные токены", "нормализировать"],
    "zh": ["损失曲面", "这次玩具运行", "俄文课程中的数值", "您的声音", "$gamma$、$beta$ 之前", "（γ、β 之前）",
           "乘 γ 加 β 之前", "经过 γ、β 之后", "γ 和 β 之前的输出长度"],
}
ISSUE_34_GOOD = {
    "ru": ["слой нормализации", "нормализованные значения", "GroupNorm нормализует каждую группу",
           "пакетная нормализация", "L2-нормировка", "нормировка вектора", "нормированный вектор",
           "ландшафт функции потерь", "входов, ортогональных вектору 1", "ортогональны вектору $bold(1)$",
           "реальные скрытые состояния", "скрытые состояния настоящего декодера", "стремится к 90°",
           "угол {angle}°", "угол в градусах", "в русскоязычном уроке", "токен с огромной нормой", "по батчу"],
    "zh": ["损失地形", "这次玩具实验", "俄语课程中的数值", "你的声音", "乘 $gamma$、加 $beta$ 之前",
           "乘 γ、加 β 之前", "乘 γ 之前", "加 β 之后"],
}


@pytest.mark.parametrize(("lang", "line"), [(lang, line) for lang, lines in ISSUE_34_BAD.items() for line in lines])
def test_a_variant_the_issue_named_is_caught(lang, line):
    assert misuses_in(line, lang), (lang, line)


@pytest.mark.parametrize(("lang", "line"), [(lang, line) for lang, lines in ISSUE_34_GOOD.items() for line in lines])
def test_the_chosen_term_passes(lang, line):
    assert not misuses_in(line, lang), misuses_in(line, lang)


def test_the_glossary_governs_every_text_file_in_three_languages():
    names = {path.relative_to(path.parents[1]).as_posix() for path in checked_text_files()}
    assert {"kit/common.toml", "web/ui.toml", "cli/spec_words.toml", "slides/words.toml"} <= names
    assert all(path.exists() for path in checked_text_files())


def test_a_misuse_names_its_file_key_and_language():
    misuse = misuses_in("слой нормировки", "ru", Path(__file__).parents[2] / "scenes" / "x.toml", "say.intro")[0]
    assert isinstance(misuse, Misuse)
    assert str(misuse) == "x.toml [say.intro] ru: 'нормировки' (glossary: normalization)"


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
