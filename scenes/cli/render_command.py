"""``normgeo render`` and ``normgeo still``: scenes to video files or final-frame PNGs."""

from __future__ import annotations

import multiprocessing
import os
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from scenes.cli.common import (
    build_specs,
    check_fonts,
    check_format,
    check_manim,
    check_output_folder,
    check_transparency,
    lang_option,
    out_option,
    parse_assignments,
    quality_option,
    scene_selection,
    theme_option,
)
from scenes.render.jobs import Manifest, RenderJob, RenderResult, input_hash, is_cached, render_job
from scenes.cli.errors import UsageProblem
from scenes.render.settings import FORMATS, GifOptions, RenderSettings, parse_resolution, parse_size

__all__ = ["render_command", "still_command", "gif_command", "run_jobs"]


def _shared_options(function):
    for option in reversed(
        [
            click.argument("scene_ids", nargs=-1),
            click.option("--all", "all_scenes", is_flag=True, help="Every scene, in lecture order (the default)."),
            quality_option,
            lang_option,
            theme_option,
            out_option,
            click.option("--set", "assignments", multiple=True, metavar="KEY=VALUE",
                         help='Change a spec value, e.g. --set vectors="3,4;6,8;-2,1". Repeatable.'),
            click.option("--spec", "spec_file", type=click.Path(path_type=Path), default=None,
                         help="A TOML file of spec values (a [scene-id] table per scene, or top-level keys)."),
            click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None,
                         help="Scenes rendered at once, each in its own process (default: number of cores)."),
            click.option("--force", is_flag=True, help="Render even if an identical render is already there."),
            click.option("--resolution", default=None, metavar="WxH",
                         help="Pixel size instead of the quality preset's (frame rate still from -q), e.g. 1080x1080."),
            click.option("--quiet", is_flag=True, help="Print nothing but errors."),
            click.option("--verbose", is_flag=True, help="Show Manim's own log."),
        ]
    ):
        function = option(function)
    return function


@click.command("render")
@_shared_options
@click.option("--format", "fmt", default="mp4", show_default=True, help=f"Output format: {', '.join(FORMATS)}.")
@click.option("--transparent", is_flag=True, help="Transparent background (mov, webm, png) for overlays.")
def render_command(scene_ids, all_scenes, quality, lang, theme, out_dir, assignments, spec_file, jobs, force, quiet,
                   verbose, resolution, fmt, transparent) -> None:
    """Render scenes (default: all) to video with subtitles (.srt and .vtt) into the output folder."""
    check_format(fmt)
    check_transparency(fmt, transparent)
    settings = RenderSettings(quality, fmt, transparent, _resolution(resolution))
    # GIFs always go through the lossless-frame pipeline of `normgeo gif` (with its defaults).
    gif = GifOptions(width=min(640, settings.resolution[0] if settings.resolution else 640)) if fmt == "gif" else None
    _run(scene_ids, all_scenes, lang, theme, out_dir, assignments, spec_file, jobs, force, quiet, verbose, settings,
         still=fmt == "png", gif=gif)


@click.command("still")
@_shared_options
@click.option("--transparent", is_flag=True, help="Transparent background.")
def still_command(scene_ids, all_scenes, quality, lang, theme, out_dir, assignments, spec_file, jobs, force, quiet,
                  verbose, resolution, transparent) -> None:
    """The final frame of scenes as PNG: the figure for a blog post."""
    settings = RenderSettings(quality, "png", transparent, _resolution(resolution))
    _run(scene_ids, all_scenes, lang, theme, out_dir, assignments, spec_file, jobs, force, quiet, verbose, settings,
         still=True)


def _resolution(text: str | None):
    if text is None:
        return None
    try:
        return parse_resolution(text)
    except ValueError as error:
        raise UsageProblem(f"--resolution {text!r}: {error}") from None


def _run(scene_ids, all_scenes, lang, theme, out_dir, assignments, spec_file, jobs, force, quiet, verbose, settings,
         still=False, gif=None) -> list:
    selected = scene_selection(scene_ids, all_scenes)
    check_manim()
    check_fonts(lang)
    specs = build_specs(selected, lang, theme, parse_assignments(assignments), spec_file)
    out_dir = check_output_folder(Path(out_dir))
    render_jobs = [RenderJob(i, specs[i], settings, out_dir, force=force, still=still, gif=gif) for i in selected]
    results = run_jobs(render_jobs, jobs or os.cpu_count() or 1, verbose, quiet)
    if any(result.status == "failed" for result in results):
        sys.exit(1)
    return results


@click.command("gif")
@_shared_options
@click.option("--width", type=click.IntRange(64, 3840), default=640, show_default=True, help="GIF width in pixels.")
@click.option("--fps", type=click.IntRange(1, 60), default=15, show_default=True, help="GIF frame rate.")
@click.option("--loop", type=click.IntRange(0, 65535), default=0, show_default=True, help="Loop count (0 = forever).")
@click.option("--max-size", "max_size", default=None, metavar="SIZE",
              help="Byte budget such as 2MB or 500k: the best settings that fit are chosen.")
def gif_command(scene_ids, all_scenes, quality, lang, theme, out_dir, assignments, spec_file, jobs, force, quiet,
                verbose, resolution, width, fps, loop, max_size) -> None:
    """A GIF for the web, built from lossless frames, with its size and SSIM reported."""
    budget = None
    if max_size is not None:
        try:
            budget = parse_size(max_size)
        except ValueError:
            raise UsageProblem(f"--max-size expects a size such as 2MB or 500k, got {max_size!r}") from None
    settings = RenderSettings(quality, "gif", False, _resolution(resolution))
    _run(scene_ids, all_scenes, lang, theme, out_dir, assignments, spec_file, jobs, force, quiet, verbose, settings,
         gif=GifOptions(width, fps, loop, budget))


def run_jobs(render_jobs: list[RenderJob], jobs: int, verbose: bool = False, quiet: bool = False) -> list[RenderResult]:
    """Render every job (cached ones are skipped), in up to ``jobs`` processes; record the
    results in each output folder's manifest and print a summary. A progress display (rich)
    shows the batch and each scene while it renders."""
    manifests: dict[Path, Manifest] = {}
    pending, results = [], []
    console = Console(stderr=True, quiet=quiet, highlight=False, soft_wrap=True)
    for job in render_jobs:
        manifest = manifests.setdefault(job.out_dir, Manifest(job.out_dir))
        digest = input_hash(job)
        if is_cached(job, manifest, digest):
            results.append(RenderResult(job, "cached", files=tuple(manifest.get(job.relative_path)["files"])))
            console.print(f"  [dim]cached[/]  {job.relative_path} (inputs unchanged; --force to re-render)")
        else:
            pending.append((job, digest))

    progress = Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                        TimeElapsedColumn(), console=console, transient=True, disable=quiet or not pending)
    with progress:
        batch = progress.add_task("all scenes", total=len(pending))
        running = {}

        def started(job: RenderJob) -> None:
            running[job.relative_path] = progress.add_task(f"  {job.scene_id}", total=None)

        def finished(result: RenderResult) -> None:
            results.append(result)
            task = running.pop(result.job.relative_path, None)
            if task is not None:
                progress.remove_task(task)
            progress.advance(batch)
            if result.status == "made":
                manifests[result.job.out_dir].put(result.job.relative_path, result.record)
                manifests[result.job.out_dir].save()
                note = ""
                if result.record and "gif" in result.record:
                    gif = result.record["gif"]
                    note = f", {result.record['size_bytes'] / 1e6:.2f} MB at SSIM {gif['ssim']:.3f} ({gif['settings']})"
                console.print(f"  [green]made[/]    {result.job.relative_path} ({result.seconds:.1f} s{note})")
            else:
                click.echo(f"  failed  {result.job.scene_id}: {result.error}", err=True)

        try:
            if jobs == 1 or len(pending) == 1:
                for job, digest in pending:
                    started(job)
                    finished(render_job(job, digest, verbose))
            elif pending:
                context = multiprocessing.get_context("fork")
                with ProcessPoolExecutor(max_workers=min(jobs, len(pending)), mp_context=context) as pool:
                    futures = {}
                    for job, digest in pending:
                        futures[pool.submit(render_job, job, digest, verbose)] = job
                        started(job)
                    for future in as_completed(futures):
                        finished(future.result())
        except KeyboardInterrupt:
            click.echo("normgeo: interrupted; finished files are kept, unfinished ones were discarded", err=True)
            sys.exit(130)

    order = {job.relative_path: index for index, job in enumerate(render_jobs)}
    results.sort(key=lambda r: order[r.job.relative_path])
    counts = {status: sum(r.status == status for r in results) for status in ("made", "cached", "failed")}
    console.print(f"done: {counts['made']} made, {counts['cached']} cached, {counts['failed']} failed"
                  f" → {render_jobs[0].out_dir if render_jobs else ''}")
    return results
