"""``normgeo render`` and ``normgeo still``: scenes to video files or final-frame PNGs."""

from __future__ import annotations

import multiprocessing
import os
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

import click

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
from scenes.cli.rendering import Manifest, RenderJob, RenderResult, input_hash, is_cached, render_job
from scenes.cli.settings import FORMATS, RenderSettings

__all__ = ["render_command", "still_command", "run_jobs"]


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
                   verbose, fmt, transparent) -> None:
    """Render scenes (default: all) to video with subtitles (.srt) into the output folder."""
    check_format(fmt)
    check_transparency(fmt, transparent)
    settings = RenderSettings(quality, fmt, transparent)
    _run(scene_ids, all_scenes, lang, theme, out_dir, assignments, spec_file, jobs, force, quiet, verbose, settings,
         still=fmt == "png")


@click.command("still")
@_shared_options
@click.option("--transparent", is_flag=True, help="Transparent background.")
def still_command(scene_ids, all_scenes, quality, lang, theme, out_dir, assignments, spec_file, jobs, force, quiet,
                  verbose, transparent) -> None:
    """The final frame of scenes as PNG: the figure for a blog post."""
    settings = RenderSettings(quality, "png", transparent)
    _run(scene_ids, all_scenes, lang, theme, out_dir, assignments, spec_file, jobs, force, quiet, verbose, settings,
         still=True)


def _run(scene_ids, all_scenes, lang, theme, out_dir, assignments, spec_file, jobs, force, quiet, verbose, settings,
         still) -> None:
    selected = scene_selection(scene_ids, all_scenes)
    check_manim()
    check_fonts(lang)
    specs = build_specs(selected, lang, theme, parse_assignments(assignments), spec_file)
    out_dir = check_output_folder(Path(out_dir))
    render_jobs = [RenderJob(i, specs[i], settings, out_dir, force=force, still=still) for i in selected]
    results = run_jobs(render_jobs, jobs or os.cpu_count() or 1, verbose, quiet)
    if any(result.status == "failed" for result in results):
        sys.exit(1)


def _echo(quiet: bool, text: str, err: bool = False) -> None:
    if not quiet or err:
        click.echo(text, err=err)


def run_jobs(render_jobs: list[RenderJob], jobs: int, verbose: bool = False, quiet: bool = False) -> list[RenderResult]:
    """Render every job (cached ones are skipped), in up to ``jobs`` processes; record the
    results in each output folder's manifest and print a summary."""
    manifests: dict[Path, Manifest] = {}
    pending, results = [], []
    for job in render_jobs:
        manifest = manifests.setdefault(job.out_dir, Manifest(job.out_dir))
        digest = input_hash(job)
        if is_cached(job, manifest, digest):
            results.append(RenderResult(job, "cached", files=tuple(manifest.get(job.relative_path)["files"])))
            _echo(quiet, f"  cached  {job.relative_path} (inputs unchanged; --force to re-render)")
        else:
            pending.append((job, digest))

    def finished(result: RenderResult) -> None:
        results.append(result)
        if result.status == "made":
            manifests[result.job.out_dir].put(result.job.relative_path, result.record)
            manifests[result.job.out_dir].save()
            _echo(quiet, f"  made    {result.job.relative_path} ({result.seconds:.1f} s)")
        else:
            _echo(quiet, f"  failed  {result.job.scene_id}: {result.error}", err=True)

    if pending:
        _echo(quiet, f"rendering {len(pending)} scene(s) with {min(jobs, len(pending))} process(es)…")
    try:
        if jobs == 1 or len(pending) == 1:
            for job, digest in pending:
                finished(render_job(job, digest, verbose))
        elif pending:
            context = multiprocessing.get_context("fork")
            with ProcessPoolExecutor(max_workers=min(jobs, len(pending)), mp_context=context) as pool:
                futures = [pool.submit(render_job, job, digest, verbose) for job, digest in pending]
                for future in as_completed(futures):
                    finished(future.result())
    except KeyboardInterrupt:
        click.echo("normgeo: interrupted; finished files are kept, unfinished ones were discarded", err=True)
        sys.exit(130)

    order = {job.relative_path: index for index, job in enumerate(render_jobs)}
    results.sort(key=lambda r: order[r.job.relative_path])
    counts = {status: sum(r.status == status for r in results) for status in ("made", "cached", "failed")}
    _echo(quiet, f"done: {counts['made']} made, {counts['cached']} cached, {counts['failed']} failed"
                 f" → {render_jobs[0].out_dir if render_jobs else ''}")
    return results
