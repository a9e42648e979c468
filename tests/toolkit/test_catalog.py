"""The language catalog: every message in every language, with the same placeholders."""

import re

import pytest

from scenes.catalog import MESSAGES
from scenes.languages import LANGUAGES, message, placeholders, typst_preamble
from scenes.registry import SCENES

CJK = re.compile(r"[\u4e00-\u9fff]")
CYRILLIC = re.compile(r"[\u0400-\u04ff]")


def test_every_message_exists_in_every_language_with_the_same_placeholders():
    """No language is missing a message or a {placeholder} that the others fill."""
    for key, entry in MESSAGES.items():
        assert set(entry) == set(LANGUAGES), key
        expected = placeholders(entry["en"])
        for lang in LANGUAGES:
            assert entry[lang].strip(), (key, lang)
            assert placeholders(entry[lang]) == expected, (key, lang)


def test_prose_is_really_in_its_language():
    """Chinese prose contains CJK characters, Russian prose Cyrillic (names like 'LayerNorm' aside)."""
    # layer names, and "batch", which both sources keep in English
    names = {"L2", "RMSNorm", "LayerNorm", "BatchNorm", "GroupNorm", "Qwen2", "batch", "A", "B", "F", "RMS", "weight", "decay", "pre", "post", "norm"}
    for key, entry in MESSAGES.items():
        prose = re.sub(r"\$[^$]*\$|\{[^}]*\}", " ", entry["en"])
        words = [w for w in re.findall(r"[A-Za-z]+\d*", prose) if w not in names]
        if not words:
            continue  # formulas and layer names read the same in every language
        assert CJK.search(entry["zh"]), key
        assert CYRILLIC.search(entry["ru"]), key


def test_every_scene_has_a_title_and_a_description_in_every_language():
    """The registry's descriptions and the scenes' titles come from the catalog."""
    for scene in SCENES:
        for lang in LANGUAGES:
            assert scene.description(lang)
            assert message(f"scene.{scene.id}.title", lang)


def test_narration_is_plain_text_for_subtitles():
    """Narration lines (``*.say.*``) carry no Typst markup: they become .srt subtitles."""
    for key, entry in MESSAGES.items():
        if ".say." in key:
            for lang in LANGUAGES:
                assert "$" not in entry[lang] and "#" not in entry[lang], (key, lang)


def test_unknown_language_and_message_raise():
    """An unknown language or message id is an error, not a silent fallback."""
    with pytest.raises(ValueError, match="unknown language"):
        message("scene.radial-projection.title", "de")
    with pytest.raises(KeyError):
        message("no.such.message", "en")


def test_chinese_text_falls_back_to_a_cjk_font():
    """Typst text in Chinese lists Noto Sans CJK SC among its fonts."""
    assert "Noto Sans CJK SC" in typst_preamble("zh")
    assert 'lang: "ru"' in typst_preamble("ru")
