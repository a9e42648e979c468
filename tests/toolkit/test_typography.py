"""Typography of the site and the handout (issue 34): Russian no-break spaces between a number and
its unit ("1 %") and before a dash ("длина — это"), Chinese full-width punctuation in the Chinese
text of the files the UI, the CLI and the slides speak from. Read back from what is written: the
site's pages and the handout's data, built from real files."""

import dataclasses
import json
import tomllib
from pathlib import Path

import pytest

from scenes.kit.typography import NBSP, half_width_marks, typeset
from scenes.render.site import SiteStep, build_site
from scenes.render.site.words import ui_text
from scenes.render.slides.handout import write_handout
from scenes.render.slides.sources import DeckScene, DeckStep
from tests.site.conftest import make_scenes, write_gif, write_png, write_video, write_vtt

ROOT = Path(__file__).resolve().parents[2]
OWN_TEXTS = ["scenes/web/ui.toml", "scenes/cli/spec_words.toml", "scenes/render/slides/words.toml",
             "scenes/kit/common.toml"]


@pytest.mark.parametrize(("text", "expected"), [
    ("с точностью до 1 %", f"с точностью до 1{NBSP}%"),
    ("угол 90 °, за 3 с, файл 12 КБ, {seconds} с", f"угол 90{NBSP}°, за 3{NBSP}с, файл 12{NBSP}КБ, {{seconds}}{NBSP}с"),
    ("длина — это радиус", f"длина{NBSP}— это радиус"),
    ("‖x̂‖₂ — длина выхода", f"‖x̂‖₂{NBSP}— длина выхода"),
    ("3 сетки, 5 слоёв", "3 сетки, 5 слоёв"),  # a word, not a unit
    ("— в начале строки", "— в начале строки"),
])
def test_russian_keeps_a_number_with_its_unit_and_a_dash_off_the_line_start(text, expected):
    assert typeset(text, "ru") == expected
    assert typeset(expected, "ru") == expected


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_other_languages_are_left_as_written(lang):
    assert typeset("within 1 % — any 3 s", lang) == "within 1 % — any 3 s"


def _walk(table, key=""):
    """(key, Chinese text) of every message of a TOML table."""
    if isinstance(table, dict):
        if isinstance(table.get("zh"), str):
            yield key, table["zh"]
        for sub, value in table.items():
            yield from _walk(value, f"{key}.{sub}".strip("."))


def _zh_texts():
    for name in OWN_TEXTS:
        for key, text in _walk(tomllib.loads((ROOT / name).read_text(encoding="utf-8"))):
            yield f"{name} [{key}]", text


def test_half_width_marks_are_found_in_chinese_prose_and_not_in_formulas():
    assert half_width_marks("取值 1 … 6, 共 2 个值") == ["6, 共"]
    assert half_width_marks("保留原来的组数(见上)") == ["(见上)"]
    assert half_width_marks("RMSNorm(x) 与 LN(x) 的夹角；向量 (3, 4)") == []


@pytest.mark.parametrize(("where", "text"), list(_zh_texts()), ids=lambda v: v if "[" in str(v) else "")
def test_chinese_text_takes_full_width_punctuation(where, text):
    assert not half_width_marks(text), (where, half_width_marks(text))


def test_the_site_words_carry_russian_no_break_spaces():
    text = ui_text()
    for key, entry in text.items():
        assert " — " not in entry["ru"] and " %" not in entry["ru"], key
    assert text["page.kilobytes"]["ru"] == f"{{size}}{NBSP}КБ"
    assert text["present.rec.recording"]["ru"].endswith(f"{{seconds}}{NBSP}с")
    assert text["page.kilobytes"]["en"] == "{size} kB"


def test_the_site_pages_set_russian_titles_and_narration_with_no_break_spaces(tmp_path):
    """A real site built from the site tests' scene (its Russian title "Нормировка — это радиальная
    проекция") with a Russian step holding "1 %"."""
    for name in ("dark.mp4", "light.mp4"):
        write_video(tmp_path / name, seconds=0.5)
    write_png(tmp_path / "dark.png", (20, 20, 24))
    write_png(tmp_path / "light.png", (250, 250, 250))
    write_gif(tmp_path / "anim.gif")
    steps = [SiteStep(0.0, 0.5, "Вектор лежит на сфере с точностью до 1 %.")]
    for lang in ("en", "zh", "ru"):
        write_vtt(tmp_path / f"{lang}.vtt", steps)
    (scene,) = make_scenes(tmp_path, ["radial-projection"])
    scene = dataclasses.replace(scene, steps={**scene.steps, "ru": steps})
    build_site([scene], tmp_path / "site")
    page = (tmp_path / "site" / "index.ru.html").read_text(encoding="utf-8")
    assert f"Нормировка{NBSP}— это радиальная проекция" in page
    assert f"до 1{NBSP}%" in page and "до 1 %" not in page
    english = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "Normalization is a radial projection" in english and NBSP + "—" not in english


def test_the_handout_sets_russian_text_with_no_break_spaces(tmp_path):
    video = write_video(tmp_path / "scene.mp4", seconds=1.0)
    step = DeckStep(0.0, 0.9, "intro", "Каждый токен лежит на сфере с точностью до 1 % — какой бы ни была длина.")
    scene = DeckScene("layernorm-2d", "LayerNorm — это проекция", "Длина — не направление", video, "none", 108, 25,
                      (step,))
    work = tmp_path / "work"
    work.mkdir()
    report = write_handout([scene], tmp_path / "handout.pdf", "ru", work)
    assert report.frames == 1 and (tmp_path / "handout.pdf").stat().st_size > 0
    data = json.loads((work / "deck.json").read_text(encoding="utf-8"))
    (written,) = data["scenes"]
    assert written["title"] == f"LayerNorm{NBSP}— это проекция"
    assert written["description"] == f"Длина{NBSP}— не направление"
    said = f"Каждый токен лежит на сфере с точностью до 1{NBSP}%{NBSP}— какой бы ни была длина."
    assert written["steps"][0]["text"] == said
