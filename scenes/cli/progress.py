"""What a batch shows on the terminal: a rich progress display and one line per finished file."""

from __future__ import annotations

import click
from rich.console import Console
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from scenes.render.jobs import RenderJob, RenderResult, Reporter

__all__ = ["TerminalReporter", "summary_line"]


class TerminalReporter(Reporter):
    """The batch as a bar with a line per running scene (rich); ``made``/``cached``/``failed`` lines."""

    def __init__(self, total: int, quiet: bool = False):
        self.console = Console(stderr=True, quiet=quiet, highlight=False, soft_wrap=True)
        self.progress = Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                                 TextColumn("{task.completed}/{task.total}"), TimeElapsedColumn(),
                                 console=self.console, transient=True, disable=quiet)
        self.batch = self.progress.add_task("all scenes", total=total)
        self.running: dict[str, int] = {}

    def __enter__(self):
        self.progress.__enter__()
        return self

    def __exit__(self, *exc):
        return self.progress.__exit__(*exc)

    def cached(self, job: RenderJob) -> None:
        self.progress.advance(self.batch)
        self.console.print(f"  [dim]cached[/]  {job.relative_path} (inputs unchanged; --force to re-render)")

    def started(self, job: RenderJob) -> None:
        self.running[job.relative_path] = self.progress.add_task(f"  {job.scene_id}", total=None)

    def finished(self, result: RenderResult) -> None:
        task = self.running.pop(result.job.relative_path, None)
        if task is not None:
            self.progress.remove_task(task)
        self.progress.advance(self.batch)
        if result.status == "made":
            note = ""
            if result.record and "gif" in result.record:
                gif = result.record["gif"]
                note = f", {result.record['size_bytes'] / 1e6:.2f} MB at SSIM {gif['ssim']:.3f} ({gif['settings']})"
            self.console.print(f"  [green]made[/]    {result.job.relative_path} ({result.seconds:.1f} s{note})")
        else:
            click.echo(f"  failed  {result.job.scene_id}: {result.error}", err=True)


def summary_line(results: list[RenderResult], out_dir) -> str:
    counts = {status: sum(r.status == status for r in results) for status in ("made", "cached", "failed")}
    return f"done: {counts['made']} made, {counts['cached']} cached, {counts['failed']} failed → {out_dir}"
