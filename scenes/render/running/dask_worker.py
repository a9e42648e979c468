"""Dask's configuration for a worker that renders, and the command line that starts one.

Two of Dask's defaults cost a render 15–22 % (bench/cluster.py, 18 scenes at 480p15, against the
local pool):

* the worker's statistical profiler samples the running task's Python stack every 10 ms, and a
  Manim render's stack is deep: ``distributed.worker.profile.enabled`` turns it off;
* the nanny starts workers with ``MALLOC_TRIM_THRESHOLD_=65536``, which also fixes glibc's mmap
  threshold, so every frame-sized array (1.6 MB at 480p) is mapped, zeroed and unmapped again:
  ``distributed.nanny.pre-spawn-environ`` gives glibc large mmap and trim thresholds instead.

``normgeo worker`` starts ``dask worker`` with this configuration (a YAML file in a scratch folder
named by ``DASK_CONFIG``) and one thread per process.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

__all__ = ["WORKER_CONFIG", "worker_environment", "worker_command"]

WORKER_CONFIG = {
    "distributed": {
        "worker": {"profile": {"enabled": False}},
        "nanny": {"pre-spawn-environ": {"MALLOC_TRIM_THRESHOLD_": 256 * 1024 * 1024,
                                        "MALLOC_MMAP_THRESHOLD_": 32 * 1024 * 1024}},
    },
}


def worker_environment(folder: Path | None = None) -> dict[str, str]:
    """This process's environment with ``DASK_CONFIG`` naming a folder that holds
    :data:`WORKER_CONFIG` (JSON is YAML), written into ``folder`` (a new scratch folder if None)."""
    folder = Path(folder) if folder is not None else Path(tempfile.mkdtemp(prefix="normgeo-dask-"))
    (folder / "normgeo-worker.yaml").write_text(json.dumps(WORKER_CONFIG, indent=2), encoding="utf-8")
    return dict(os.environ, DASK_CONFIG=str(folder))


def worker_command(scheduler: str, processes: int = 1, extra: tuple[str, ...] = ()) -> list[str]:
    """``dask worker`` (as this Python runs it) for ``scheduler`` with ``processes`` one-thread
    worker processes.

    >>> worker_command("tcp://h:8786", 2)[3:]
    ['tcp://h:8786', '--nthreads', '1', '--nworkers', '2']
    """
    return [sys.executable, "-m", "distributed.cli.dask_worker", scheduler, "--nthreads", "1", "--nworkers",
            str(processes), *extra]
