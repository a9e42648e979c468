"""The batch every rendering command runs: every language × theme × scene as a job, checked before
anything renders, run locally or on a Dask cluster. ``normgeo render``, ``still``, ``gif`` and
``lecture`` (and the benchmark) call these; the CLI only shows progress and exits."""

from __future__ import annotations

from pathlib import Path

from scenes.render.checks import check_fonts, check_output_folder
from scenes.render.errors import InputError
from scenes.render.manim_door import check_manim
from scenes.render.media.gif_budget import refuse_impossible_budget
from scenes.render.running.batch import run_jobs
from scenes.render.running.report import Reporter
from scenes.render.running.dask import DaskExecutor
from scenes.render.running.job import RenderJob, RenderResult
from scenes.render.settings import GifOptions, RenderSettings
from scenes.render.specs import build_specs, parse_assignments

__all__ = ["batch_jobs", "open_executor", "render_batch"]


def batch_jobs(scene_ids: list[str], settings: RenderSettings, *, langs: tuple[str, ...], themes: tuple[str, ...],
               out_dir: Path, assignments: tuple[str, ...] = (), spec_file: Path | None = None, force: bool = False,
               still: bool = False, gif: GifOptions | None = None) -> list[RenderJob]:
    """Check Manim, the fonts and the output folder, parse the settings, and return the jobs in
    the order language, theme, scene; every refusal is one line (:class:`InputError`)."""
    if gif is not None and gif.max_size is not None:
        refuse_impossible_budget(gif.max_size, gif.width, settings.pixel_size)
    check_manim()
    for language in langs:
        check_fonts(language)
    parsed = parse_assignments(assignments)
    out_dir = check_output_folder(Path(out_dir))
    render_jobs = []
    for language in langs:
        for colours in themes:
            specs = build_specs(scene_ids, language, colours, parsed, spec_file)
            render_jobs += [RenderJob(i, specs[i], settings, out_dir, force=force, still=still, gif=gif)
                            for i in scene_ids]
    return render_jobs


def open_executor(scheduler: str, languages: tuple[str, ...] = ()) -> DaskExecutor:
    """The Dask executor for ``scheduler``; every refusal is one line."""
    if "://" not in scheduler:
        raise InputError(f"--scheduler expects an address such as tcp://HOST:8786, got {scheduler!r}")
    return DaskExecutor(scheduler, languages=languages)


def render_batch(render_jobs: list[RenderJob], *, workers: int, reporter: Reporter | None = None,
                 scheduler: str | None = None, languages: tuple[str, ...] = (), split: int = 1,
                 verbose: bool = False) -> list[RenderResult]:
    """Render what changed of ``render_jobs`` in ``workers`` local processes, or on the Dask cluster
    at ``scheduler`` (connected here, closed after; Ctrl-C cancels its jobs), and return one result
    per job in their order."""
    executor = open_executor(scheduler, languages) if scheduler else None
    try:
        return run_jobs(render_jobs, workers, verbose, reporter, executor=executor, split=split)
    finally:
        if executor is not None:
            executor.close()
