"""Benchmark: the render matrix on a Dask cluster, and one long scene split across workers.

    .venv/bin/python bench/cluster.py                  # everything (an hour or more on 2 cores)
    .venv/bin/python bench/cluster.py --tiny           # two short scenes at 192x108: checks the script, ~2 min
    .venv/bin/python bench/cluster.py --sections paper --manifest renders/manifest.json

Prints:
  1. lecture: the 13 scenes at 480p15 through Dask (a local `dask scheduler` and two
     `dask worker --nthreads 1`) against `normgeo render --all --jobs 2`, wall seconds, both cold;
  2. split: layernorm-hyperplane at 1080p60 with `--split 2` against unsplit (2 processes), cold;
  3. paper: the whole matrix (scenes × 3 languages × 2 themes × 1080p60 and 2160p60) on 1, 8
     and 32 two-core workers, from per-scene costs: a manifest's `render_seconds` where it has
     them, else the 1080p60 render-per-second figures measured on 2026-11-29 (README) × each
     scene's duration; 2160p60 as 4× 1080p60 (four times the pixels) unless measured. A two-core
     worker runs two jobs at a time; jobs are placed longest first. With `--split`, the parts of
     a job are placed as jobs of their own, each with a fixed overhead (`--part-overhead`).
Nothing here is a test; the machine's load skews wall times (say so when quoting them).
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import platform
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scenes.kit.registry import LECTURE_ORDER  # noqa: E402

NORMGEO = [sys.executable, "-c", "from scenes.cli.main import main; main()"]
SECTIONS = ("lecture", "split", "paper")
LANGUAGES, THEMES = 3, 2

# 1080p60 render seconds per second of video and video seconds, measured 2026-11-29 (README, --jobs 2 on 2 cores).
MEASURED_1080 = {
    "radial-projection": (2.66, 34.7), "sphere-radii": (2.85, 28.6), "layernorm-hyperplane": (4.72, 48.1),
    "layernorm-2d": (2.74, 27.7), "direction-not-length": (2.79, 24.7), "degrees-of-freedom": (2.67, 32.6),
    "unified-formula": (2.62, 35.7), "normalization-axes": (3.73, 40.5), "conditioning": (2.51, 41.7),
    "scale-invariance": (2.37, 28.7), "covariate-shift": (2.34, 46.6), "batch-dependence": (2.61, 39.2),
    "prenorm-postnorm": (2.02, 36.7),
}


def env() -> dict:
    return dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


def timed(command: list[str]) -> float:
    started = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env(), capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"failed: {' '.join(command)}\n{done.stdout[-1500:]}\n{done.stderr[-1500:]}")
    return time.perf_counter() - started


class LocalCluster:
    """`dask scheduler` and ``workers`` × `dask worker --nthreads 1` on 127.0.0.1, as separate
    processes (the way a real cluster is started), each in its own process group."""

    def __init__(self, workers: int = 2):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.address = f"tcp://127.0.0.1:{port}"
        dask = [sys.executable, "-m", "dask"]
        self.processes = [self._start([*dask, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                                       "--no-dashboard"])]
        self.processes += [self._start([*dask, "worker", self.address, "--nthreads", "1", "--no-dashboard"])
                           for _ in range(workers)]
        from distributed import Client

        with Client(self.address, timeout="60s") as client:
            client.wait_for_workers(workers, timeout=120)

    @staticmethod
    def _start(command):
        return subprocess.Popen(command, cwd=ROOT, env=env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for process in reversed(self.processes):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)


def lecture_section(scenes: list[str], size: list[str], work: Path) -> None:
    print(f"\n## {len(scenes)} scenes, {'x'.join(size[1:]) or '480p15'}: Dask (2 workers × 1 thread) against --jobs 2")
    local = timed([*NORMGEO, "render", *scenes, *size, "--jobs", "2", "--quiet", "--out", str(work / "jobs2")])
    with LocalCluster(2) as cluster:
        dask = timed([*NORMGEO, "render", *scenes, *size, "--scheduler", cluster.address, "--quiet",
                      "--out", str(work / "dask")])
    print(f"| --jobs 2 | {local:.1f} s |\n| Dask, local scheduler, 2 workers | {dask:.1f} s ({dask / local:.2f}×) |")


def split_section(scene: str, size: list[str], work: Path) -> None:
    print(f"\n## {scene} at {' '.join(size)}: --split 2 against unsplit (local processes, --jobs 2)")
    whole = timed([*NORMGEO, "render", scene, *size, "--jobs", "2", "--quiet", "--out", str(work / "whole")])
    parts = timed([*NORMGEO, "render", scene, *size, "--jobs", "2", "--split", "2", "--quiet",
                   "--out", str(work / "split")])
    print(f"| unsplit | {whole:.1f} s |\n| --split 2 | {parts:.1f} s ({parts / whole:.2f}×) |")


def scene_costs(manifest: Path | None) -> dict[tuple[str, str], float]:
    """(scene, quality label) → render seconds of one job."""
    costs = {(scene, "1080p60"): rate * seconds for scene, (rate, seconds) in MEASURED_1080.items()}
    if manifest is not None and manifest.is_file():
        for record in json.loads(manifest.read_text(encoding="utf-8"))["artifacts"].values():
            if record.get("quality") in ("1080p60", "2160p60") and record.get("settings", {}).get("format") == "mp4":
                costs[(record["scene"], record["quality"])] = record["render_seconds"]
    known = sorted(cost for (_, quality), cost in costs.items() if quality == "1080p60")
    for scene in LECTURE_ORDER:  # a scene added since the README's figures: the median scene's cost
        if (scene, "1080p60") not in costs:
            print(f"note: no 1080p60 cost for {scene}; the median scene's ({known[len(known) // 2]:.0f} s) is used")
            costs[(scene, "1080p60")] = known[len(known) // 2]
        costs.setdefault((scene, "2160p60"), 4 * costs[(scene, "1080p60")])
    return costs


def makespan(jobs: list[float], slots: int) -> float:
    """Longest-first greedy placement of ``jobs`` (seconds) on ``slots`` parallel slots.

    >>> makespan([4, 3, 3, 2], 2)
    6.0
    """
    finish = [0.0] * slots
    heapq.heapify(finish)
    for cost in sorted(jobs, reverse=True):
        heapq.heappush(finish, heapq.heappop(finish) + cost)
    return max(finish)


def paper_section(manifest: Path | None, split: int, overhead: float) -> None:
    costs = scene_costs(manifest)
    jobs = [costs[(scene, quality)] for scene in LECTURE_ORDER for quality in ("1080p60", "2160p60")
            for _ in range(LANGUAGES * THEMES)]
    longest = max(jobs)
    print(f"\n## On paper: {len(LECTURE_ORDER)} scenes × {LANGUAGES} languages × {THEMES} themes × 1080p60 and "
          f"2160p60 = {len(jobs)} videos, {sum(jobs) / 3600:.1f} h of rendering (one job per core)")
    print(f"source: {'manifest ' + str(manifest) + ' where it has records, ' if manifest else ''}"
          f"README 1080p60 figures otherwise; 2160p60 = 4 × 1080p60 unless measured; {overhead:g} s per split part")
    print(f"| two-core workers | whole scenes | --split {split} | floor: longest job, whole / split |\n"
          "|---:|---:|---:|---:|")
    # each part rebuilds the scene up to its range, and a dry run plans the split: `overhead` s per part
    parts = [cost / split + overhead for cost in jobs for _ in range(split)]
    for workers in (1, 8, 32):
        slots = 2 * workers
        print(f"| {workers} | {makespan(jobs, slots) / 3600:.2f} h | {makespan(parts, slots) / 3600:.2f} h | "
              f"{longest / 60:.1f} / {(longest / split + overhead) / 60:.1f} min |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tiny", action="store_true", help="two short scenes at 192x108 (checks the script)")
    parser.add_argument("--sections", default=",".join(SECTIONS), help=f"comma-separated: {', '.join(SECTIONS)}")
    parser.add_argument("--manifest", type=Path, default=None, help="per-scene costs from this manifest")
    parser.add_argument("--split", type=int, default=4, help="parts per job in the on-paper --split column")
    parser.add_argument("--part-overhead", type=float, default=12.0,
                        help="seconds each split part adds (planning dry run, rebuilding the scene, start-up)")
    args = parser.parse_args()
    sections = set(args.sections.split(","))
    print(f"# normgeo on a cluster, {time.strftime('%Y-%m-%d %H:%M')} on {platform.machine()}, "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    work = Path(tempfile.mkdtemp(prefix="normgeo-bench-cluster-"))
    try:
        if "lecture" in sections:
            if args.tiny:
                lecture_section(["scale-invariance", "layernorm-2d"], ["--resolution", "192x108"], work / "lecture")
            else:
                lecture_section(list(LECTURE_ORDER), ["-q", "l"], work / "lecture")
        if "split" in sections:
            if args.tiny:
                split_section("scale-invariance", ["--resolution", "192x108"], work / "split")
            else:
                split_section("layernorm-hyperplane", ["-q", "h"], work / "split")
        if "paper" in sections:
            paper_section(args.manifest, args.split, args.part_overhead)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
