"""What a batch shows on the terminal: a rich progress display and one line per finished file."""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING

import click
from rich.console import Console
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from scenes.render.running.report import Reporter

if TYPE_CHECKING:
    from scenes.render.running.job import RenderJob, RenderResult

__all__ = ["TerminalReporter", "summary_line"]


class TerminalReporter(Reporter):
    """The batch (the whole matrix: scenes × languages × themes) as a bar with done/total, a line
    per worker with its finished and assigned tasks, and a line per running job (rich);
    ``made``/``cached``/``failed`` lines."""

    def __init__(self, total: int, quiet: bool = False, matrix: tuple[int, int, int] | None = None,
                 where: str | None = None):
        self.console = Console(stderr=True, quiet=quiet, highlight=False, soft_wrap=True)
        self.progress = Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                                 TextColumn("{task.completed}/{task.total}"), TimeElapsedColumn(),
                                 console=self.console, transient=True,
                                 disable=quiet or not self.console.is_terminal)  # (off a terminal rich
        # draws no bar, but leaves a blank line where it was: before the summary or "interrupted")
        self.batch = self.progress.add_task(batch_title(total, matrix, where), total=total)
        self.running: dict[str, int] = {}
        self.worker_tasks: dict[str, int] = {}
        self.done: dict[str, int] = {}
        self.busy_now: dict[str, int] = {}
        self.busy_known = False  # a local pool cannot tell which process runs what

    def __enter__(self):
        self.progress.__enter__()
        return self

    def __exit__(self, *exc):
        return self.progress.__exit__(*exc)

    def cached(self, job: RenderJob) -> None:
        self.progress.advance(self.batch)
        self.console.print(f"  [dim]cached[/]  {job.relative_path} (inputs unchanged; --force to re-render)")

    def started(self, job: RenderJob) -> None:
        self.running[job.relative_path] = self.progress.add_task(
            f"  {job.scene_id} {job.spec.lang}/{job.spec.theme}", total=None)

    def _show_worker(self, worker: str) -> None:
        description = f"  [cyan]{worker}[/]: {self.done.get(worker, 0)} done"
        if self.busy_known:
            description += f", {self.busy_now.get(worker, 0)} assigned"
        if worker not in self.worker_tasks:
            self.worker_tasks[worker] = self.progress.add_task(description, total=None)
        else:
            self.progress.update(self.worker_tasks[worker], description=description)

    def ran(self, worker: str, label: str, ok: bool) -> None:
        if not worker:
            return
        self.done[worker] = self.done.get(worker, 0) + 1
        self.busy_now[worker] = max(0, self.busy_now.get(worker, 0) - 1)
        self._show_worker(worker)

    def busy(self, running: dict[str, int]) -> None:
        self.busy_known = self.busy_known or bool(running)
        for worker in {*running, *self.worker_tasks}:
            self.busy_now[worker] = running.get(worker, 0)
            self._show_worker(worker)

    def finished(self, result: RenderResult) -> None:
        task = self.running.pop(result.job.relative_path, None)
        if task is not None:
            self.progress.remove_task(task)
        self.progress.advance(self.batch)
        if result.status == "made":
            note = ""
            if result.record and "gif" in result.record:
                gif = result.record["gif"]
                budget = ""
                if gif.get("max_size"):
                    budget = f", within --max-size {gif['max_size']:,} B" if gif.get("fits_budget") else ", over budget"
                note = (f", {gif['width']}×{gif['height']}, {result.record['size_bytes'] / 1e3:.0f} kB at "
                        f"{gif['ssim_method'].split(' (')[0]} {gif['ssim']:.4f}{budget}{left_out_note(gif)}")
            self.console.print(f"  [green]made[/]    {result.job.relative_path} ({result.seconds:.1f} s{note})")
        else:
            click.echo(f"  failed  {result.job.scene_id}: {result.error}", err=True)


def left_out_note(gif: dict) -> str:
    """What a web animation left out as too small to read at its width, and the width that keeps it.

    >>> left_out_note({"text_left_out": ["a", "b"], "all_text_legible_from": 921})
    '; 2 texts too small to read at this width left out (--width 921 keeps every text)'
    >>> left_out_note({"text_left_out": []})
    ''
    """
    count = len(gif.get("text_left_out") or [])
    if not count:
        return ""
    return (f"; {count} text{'s' * (count != 1)} too small to read at this width left out "
            f"(--width {gif['all_text_legible_from']} keeps every text)")


def batch_title(total: int, matrix: tuple[int, int, int] | None, where: str | None) -> str:
    """``all scenes``, or the matrix it is: ``13 scenes × 3 languages × 2 themes``, and where it runs.

    >>> batch_title(78, (13, 3, 2), "Dask at tcp://h:8786")
    'matrix 13 scenes × 3 languages × 2 themes on Dask at tcp://h:8786'
    """
    title = "all scenes"
    if matrix is not None and (matrix[1] > 1 or matrix[2] > 1):
        scenes, langs, themes = matrix
        title = (f"matrix {scenes} scene{'s' * (scenes != 1)} × {langs} language{'s' * (langs != 1)} × "
                 f"{themes} theme{'s' * (themes != 1)}")
    return f"{title} on {where}" if where else title


def summary_line(results: list[RenderResult], out_dir, site_hint: bool = False, overridden: list[str] = ()) -> str:
    """``done: 1 made, 0 cached, 0 failed → renders``; with ``site_hint`` and anything made, how to
    refresh the site, which rendering does not (the folder shell-quoted, to paste as it is); the
    keys ``--set`` gave that won over the spec file's.

    >>> summary_line([], "my renders", overridden=["radius"])
    "done: 0 made, 0 cached, 0 failed → my renders; --set radius won over the spec file's value"
    """
    counts = {status: sum(r.status == status for r in results) for status in ("made", "cached", "failed")}
    line = f"done: {counts['made']} made, {counts['cached']} cached, {counts['failed']} failed → {out_dir}"
    if overridden:
        line += f"; --set {', '.join(overridden)} won over the spec file's value{'s' * (len(overridden) > 1)}"
    if site_hint and counts["made"]:
        line += f"; `normgeo site --out {shlex.quote(str(out_dir))}` puts them on the site"
    return line
