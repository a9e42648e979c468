"""``normgeo render``, ``still`` and ``gif``: scenes to videos, final-frame PNGs or web GIFs."""

from __future__ import annotations

import click

from scenes.cli.errors import UsageProblem, reports_bad_input
from scenes.cli.options import (encoder_preset_option, refuse_sound_for, render_options, scene_selection,
                                silent_voice_option, voice_option, whole_render_options, with_scene_arguments)
from scenes.cli.rendering import render_and_report
from scenes.render.checks import check_format, check_transparency
from scenes.render.settings import ANIMATION_FORMATS, FORMATS, GifOptions, RenderSettings, frames_for_width, parse_size
from scenes.render.voice.checks import check_voice

__all__ = ["render_command", "still_command", "gif_command"]


@click.command("render")
@with_scene_arguments
@render_options
@click.option("--format", "fmt", default="mp4", show_default=True, help=f"Output format: {', '.join(FORMATS)}.")
@click.option("--transparent", is_flag=True, help="Transparent background (mov, webm, png) for overlays.")
@encoder_preset_option
@voice_option
@reports_bad_input
def render_command(scene_ids, all_scenes, fmt, transparent, encoder_preset, voice, resolution, quality, **common) -> None:
    """Render scenes (default: all) into the output folder: videos (mp4, webm, mov) with subtitles
    (.srt and .vtt), narrated with --voice; png (the final frame) and gif (the web animation) have no
    subtitles and stay silent. Then `normgeo site` puts them on the site.

    \b
    Writes into the output folder only: <out>/<id>/<id>.<lang>.<theme>…<ext>
    (with .srt/.vtt beside a video) and <out>/manifest.json. A file is
    replaced only by a render of the same name (same scene, spec and
    settings) when its inputs changed or with --force, whole (written beside
    it, then renamed); other files are never touched or deleted.
    """
    check_format(fmt)
    check_transparency(fmt, transparent)
    selected = scene_selection(scene_ids, all_scenes)
    if fmt in ("gif", "png"):
        refuse_sound_for("a GIF" if fmt == "gif" else "a PNG still", voice)
    else:
        voice = check_voice(voice, selected, tuple(common["lang"]))
    settings = RenderSettings(quality, fmt, transparent, resolution, encoder_preset, voice)
    # GIFs always go through the lossless-frame pipeline of `normgeo gif` (with its defaults).
    gif = GifOptions(width=min(640, resolution[0] if resolution else 640)) if fmt == "gif" else None
    render_and_report(selected, settings, still=fmt == "png", gif=gif, **common)


@click.command("still")
@with_scene_arguments
@whole_render_options
@click.option("--transparent", is_flag=True, help="Transparent background.")
@reports_bad_input
def still_command(scene_ids, all_scenes, transparent, resolution, quality, **common) -> None:
    """The final frame of scenes as PNG: the figure for a blog post.

    \b
    Writes <out>/<id>/<id>.<lang>.<theme>[.<spec tag>].<quality>.png and
    <out>/manifest.json, nothing else; the same name is replaced only when
    its inputs changed (or with --force), whole.
    """
    settings = RenderSettings(quality, "png", transparent, resolution)
    render_and_report(scene_selection(scene_ids, all_scenes), settings, still=True, **common)


@click.command("gif")
@with_scene_arguments
@whole_render_options
@click.option("--width", type=click.IntRange(64, 3840), default=640, show_default=True, help="GIF width in pixels.")
@click.option("--fps", type=click.IntRange(1, 60), default=15, show_default=True, help="GIF frame rate.")
@click.option("--loop", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="Loop count (0 = forever); GIF and WebP only.")
@click.option("--max-size", "max_size", default=None, metavar="SIZE",
              help="Byte budget such as 2MB or 500k (GIF only): the best quality that fits. A budget no GIF of "
                   "that size can meet is refused before rendering (exit 2); one below the smallest GIF these "
                   "frames make fails the render once they are made (exit 1).")
@click.option("--format", "fmt", default="gif", show_default=True,
              help="gif; webp (animated WebP, lossy unless --lossless); mp4 (a small looping video for "
                   "<video autoplay muted loop playsinline>).")
@click.option("--lossless", is_flag=True, help="Lossless WebP (with --format webp).")
@silent_voice_option
@reports_bad_input
def gif_command(scene_ids, all_scenes, width, fps, loop, max_size, fmt, lossless, voice, resolution, quality,
                **common) -> None:
    """A web animation (GIF by default) built from lossless frames, with its size and SSIM reported
    (silent: --voice is refused).

    \b
    Writes <out>/<id>/<id>.<lang>.<theme>[.<spec tag>].<width>px[…].<ext>
    and its manifest entry, nothing else. Every setting that changes the
    bytes is in the name when it is not the default (frames from another
    -q or --resolution: .from<W>x<H>; --fps: .<fps>fps; --loop: .loop<n>;
    --max-size: .max<size>; --lossless), so runs with different settings
    never replace each other; the same settings again are cached.
    """
    refuse_sound_for("a web animation (GIF, WebP or looping MP4)", voice)
    if fmt not in ANIMATION_FORMATS:
        raise UsageProblem(f"unknown format {fmt!r} for an animation; choose one of {', '.join(ANIMATION_FORMATS)}")
    if lossless and fmt != "webp":
        raise UsageProblem("--lossless goes with --format webp")
    if loop != 0 and fmt == "mp4":
        raise UsageProblem(f"--loop {loop}: --loop goes with --format gif or webp (a looping MP4 plays as often "
                           "as its page says: <video loop>)")
    budget = None
    if max_size is not None:
        if fmt != "gif":
            raise UsageProblem("--max-size goes with --format gif")
        try:
            budget = parse_size(max_size)
        except ValueError:
            raise UsageProblem(f"--max-size expects a size such as 2MB or 500k, got {max_size!r}") from None
    settings = RenderSettings(quality, fmt, False, frames_for_width(width, quality, resolution))
    options = GifOptions(width, fps, loop, budget, fmt, lossless)
    render_and_report(scene_selection(scene_ids, all_scenes), settings, gif=options, **common)
