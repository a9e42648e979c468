"""Options shared by the commands, each declared once here and attached by the decorators below."""

from __future__ import annotations

from pathlib import Path

import click

from scenes.cli.errors import UsageProblem
from scenes.kit.languages import DEFAULT_LANGUAGE, LANGUAGES
from scenes.kit.registry import LECTURE_ORDER, UnknownSceneError, entry
from scenes.kit.theme import DEFAULT_THEME, THEMES
from scenes.render.settings import (DEFAULT_ENCODER_PRESET, DEFAULT_QUALITY, MANIM_ENCODER_PRESET, QUALITIES,
                                   X264_PRESETS, parse_resolution)

__all__ = ["one_of", "chosen_voice", "lang_option", "page_lang_option", "theme_option", "out_option", "scene_arguments", "render_options",
           "whole_render_options", "scene_selection", "resolution_value", "matrix_value", "encoder_preset_option",
           "voice_option", "silent_voice_option", "site_voice_option", "refuse_sound_for", "lecture_scenes_option"]


def one_of(kind: str, known):
    """A click callback refusing a value not in ``known`` with one line naming the choices."""
    def check(ctx, param, value):
        if value is not None and value not in known:
            raise UsageProblem(f"unknown {kind} {value!r}; choose one of {', '.join(known)}")
        return value

    return check


def chosen_voice(voice: str, what: str) -> str | None:
    """``--voice`` of a command that picks rendered videos (site, slides): ``any`` is None (a narrated
    video where there is one), else the voice as ``render`` takes it; anything else is one line."""
    voice = voice.strip()
    kind, _, rest = voice.partition(":")
    if voice in ("any", "none", "en", "ru") or (kind in ("piper", "recordings") and rest):
        return None if voice == "any" else voice
    raise UsageProblem(f"unknown voice {voice!r} for {what} (use any, none, en, ru, piper:PATH.onnx or recordings:DIR)")


def matrix_value(kind: str, known, option: str):
    """``en``, ``en,zh`` or ``all`` → a tuple of known values in the order given (``all``: every
    one); anything else is one line naming the bad value."""

    def check(ctx, param, text):
        if text is None:
            return None
        if text.strip().lower() == "all":
            return tuple(known)
        values = [value.strip() for value in text.split(",")]
        for value in values:
            if value not in known:
                raise UsageProblem(f"unknown {kind} {value!r} in {option} {text}; "
                                   f"choose from {', '.join(known)} or all")
        return tuple(dict.fromkeys(values))

    return check


def resolution_value(ctx, param, text):
    if text is None:
        return None
    try:
        return parse_resolution(text)
    except ValueError as error:
        raise UsageProblem(f"--resolution {text!r}: {error}") from None


lang_option = click.option("--lang", default=DEFAULT_LANGUAGE, show_default=True, callback=one_of("language", LANGUAGES),
                           help=f"Language of on-screen text and subtitles: {', '.join(LANGUAGES)}.")
page_lang_option = click.option(
    "--lang", default=DEFAULT_LANGUAGE, show_default=True, callback=one_of("language", LANGUAGES),
    help=f"The language of index.html, the page a reader opens first ({', '.join(LANGUAGES)}); a page for "
         "every language (index.<lang>.html) is built from whatever was rendered.")
theme_option = click.option("--theme", default=DEFAULT_THEME, show_default=True, callback=one_of("theme", tuple(THEMES)),
                            help="dark (lecture video) or light (white background for blogs).")
langs_option = click.option("--lang", default=DEFAULT_LANGUAGE, show_default=True,
                             callback=matrix_value("language", LANGUAGES, "--lang"), metavar="L[,L…]|all",
                             help=f"Language(s) of on-screen text and subtitles: {', '.join(LANGUAGES)}, a "
                                  "comma-separated list, or all; every language × theme combination is rendered.")
themes_option = click.option("--theme", default=DEFAULT_THEME, show_default=True,
                             callback=matrix_value("theme", tuple(THEMES), "--theme"), metavar="T[,T…]|all",
                             help="dark (lecture video), light (white background for blogs), dark,light or all.")
out_option = click.option("--out", "out_dir", default="renders", show_default=True, type=click.Path(path_type=Path),
                          help="Output folder.")
quality_option = click.option("-q", "--quality", default=DEFAULT_QUALITY, show_default=True,
                              callback=one_of("quality", tuple(QUALITIES)),
                              help="l 480p15, m 720p30, h 1080p60, k 2160p60 (Manim's presets).")
resolution_option = click.option("--resolution", default=None, metavar="WxH", callback=resolution_value,
                                 help="Pixel size instead of the preset's (frame rate still from -q), e.g. 1080x1080.")
set_option = click.option("--set", "assignments", multiple=True, metavar="KEY=VALUE",
                          help='Change a spec setting, e.g. --set vectors="3,4;6,8;-2,1". Repeatable, each key '
                               "once; it wins over the same key in --spec (the summary says so). `normgeo spec "
                               "ID` lists a scene's settings.")
spec_option = click.option("--spec", "spec_file", type=click.Path(path_type=Path), default=None,
                           help="A TOML file of settings: a [scene-id] table per scene, and top-level keys for "
                                "every selected scene that has them (a top-level key that no selected scene has "
                                "is refused). --set wins over it key by key.")
jobs_option = click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None,
                           help="Scenes rendered at once, each in its own process (default: number of cores).")
scheduler_option = click.option("--scheduler", default=None, envvar="NORMGEO_SCHEDULER", metavar="tcp://HOST:PORT",
                                help="Render on a Dask cluster (`dask scheduler`, then `normgeo worker "
                                     "tcp://HOST:PORT` on each machine with normgeo) instead of local processes; "
                                     "also NORMGEO_SCHEDULER. Needs pip install 'normgeo[cluster]'.")
split_option = click.option("--split", type=click.IntRange(1, 64), default=1, show_default=True, metavar="N",
                            help="Render each video as N ranges of its animations on N workers and join them "
                                 "(no re-encode; same frames and subtitles as one piece). Videos only: stills "
                                 "and GIFs render whole.")
encoder_preset_option = click.option(
    "--encoder-preset", default=DEFAULT_ENCODER_PRESET, show_default=True,
    callback=one_of("encoder preset", X264_PRESETS), metavar="PRESET",
    help=f"x264 preset of H.264 video (mp4, opaque mov): {', '.join(X264_PRESETS)}. {MANIM_ENCODER_PRESET} is "
         "what plain Manim uses (slower); the quality target, CRF 23, is Manim's either way.")
voice_option = click.option(
    "--voice", "voice", default="none", show_default=True, metavar="VOICE",
    help="Narration: none; en (Piper, bundled voice); ru (Festival, unit selection); piper:PATH.onnx (a Piper "
         "voice file, with its .onnx.json); recordings:DIR (DIR/<scene>/<step>.<lang>.wav|flac|ogg|mp3).")
silent_voice_option = click.option(
    "--voice", "voice", default="none", hidden=True, metavar="VOICE",
    help="Refused: a web animation has no sound track (narrate a video: `normgeo render --voice`).")
site_voice_option = click.option(
    "--voice", "voice", default="any", show_default=True, metavar="VOICE",
    help="Which videos the pages play: any (a narrated one where the folder has one, else the silent one); "
         "none (silent only); en, ru, piper:PATH.onnx or recordings:DIR (those narrated so, as given to render).")
force_option = click.option("--force", is_flag=True, help="Render even if an identical render is already there.")
quiet_option = click.option("--quiet", is_flag=True, help="Print nothing but errors.")
verbose_option = click.option("--verbose", is_flag=True, help="Show Manim's own log.")

scene_arguments = [
    click.argument("scene_ids", nargs=-1),
    click.option("--all", "all_scenes", is_flag=True,
                 help="Every scene, in lecture order (the default without scene ids; refused with them)."),
]


def render_options(function, split: bool = True):
    """Every option a rendering command takes (render, lecture); ``split=False`` leaves out --split,
    which only videos use (still, gif)."""
    for option in reversed([quality_option, resolution_option, langs_option, themes_option, out_option, set_option,
                            spec_option, jobs_option, scheduler_option, *([split_option] if split else []),
                            force_option, quiet_option, verbose_option]):
        function = option(function)
    return function


def whole_render_options(function):
    """The options of a command whose outputs render whole (still, gif): all but --split."""
    return render_options(function, split=False)


def with_scene_arguments(function):
    for argument in reversed(scene_arguments):
        function = argument(function)
    return function


def scene_selection(ids: tuple[str, ...], all_scenes: bool) -> list[str]:
    """The scene ids asked for (every scene, in lecture order, when none or --all); unknown ids get a
    "did you mean"; --all with ids is refused (one of the two would be dropped)."""
    if all_scenes and ids:
        raise UsageProblem(f"--all and scene ids ({' '.join(ids)}) given together: give the ids, or --all alone")
    if all_scenes or not ids:
        return list(LECTURE_ORDER)
    selected = []
    for scene_id in ids:
        try:
            selected.append(entry(scene_id).id)
        except UnknownSceneError as error:
            raise UsageProblem(str(error)) from None
    return list(dict.fromkeys(selected))


def scene_list_value(ctx, param, text):
    """``ID[,ID…]`` → the scene ids in the order given (None: not given); an unknown id (with a "did
    you mean"), an empty one or one given twice is one line."""
    if text is None:
        return None
    ids = [value.strip() for value in text.split(",")]
    for scene_id in ids:
        if not scene_id:
            raise UsageProblem(f"--scenes {text!r}: an empty scene id; give ID[,ID…] (`normgeo list` lists them)")
        try:
            entry(scene_id)
        except UnknownSceneError as error:
            raise UsageProblem(f"--scenes: {error}") from None
    if twice := sorted({scene_id for scene_id in ids if ids.count(scene_id) > 1}):
        raise UsageProblem(f"--scenes: {', '.join(twice)} given twice; a lecture has each scene once")
    return tuple(ids)


lecture_scenes_option = click.option(
    "--scenes", "scene_ids", default=None, metavar="ID[,ID…]", callback=scene_list_value,
    help="A lecture of these scenes only, in the order given (default: every scene in lecture order); "
         "its file name carries a tag of the selection, so it never replaces the whole lecture (the site "
         "plays only the whole one).")


def refuse_sound_for(what: str, voice: str) -> None:
    """``--voice`` other than none on a format with no sound track: one line, exit 2."""
    if voice.strip() != "none":
        raise UsageProblem(f"--voice {voice}: {what} has no sound track, so it cannot be narrated "
                           "(narrate a video: `normgeo render --voice`, mp4, webm or mov)")
