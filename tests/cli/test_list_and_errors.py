"""`normgeo list`, `--version`, and every kind of bad input: one line on stderr, exit status 2."""

import json

import pytest

import normgeo
from scenes.kit import languages
from scenes.kit.registry import scene_ids


def test_version(run):
    result = run("--version")
    assert result.exit_code == 0 and normgeo.__version__ in result.output


def test_list_prints_scenes_in_lecture_order(run):
    """One line per scene, numbered, in registry order."""
    lines = run("list").output.strip().splitlines()
    assert [line.split()[1] for line in lines] == scene_ids()


def test_list_json_gives_file_and_class_in_every_language(run):
    """--json: id, description, source file, class; --lang zh gives Chinese descriptions."""
    rows = json.loads(run("list", "--json", "--lang", "zh").output)
    assert [row["id"] for row in rows] == scene_ids()
    assert rows[0]["file"] == "scenes/radial_projection.py" and rows[0]["class"] == "RadialProjection"
    assert rows[0]["text"] == "scenes/radial_projection.toml"
    assert "径向投影" in rows[0]["description"]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["render", "radial-projektion"], "did you mean 'radial-projection'"),
        (["render", "radial-projection", "--set", "vectors=0,0;3,4"], "zero vector"),
        (["render", "radial-projection", "--set", "vectors=3,nan"], "finite"),
        (["render", "radial-projection", "--set", "vectors=3,4,5"], "2-D"),
        (["render", "radial-projection", "--set", "radius=-1"], "radius"),
        (["render", "radial-projection", "--set", "vectors"], "KEY=VALUE"),
        (["render", "radial-projection", "--set", "count=3"], "not a setting"),
        (["render", "radial-projection", "--lang", "de"], "unknown language 'de'"),
        (["render", "radial-projection", "--theme", "neon"], "unknown theme 'neon'"),
        (["render", "radial-projection", "-q", "x"], "unknown quality 'x'"),
        (["render", "radial-projection", "--format", "avi"], "unknown format 'avi'"),
        (["render", "radial-projection", "--format", "mp4", "--transparent"], "alpha-capable"),
        (["still", "radial-projection", "--spec", "/nonexistent/spec.toml"], "cannot read spec file"),
        (["list", "--lang", "fr"], "unknown language 'fr'"),
    ],
)
def test_bad_input_is_one_line_and_exit_status_two(run, args, expected, tmp_path):
    """Never a traceback: a single 'normgeo: error: …' line naming the problem."""
    result = run(*args, "--out", tmp_path) if args[0] != "list" else run(*args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("normgeo: error:") and expected in lines[0], result.stderr
    assert result.stdout == ""
    assert not any(tmp_path.rglob("*.mp4"))


def test_unwritable_output_folder(run, tmp_path):
    """An output 'folder' under a regular file cannot be created: exit 2 with the reason."""
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = run("still", "radial-projection", "--out", blocker / "renders")
    assert result.exit_code == 2 and "cannot write to output folder" in result.output


def test_missing_font_is_reported_before_rendering(run, tmp_path, monkeypatch):
    """If the CJK font is not installed, --lang zh stops at once with the apt command."""
    monkeypatch.setitem(languages.REQUIRED_SYSTEM_FONTS, "zh", "No Such Font 42")
    result = run("still", "radial-projection", "--lang", "zh", "--out", tmp_path)
    assert result.exit_code == 2 and "fonts-noto-cjk" in result.output


def test_bad_spec_file(run, tmp_path):
    """A spec file that is not TOML, or has a bad value, is refused."""
    bad = tmp_path / "bad.toml"
    bad.write_text("vectors = [[1, 2]\n")
    assert "not valid TOML" in run("still", "radial-projection", "--spec", bad, "--out", tmp_path).output
    zero = tmp_path / "zero.toml"
    zero.write_text('[radial-projection]\nvectors = [[0, 0]]\n')
    result = run("still", "radial-projection", "--spec", zero, "--out", tmp_path)
    assert result.exit_code == 2 and "zero vector" in result.output
