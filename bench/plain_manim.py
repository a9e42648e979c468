"""What the benchmarks share: running a command for its wall time, and plain `manim` set up the way
a user runs it (its own defaults, quiet, in a fresh folder)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

BIN = Path(sys.executable).parent
MANIM_CFG = "[CLI]\nnotify_outdated_version = False\nprogress_bar = none\nverbosity = WARNING\n"


def timed(command: list[str], cwd: Path) -> float:
    """Wall seconds of ``command`` run in ``cwd``; its output is shown only if it fails."""
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"failed: {' '.join(command)}\n{done.stdout[-1500:]}\n{done.stderr[-1500:]}")
    return time.perf_counter() - started
