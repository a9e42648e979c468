"""The text beside each scene: every message in every language with the same placeholders, real
prose in each language, CLDR plural forms, and a description for every setting."""

import re
from decimal import Decimal
from pathlib import Path

import pytest
from babel import Locale

from scenes.kit.languages import LANGUAGES, typst_preamble
from scenes.kit.numbers import BABEL_LOCALES, NumberFormat
from scenes.kit.registry import SCENES
from scenes.kit.claims import Outcome
from scenes.kit.text import COMMON_TEXT, TextError, fill, message, placeholders, plural_forms, text_file

CJK = re.compile(r"[\u4e00-\u9fff]")
CYRILLIC = re.compile(r"[\u0400-\u04ff]")
TEXT_FILES = [COMMON_TEXT, *(scene.text_file for scene in SCENES)]


def all_messages():
    for path in TEXT_FILES:
        for key, entry in text_file(path).messages.items():
            yield path, key, entry


def test_every_scene_has_its_text_file_beside_its_module():
    """scenes/<name>.py and scenes/<name>.toml, with a title, a description and narrated steps."""
    for scene in SCENES:
        assert scene.source_file.is_file() and scene.text_file.is_file(), scene.id
        assert scene.text_file.with_suffix(".py") == scene.source_file
        for lang in LANGUAGES:
            assert scene.title(lang) and scene.description(lang)
        assert text_file(scene.text_file).steps(), scene.id


def test_every_message_exists_in_every_language_with_the_same_placeholders():
    """No language is missing a message or a {placeholder} that the others fill."""
    for path, key, entry in all_messages():
        assert set(entry) == set(LANGUAGES), (path.name, key)
        expected = placeholders(entry["en"])
        for lang in LANGUAGES:
            assert entry[lang].strip(), (path.name, key, lang)
            assert placeholders(entry[lang]) == expected, (path.name, key, lang)


def test_prose_is_really_in_its_language():
    """Chinese prose contains CJK characters, Russian prose Cyrillic (names like 'LayerNorm' aside)."""
    # layer names, and words both sources keep in English
    names = {"L2", "RMSNorm", "LayerNorm", "BatchNorm", "GroupNorm", "Qwen2", "batch", "A", "B", "F", "RMS", "weight",
             "decay", "pre", "post", "norm", "wire", "surface", "learning", "rate", "SGD", "seed"}
    for path, key, entry in all_messages():
        prose = re.sub(r"\$[^$]*\$|\{[^{}]*\}", " ", re.sub(r"\{\w+, plural,", " ", entry["en"]))
        words = [w for w in re.findall(r"[A-Za-z]+\d*", prose) if w not in names and w not in
                 {"one", "other", "few", "many", "plural"}]
        if not words:
            continue  # formulas and layer names read the same in every language
        assert CJK.search(entry["zh"]), (path.name, key)
        assert CYRILLIC.search(entry["ru"]), (path.name, key)


def test_narration_is_plain_text_for_subtitles():
    """Narration (``say.*``) carries no Typst markup: it becomes .srt subtitles."""
    for path, key, entry in all_messages():
        if key.startswith("say."):
            for lang in LANGUAGES:
                assert "$" not in entry[lang] and "#" not in re.sub(r"\{\w+, plural,.*", "", entry[lang]), (path.name, key)


def test_every_setting_is_described_in_every_language():
    """`normgeo spec ID` explains each setting from the scene's text file ([spec.<field>])."""
    for scene in SCENES:
        spec_type = scene.load().spec_class
        for setting in spec_type.settings():
            for lang in LANGUAGES:
                assert message(scene.id, f"spec.{setting.name}", lang), (scene.id, setting.name, lang)


COUNTED = [(path, key, lang, entry[lang]) for path, key, entry in all_messages() for lang in LANGUAGES
           if plural_forms(entry[lang])]


def test_some_messages_are_counted():
    assert len({(p, k) for p, k, _, _ in COUNTED}) >= 15


@pytest.mark.parametrize(("path", "key", "lang", "template"), COUNTED,
                         ids=[f"{p.stem}:{k}:{lang}" for p, k, lang, _ in COUNTED])
def test_counted_messages_follow_cldr_plural_rules_for_0_to_200(path, key, lang, template):
    """Each counted message names every plural category of its language, and for n = 0…200 the
    branch it renders is the one CLDR (Babel) gives for n."""
    rule = Locale.parse(BABEL_LOCALES[lang]).plural_form
    categories = set(rule.tags) | {"other"}
    for name, forms in plural_forms(template).items():
        assert forms == categories, (name, forms, categories)
    others = {name: "7" for name in placeholders(template)}
    for name in plural_forms(template):
        for n in range(201):
            chosen: dict[str, str] = {}
            text = fill(template, lang, others | {name: n}, chosen=chosen)
            assert chosen[name] == rule(Decimal(n)), (name, n, chosen)
            assert NumberFormat(lang).integer(n) in text


@pytest.mark.parametrize(("lang", "n", "expected"), [
    ("ru", 24, "24 случайных входа"), ("ru", 21, "21 случайный вход"), ("ru", 25, "25 случайных входов"),
    ("en", 1, "1 random input"), ("en", 24, "24 random inputs"), ("zh", 24, "24 个随机输入"),
])
def test_known_sentences_agree_with_their_numbers(lang, n, expected):
    """The sentences the issue quoted as wrong now agree in number."""
    assert expected in message("layernorm-2d", "say.inputs", lang, count=n)


def test_decimal_numbers_take_the_language_form():
    """Russian: decimal comma, and "в 5,7 раза" (CLDR "other" for fractions), not "в 5.7 раз"."""
    ratio = NumberFormat("ru").number(5.7, 1)
    assert ratio == "5,7"
    cut = Outcome("batchnorm_cuts_shift", "true")
    values = {"plain": "0,1", "none": "0,8", "cut": "8"}
    assert "в 5,7 раза" in message("covariate-shift", "say.shift", "ru", cut, ratio=ratio, **values)
    assert "в 5 раз" in message("covariate-shift", "say.shift", "ru", cut, ratio=NumberFormat("ru").number(5, 1), **values)


def test_numbers_inside_typst_math_keep_their_decimal_comma_together():
    """$…$ gets 0","6 so that Typst does not space the comma like a list separator."""
    assert fill("$x = {x}$", "ru", {"x": "(0,6; 0,8)"}) == '$x = (0","6"; "0","8)$'
    assert fill("x = {x}", "ru", {"x": "(0,6; 0,8)"}) == "x = (0,6; 0,8)"


@pytest.mark.parametrize("bad", ["{", "}", "{count, plural, one {x}}", "{1abc}", "{n, plural, one {x} other {y}"])
def test_malformed_templates_are_refused(bad):
    with pytest.raises(TextError):
        fill(bad, "en", {"n": 1, "count": 1})


def test_a_float_must_be_formatted_by_the_scene_first():
    """Digits are the scene's choice: a raw float never reaches a sentence."""
    with pytest.raises(TextError, match="format"):
        fill("{x}", "en", {"x": 0.1 + 0.2})


def test_unknown_language_and_message_raise():
    """An unknown language or message is an error, not a silent fallback."""
    with pytest.raises(ValueError, match="unknown language"):
        message("radial-projection", "title", "de")
    with pytest.raises(TextError):
        message("radial-projection", "no.such.message", "en")


def test_chinese_text_falls_back_to_a_cjk_font():
    """Typst text in Chinese lists Noto Sans CJK SC among its fonts."""
    assert "Noto Sans CJK SC" in typst_preamble("zh")
    assert 'lang: "ru"' in typst_preamble("ru")


def test_text_files_are_toml_literal_strings():
    """Typst markup (backslashes) needs no escaping: every value is a literal string."""
    for path in TEXT_FILES:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            if re.match(r"(en|zh|ru) = ", line):
                assert line.split(" = ", 1)[1][0] == "'", (path.name, line)
