"""The render matrix: `--lang en,zh,ru|all` × `--theme dark,light|all` on render, still, gif and
lecture, with today's output names; bad values are one line and exit 2."""

import json

import av
import pytest

from scenes.cli.options import matrix_value
from scenes.cli.errors import UsageProblem
from scenes.kit.languages import LANGUAGES
from scenes.kit.theme import THEMES

TINY = ("--resolution", "192x108")


def parse_lang(text):
    return matrix_value("language", LANGUAGES, "--lang")(None, None, text)


def test_lists_and_all():
    """One value, a list in the order given (duplicates once), or all in the catalogue's order."""
    assert parse_lang("zh") == ("zh",)
    assert parse_lang("ru, en,ru") == ("ru", "en")
    assert parse_lang("all") == tuple(LANGUAGES) == ("en", "zh", "ru")
    assert matrix_value("theme", tuple(THEMES), "--theme")(None, None, "all") == ("dark", "light")
    with pytest.raises(UsageProblem, match="unknown language 'de'"):
        parse_lang("en,de")


@pytest.mark.parametrize(("args", "expected"), [
    (["still", "--lang", "en,de"], "unknown language 'de'"),
    (["gif", "--theme", "dark,neon"], "unknown theme 'neon'"),
    (["lecture", "--lang", "al"], "unknown language 'al'"),
    (["render", "--split", "0"], "--split"),
    (["render", "--scheduler", "localhost:8786"], "tcp://HOST:8786"),
])
def test_bad_matrix_values_are_one_line_and_exit_two(run, tmp_path, args, expected):
    result = run(*args, "--out", tmp_path)
    assert result.exit_code == 2 and expected in result.output
    assert "Traceback" not in result.output
    assert not list(tmp_path.rglob("*.png"))


@pytest.mark.render
def test_still_for_two_languages_and_every_theme(run, tmp_path):
    """--lang en,ru --theme all: four stills with the names a single render gives each."""
    result = run("still", "scale-invariance", "--lang", "en,ru", "--theme", "all", *TINY, "--jobs", 2,
                 "--out", tmp_path)
    assert result.exit_code == 0, result.output
    assert "4 made" in result.output
    names = {p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.png") if "site" not in p.parts}
    assert names == {f"scale-invariance/scale-invariance.{lang}.{theme}.192x108p15.png"
                     for lang in ("en", "ru") for theme in ("dark", "light")}
    records = json.loads((tmp_path / "manifest.json").read_text())["artifacts"]
    assert {(r["spec"]["lang"], r["spec"]["theme"]) for r in records.values()} == \
        {("en", "dark"), ("en", "light"), ("ru", "dark"), ("ru", "light")}


@pytest.mark.render
def test_lecture_joins_one_lecture_per_language_and_theme(run, tmp_path):
    """`lecture --lang en,ru` (of one scene): one joined lecture per language, each with its own subtitles."""
    result = run("lecture", "--scenes", "scale-invariance", "--lang", "en,ru", *TINY, "--jobs", 2, "--out", tmp_path)
    assert result.exit_code == 0, result.output
    for lang in ("en", "ru"):
        [video] = (tmp_path / "lecture").glob(f"lecture.{lang}.dark.????????.192x108p15.mp4")  # the selection's tag
        with av.open(str(video)) as container:
            assert len(container.chapters()) == 1
        assert video.with_suffix(".srt").is_file()
        if lang == "ru":
            assert "норм" in video.with_suffix(".srt").read_text(encoding="utf-8").lower()
