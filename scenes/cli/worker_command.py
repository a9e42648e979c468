"""``normgeo worker``: a Dask worker configured for rendering (see ``scenes.render.running.dask_worker``)."""

from __future__ import annotations

import subprocess
import sys

import click

from scenes.cli.errors import UsageProblem
from scenes.render.running.dask_worker import worker_command as dask_worker_command
from scenes.render.running.dask_worker import worker_environment

__all__ = ["worker_command"]


@click.command("worker", context_settings={"ignore_unknown_options": True})
@click.argument("scheduler")
@click.option("--nworkers", "processes", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Worker processes on this machine (each renders one scene at a time).")
@click.argument("dask_options", nargs=-1, type=click.UNPROCESSED)
def worker_command(scheduler: str, processes: int, dask_options: tuple[str, ...]) -> None:
    """Start `dask worker SCHEDULER` with one thread per process and Dask's settings for rendering
    (no statistical profiler; glibc keeps freed frames). Other options go to `dask worker`."""
    if "://" not in scheduler:
        raise UsageProblem(f"expected a scheduler address such as tcp://HOST:8786, got {scheduler!r}")
    try:
        import distributed  # noqa: F401  (only to say what to install)
    except ImportError:
        raise UsageProblem("normgeo worker needs Dask distributed: pip install 'normgeo[cluster]'") from None
    sys.exit(subprocess.call(dask_worker_command(scheduler, processes, dask_options), env=worker_environment()))
