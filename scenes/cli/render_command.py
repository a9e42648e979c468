"""``normgeo render``, ``still`` and ``gif``: scenes to videos, final-frame PNGs or web GIFs."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from scenes.cli.errors import UsageProblem, reports_bad_input
from scenes.cli.options import encoder_preset_option, render_options, scene_selection, with_scene_arguments
from scenes.cli.progress import TerminalReporter, summary_line
from scenes.render import (
    ANIMATION_FORMATS,
    FORMATS,
    GifOptions,
    RenderJob,
    RenderResult,
    RenderSettings,
    build_specs,
    check_fonts,
    check_format,
    check_manim,
    check_output_folder,
    check_transparency,
    parse_assignments,
    parse_size,
    run_jobs,
)

__all__ = ["render_command", "still_command", "gif_command", "render_batch"]


@click.command("render")
@with_scene_arguments
@render_options
@click.option("--format", "fmt", default="mp4", show_default=True, help=f"Output format: {', '.join(FORMATS)}.")
@click.option("--transparent", is_flag=True, help="Transparent background (mov, webm, png) for overlays.")
@encoder_preset_option
@reports_bad_input
def render_command(scene_ids, all_scenes, fmt, transparent, encoder_preset, resolution, quality, **common) -> None:
    """Render scenes (default: all) to video with subtitles (.srt and .vtt) into the output folder."""
    check_format(fmt)
    check_transparency(fmt, transparent)
    settings = RenderSettings(quality, fmt, transparent, resolution, encoder_preset)
    # GIFs always go through the lossless-frame pipeline of `normgeo gif` (with its defaults).
    gif = GifOptions(width=min(640, resolution[0] if resolution else 640)) if fmt == "gif" else None
    render_batch(scene_selection(scene_ids, all_scenes), settings, still=fmt == "png", gif=gif, **common)


@click.command("still")
@with_scene_arguments
@render_options
@click.option("--transparent", is_flag=True, help="Transparent background.")
@reports_bad_input
def still_command(scene_ids, all_scenes, transparent, resolution, quality, **common) -> None:
    """The final frame of scenes as PNG: the figure for a blog post."""
    settings = RenderSettings(quality, "png", transparent, resolution)
    render_batch(scene_selection(scene_ids, all_scenes), settings, still=True, **common)


@click.command("gif")
@with_scene_arguments
@render_options
@click.option("--width", type=click.IntRange(64, 3840), default=640, show_default=True, help="GIF width in pixels.")
@click.option("--fps", type=click.IntRange(1, 60), default=15, show_default=True, help="GIF frame rate.")
@click.option("--loop", type=click.IntRange(0, 65535), default=0, show_default=True, help="Loop count (0 = forever).")
@click.option("--max-size", "max_size", default=None, metavar="SIZE",
              help="Byte budget such as 2MB or 500k (GIF only): the best quality that fits; a budget below the "
                   "smallest GIF the frames make is refused, and the render fails (exit 1).")
@click.option("--format", "fmt", default="gif", show_default=True,
              help="gif; webp (animated WebP, lossy unless --lossless); mp4 (a small looping video for "
                   "<video autoplay muted loop playsinline>).")
@click.option("--lossless", is_flag=True, help="Lossless WebP (with --format webp).")
@reports_bad_input
def gif_command(scene_ids, all_scenes, width, fps, loop, max_size, fmt, lossless, resolution, quality, **common) -> None:
    """A web animation (GIF by default) built from lossless frames, with its size and SSIM reported."""
    if fmt not in ANIMATION_FORMATS:
        raise UsageProblem(f"unknown format {fmt!r} for an animation; choose one of {', '.join(ANIMATION_FORMATS)}")
    if lossless and fmt != "webp":
        raise UsageProblem("--lossless goes with --format webp")
    budget = None
    if max_size is not None:
        if fmt != "gif":
            raise UsageProblem("--max-size goes with --format gif")
        try:
            budget = parse_size(max_size)
        except ValueError:
            raise UsageProblem(f"--max-size expects a size such as 2MB or 500k, got {max_size!r}") from None
    settings = RenderSettings(quality, fmt, False, resolution)
    options = GifOptions(width, fps, loop, budget, fmt, lossless)
    render_batch(scene_selection(scene_ids, all_scenes), settings, gif=options, **common)


def render_batch(scene_ids: list[str], settings: RenderSettings, *, lang: tuple[str, ...], theme: tuple[str, ...],
                 out_dir: Path, assignments: tuple[str, ...], spec_file: Path | None, jobs: int | None,
                 scheduler: str | None = None, split: int = 1, force: bool, quiet: bool, verbose: bool,
                 still: bool = False, gif: GifOptions | None = None,
                 exit_on_failure: bool = True) -> list[RenderResult]:
    """Check the input, build the specs of every language × theme × scene, render what changed
    (local processes, or the Dask cluster at ``scheduler``) with a progress display, print a
    summary; exit 1 if any job failed (the others still render). Results are in the order
    language, theme, scene."""
    langs, themes = _as_tuple(lang), _as_tuple(theme)
    check_manim()
    for language in langs:
        check_fonts(language)
    assignments = parse_assignments(assignments)
    out_dir = check_output_folder(Path(out_dir))
    render_jobs = []
    for language in langs:
        for colours in themes:
            specs = build_specs(scene_ids, language, colours, assignments, spec_file)
            render_jobs += [RenderJob(i, specs[i], settings, out_dir, force=force, still=still, gif=gif)
                            for i in scene_ids]
    executor = open_executor(scheduler, langs) if scheduler else None
    reporter = TerminalReporter(len(render_jobs), quiet, matrix=(len(scene_ids), len(langs), len(themes)),
                                where=f"Dask at {scheduler}" if scheduler else None)
    try:
        with reporter:
            results = run_jobs(render_jobs, jobs or os.cpu_count() or 1, verbose, reporter, executor=executor,
                               split=split)
    except KeyboardInterrupt:
        note = "; the cluster's jobs were cancelled" if executor else ""
        click.echo(f"normgeo: interrupted{note}; finished files are kept and recorded, unfinished ones were discarded",
                   err=True)
        sys.exit(130)
    finally:
        if executor is not None:
            executor.close()
    reporter.console.print(summary_line(results, out_dir))
    if exit_on_failure and any(result.status == "failed" for result in results):
        sys.exit(1)
    return results


def _as_tuple(value) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value)


def open_executor(scheduler: str, languages: tuple[str, ...] = ()):
    """The Dask executor for ``scheduler``; every refusal is one line (exit 2)."""
    from scenes.render.executors import DaskExecutor

    if "://" not in scheduler:
        raise UsageProblem(f"--scheduler expects an address such as tcp://HOST:8786, got {scheduler!r}")
    return DaskExecutor(scheduler, languages=languages)
