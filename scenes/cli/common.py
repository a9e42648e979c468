"""Options shared by several commands, and the checks behind them."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import click

from scenes.cli.errors import UsageProblem
from scenes.render.settings import FORMATS, QUALITIES, TRANSPARENT_FORMATS
from scenes.kit.languages import DEFAULT_LANGUAGE, LANGUAGES, REQUIRED_SYSTEM_FONTS
from scenes.kit.registry import SCENES, UnknownSceneError, entry
from scenes.kit.spec import SceneSpec, SpecError
from scenes.kit.theme import DEFAULT_THEME, THEMES

__all__ = [
    "lang_option",
    "theme_option",
    "quality_option",
    "out_option",
    "scene_selection",
    "build_specs",
    "check_output_folder",
    "check_fonts",
    "check_manim",
    "parse_assignments",
]


def _choice_callback(kind: str, known):
    def check(ctx, param, value):
        if value is not None and value not in known:
            raise UsageProblem(f"unknown {kind} {value!r}; choose one of {', '.join(known)}")
        return value

    return check


lang_option = click.option("--lang", default=DEFAULT_LANGUAGE, show_default=True,
                           callback=_choice_callback("language", LANGUAGES),
                           help=f"Language of on-screen text and subtitles: {', '.join(LANGUAGES)}.")
theme_option = click.option("--theme", default=DEFAULT_THEME, show_default=True,
                            callback=_choice_callback("theme", tuple(THEMES)),
                            help="dark (lecture video) or light (white background for blogs).")
quality_option = click.option("-q", "--quality", default="l", show_default=True,
                              callback=_choice_callback("quality", tuple(QUALITIES)),
                              help="l 480p15, m 720p30, h 1080p60, k 2160p60 (Manim's presets).")
out_option = click.option("--out", "out_dir", default="renders", show_default=True, type=click.Path(path_type=Path),
                          help="Output folder.")


def scene_selection(ids: tuple[str, ...], all_scenes: bool) -> list[str]:
    """The scene ids asked for, in lecture order when --all; unknown ids get a "did you mean"."""
    if all_scenes or not ids:
        return [scene.id for scene in SCENES]
    selected = []
    for scene_id in ids:
        try:
            selected.append(entry(scene_id).id)
        except UnknownSceneError as error:
            raise UsageProblem(str(error)) from None
    return list(dict.fromkeys(selected))


def parse_assignments(assignments: tuple[str, ...]) -> dict[str, str]:
    """``KEY=VALUE`` strings as a dict; a string without ``=`` is a usage error."""
    parsed = {}
    for item in assignments:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageProblem(f"--set expects KEY=VALUE, got {item!r}")
        parsed[key.strip()] = value
    return parsed


def _spec_file_values(spec_file: Path | None) -> dict:
    if spec_file is None:
        return {}
    import tomllib

    try:
        data = tomllib.loads(Path(spec_file).read_text(encoding="utf-8"))
    except OSError as error:
        raise UsageProblem(f"cannot read spec file {spec_file}: {error.strerror}") from None
    except tomllib.TOMLDecodeError as error:
        raise UsageProblem(f"spec file {spec_file} is not valid TOML: {error}") from None
    return data


def _toml_value(value):
    if isinstance(value, list):
        if value and all(isinstance(v, list) for v in value):
            return tuple(tuple(float(x) for x in v) for v in value)
        if all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            return tuple(value)
        return tuple(float(v) for v in value)
    return value


def build_specs(scene_ids: list[str], lang: str, theme: str, assignments: dict[str, str],
                spec_file: Path | None = None) -> dict[str, SceneSpec]:
    """One validated spec per scene: defaults, then the spec file (a table per scene id, or
    top-level keys for every scene), then ``--set`` values. Bad values are usage errors."""
    file_values = _spec_file_values(spec_file)
    specs = {}
    for key in assignments:
        name = key.replace("-", "_")
        if not any(name in entry(i).load().spec_class.field_names() for i in scene_ids):
            raise UsageProblem(f"--set {key}: not a setting of {', '.join(scene_ids)}")
    for scene_id in scene_ids:
        spec_class = entry(scene_id).load().spec_class
        fields = spec_class.field_names()
        overrides: dict[str, object] = {"lang": lang, "theme": theme}
        shared = {k: v for k, v in file_values.items() if not isinstance(v, dict)}
        for source in (shared, file_values.get(scene_id, {})):
            overrides.update({k.replace("-", "_"): _toml_value(v) for k, v in source.items() if k.replace("-", "_") in fields})
        overrides.update({k: v for k, v in assignments.items() if k.replace("-", "_") in fields})
        try:
            specs[scene_id] = spec_class().with_overrides(overrides)
        except SpecError as error:
            raise UsageProblem(f"{scene_id}: {error}") from None
    return specs


def check_output_folder(out_dir: Path) -> Path:
    """Create ``out_dir`` if needed and prove it is writable."""
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=out_dir, prefix=".write-test-"):
            pass
    except OSError as error:
        raise UsageProblem(f"cannot write to output folder {out_dir}: {error.strerror or error}") from None
    return out_dir


def check_fonts(lang: str) -> None:
    """A language whose glyphs need a system font (Chinese) fails early if it is missing."""
    font = REQUIRED_SYSTEM_FONTS.get(lang)
    if font is None or os.environ.get("NORMGEO_SKIP_FONT_CHECK"):
        return
    if shutil.which("fc-list") is None:
        raise UsageProblem(f"cannot check for the font {font!r} (fc-list is missing): install fontconfig and fonts-noto-cjk")
    listed = subprocess.run(["fc-list", ":", "family"], capture_output=True, text=True, check=False).stdout
    if font not in listed:
        raise UsageProblem(f"missing system font {font!r} for --lang {lang}: install it with apt-get install fonts-noto-cjk")


def check_manim() -> None:
    """Manim and its compiled libraries load, or a one-line reason why not."""
    try:
        import manim  # noqa: F401
    except ImportError as error:
        raise UsageProblem(f"manim cannot be loaded ({error}); run ./run setup to install cairo, pango and manim") from None


def check_transparency(fmt: str, transparent: bool) -> None:
    if transparent and fmt not in TRANSPARENT_FORMATS:
        raise UsageProblem(f"--transparent needs an alpha-capable format ({', '.join(TRANSPARENT_FORMATS)}), not {fmt}")


def check_format(fmt: str) -> str:
    if fmt not in FORMATS:
        raise UsageProblem(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    return fmt
