"""The batch of every rendering command as the terminal shows it: progress, summary, exit status."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from scenes.cli.progress import TerminalReporter, summary_line
from scenes.render.settings import GifOptions, RenderSettings
from scenes.render.specs import parse_assignments, set_over_file

__all__ = ["render_and_report"]


def render_and_report(scene_ids: list[str], settings: RenderSettings, *, lang: tuple[str, ...],
                      theme: tuple[str, ...], out_dir: Path, assignments: tuple[str, ...], spec_file: Path | None,
                      jobs: int | None, scheduler: str | None = None, split: int = 1, force: bool, quiet: bool,
                      verbose: bool, still: bool = False, gif: GifOptions | None = None,
                      exit_on_failure: bool = True, site_hint: bool = True):
    """The pipeline's batch (:mod:`scenes.render.matrix`) of every language × theme × scene, with a
    progress display and a summary; exit 1 if any job failed (the others still render), 130 on
    Ctrl-C. Results are in the order language, theme, scene. ``site_hint``: the summary says how to
    put what was made on the site (the lecture refreshes the site itself)."""
    langs, themes = _as_tuple(lang), _as_tuple(theme)
    tasks = len(scene_ids) * len(langs) * len(themes) * max(1, split)
    if settings.voice != "none" and scheduler is None and min(jobs or os.cpu_count() or 1, tasks) == 1:
        from scenes.render.voice.early_start import start_early  # (the narrator's modules: only to narrate)

        start_early(settings.voice, scene_ids, langs)  # the jobs run here: the voice loads while Manim does
    from scenes.render.matrix import batch_jobs, render_batch  # (Manim loads only when a command renders)

    render_jobs = batch_jobs(scene_ids, settings, langs=langs, themes=themes, out_dir=out_dir, assignments=assignments,
                             spec_file=spec_file, force=force, still=still, gif=gif)
    overridden = set_over_file(scene_ids, parse_assignments(assignments), spec_file)  # (checked by batch_jobs)
    out_dir = render_jobs[0].out_dir if render_jobs else Path(out_dir)
    reporter = TerminalReporter(len(render_jobs), quiet, matrix=(len(scene_ids), len(langs), len(themes)),
                                where=f"Dask at {scheduler}" if scheduler else None)
    try:
        with reporter:
            results = render_batch(render_jobs, workers=jobs or os.cpu_count() or 1, reporter=reporter,
                                   scheduler=scheduler, languages=langs, split=split, verbose=verbose)
    except KeyboardInterrupt:
        note = "; the cluster's jobs were cancelled" if scheduler else ""
        click.echo(f"normgeo: interrupted{note}; finished files are kept and recorded, unfinished ones were discarded",
                   err=True)
        sys.exit(130)
    reporter.console.print(summary_line(results, out_dir, site_hint=site_hint, overridden=overridden))
    if exit_on_failure and any(result.status == "failed" for result in results):
        sys.exit(1)
    return results


def _as_tuple(value) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value)
