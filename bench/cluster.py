"""Benchmark: the render matrix on a Dask cluster, and one long scene split across workers.

    .venv/bin/python bench/cluster.py                  # everything (an hour or more on 2 cores)
    .venv/bin/python bench/cluster.py --tiny           # two short scenes at 192x108: checks the script, ~2 min
    .venv/bin/python bench/cluster.py --sections paper --manifest renders/manifest.json

Prints:
  1. lecture: every scene at 480p15 through Dask (a local `dask scheduler` and two
     `dask worker --nthreads 1`) against `normgeo render --all --jobs 2`, wall seconds, both cold;
  2. split: layernorm-hyperplane at 1080p60 with `--split 2` against unsplit (2 processes), cold;
     and the same with each worker pinned to one core (`taskset`): two one-core Dask workers against
     one one-core process without Dask, and against one one-core Dask worker;
  3. paper: the whole matrix (scenes × 3 languages × 2 themes × 1080p60 and 2160p60) on 1, 8
     and 32 two-core workers, from per-scene costs: a manifest's `render_seconds` where it has
     them, else the 1080p60 figures of bench/exports.py (2026-11-30, docs/benchmarks.md) on one core;
     2160p60 as the measured 2160p60/1080p60 ratio × 1080p60 unless measured. A two-core
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
from scenes.render.running.dask_worker import worker_environment  # noqa: E402

NORMGEO = [sys.executable, "-c", "from scenes.cli.main import main; main()"]
SECTIONS = ("lecture", "split", "paper")
LANGUAGES, THEMES = 3, 2

# `normgeo render SCENE -q h --jobs 1`: wall seconds per second of video and video seconds, on this
# 2-core machine (bench/exports.py, 2026-11-30 12:09–12:36 UTC). One render keeps more than one
# core busy (drawing in one thread, x264 in others): pinned to one core, layernorm-hyperplane took
# 57.4 s against 34.8 s (bench/cluster.py 12:36; so a job's cost on one core is ONE_CORE × these),
# and 2160p60 took K_OVER_H × the 1080p60 time (epsilon-and-affine: 90.7 s against 37.2 s).
MEASURED_1080 = {
    "radial-projection": (0.51, 39.7), "sphere-radii": (0.56, 32.7), "layernorm-hyperplane": (0.71, 50.5),
    "epsilon-and-affine": (0.92, 40.7), "layernorm-2d": (0.53, 30.0), "rmsnorm-vs-layernorm": (0.65, 43.8),
    "direction-not-length": (0.58, 24.7), "degrees-of-freedom": (0.55, 37.7), "unified-formula": (0.53, 35.7),
    "normalization-axes": (0.71, 56.2), "batchnorm-geometry": (0.71, 41.9), "conditioning": (0.43, 56.9),
    "layernorm-gradient": (0.92, 38.3), "scale-invariance": (0.51, 38.5), "covariate-shift": (0.58, 50.7),
    "batch-dependence": (0.62, 39.2), "prenorm-postnorm": (0.47, 45.4), "dynamic-tanh": (0.65, 42.2),
}
ONE_CORE = 57.4 / 34.8
K_OVER_H = 90.7 / 37.2


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

    def __init__(self, workers: int = 2, pinned: bool = False):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.address = f"tcp://127.0.0.1:{port}"
        dask = [sys.executable, "-m", "dask"]
        self.processes = [self._start([*dask, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                                       "--no-dashboard"])]
        # pinned: worker i may use core i only (taskset), as if each were a one-core machine
        # each worker with Dask's configuration for rendering, as `normgeo worker` starts one
        self.config = tempfile.mkdtemp(prefix="normgeo-bench-dask-")
        tuned = {"DASK_CONFIG": worker_environment(Path(self.config))["DASK_CONFIG"]}
        self.processes += [self._start([*(["taskset", "-c", str(i % os.cpu_count())] if pinned else []),
                                        *dask, "worker", self.address, "--nthreads", "1", "--no-dashboard"], tuned)
                           for i in range(workers)]
        from distributed import Client

        with Client(self.address, timeout="60s") as client:
            client.wait_for_workers(workers, timeout=120)

    @staticmethod
    def _start(command, environment: dict | None = None):
        return subprocess.Popen(command, cwd=ROOT, env=env() | (environment or {}), stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)

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
        shutil.rmtree(self.config, ignore_errors=True)


def lecture_section(scenes: list[str], size: list[str], work: Path) -> None:
    print(f"\n## {len(scenes)} scenes, {'x'.join(size[1:]) or '480p15'}: Dask (2 workers × 1 thread) against --jobs 2")
    local = timed([*NORMGEO, "render", *scenes, *size, "--jobs", "2", "--quiet", "--out", str(work / "jobs2")])
    with LocalCluster(2) as cluster:
        dask = timed([*NORMGEO, "render", *scenes, *size, "--scheduler", cluster.address, "--quiet",
                      "--out", str(work / "dask")])
    busy = {name: sum(r["render_seconds"] for r in json.loads((work / name / "manifest.json").read_text())["artifacts"].values())
            for name in ("jobs2", "dask")}
    print("| run | wall | job seconds summed (busy time of the two slots) |\n|---|---:|---:|")
    print(f"| --jobs 2 | {local:.1f} s | {busy['jobs2']:.1f} s |\n"
          f"| Dask, local scheduler, 2 workers | {dask:.1f} s ({dask / local:.2f}×) | {busy['dask']:.1f} s |")


def split_section(scene: str, size: list[str], work: Path) -> None:
    print(f"\n## {scene} at {' '.join(size)}: --split 2 against unsplit (local processes, --jobs 2)")
    whole = timed([*NORMGEO, "render", scene, *size, "--jobs", "2", "--quiet", "--out", str(work / "whole")])
    parts = timed([*NORMGEO, "render", scene, *size, "--jobs", "2", "--split", "2", "--quiet",
                   "--out", str(work / "split")])
    print(f"| unsplit | {whole:.1f} s |\n| --split 2 | {parts:.1f} s ({parts / whole:.2f}×) |")
    # The unsplit render already keeps both cores partly busy (drawing in one thread, x264 in
    # others), so on one two-core machine a split can only win the idle share. Workers that are
    # machines of their own are simulated by pinning: one worker on one core against two workers
    # on a core each.
    one = timed(["taskset", "-c", "0", *NORMGEO, "render", scene, *size, "--jobs", "1", "--quiet",
                 "--out", str(work / "pinned-whole")])
    with LocalCluster(1, pinned=True) as cluster:  # the same through Dask: its client and scheduler included
        one_dask = timed([*NORMGEO, "render", scene, *size, "--scheduler", cluster.address, "--quiet",
                          "--out", str(work / "pinned-whole-dask")])
    with LocalCluster(2, pinned=True) as cluster:
        two = timed([*NORMGEO, "render", scene, *size, "--scheduler", cluster.address, "--split", "2", "--quiet",
                     "--out", str(work / "pinned-split")])
    print(f"| unsplit, one one-core process (`taskset`, no Dask) | {one:.1f} s |\n"
          f"| unsplit, one one-core Dask worker | {one_dask:.1f} s |\n"
          f"| --split 2, two one-core Dask workers | {two:.1f} s ({two / one:.2f}× the first, "
          f"{two / one_dask:.2f}× the second) |")


def scene_costs(manifest: Path | None) -> dict[tuple[str, str], float]:
    """(scene, quality label) → render seconds of one job."""
    costs = {(scene, "1080p60"): ONE_CORE * rate * seconds for scene, (rate, seconds) in MEASURED_1080.items()}
    if manifest is not None and manifest.is_file():
        for record in json.loads(manifest.read_text(encoding="utf-8"))["artifacts"].values():
            if record.get("quality") in ("1080p60", "2160p60") and record.get("settings", {}).get("format") == "mp4":
                costs[(record["scene"], record["quality"])] = record["render_seconds"]
    known = sorted(cost for (_, quality), cost in costs.items() if quality == "1080p60")
    for scene in LECTURE_ORDER:  # a scene added since the figures in docs/benchmarks.md: the median scene's cost
        if (scene, "1080p60") not in costs:
            print(f"note: no 1080p60 cost for {scene}; the median scene's ({known[len(known) // 2]:.0f} s) is used")
            costs[(scene, "1080p60")] = known[len(known) // 2]
        costs.setdefault((scene, "2160p60"), K_OVER_H * costs[(scene, "1080p60")])
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
          f"bench/exports.py's 1080p60 figures × {ONE_CORE:.2f} for one core otherwise; 2160p60 = {K_OVER_H:.2f} × "
          f"1080p60 unless measured; {overhead:g} s per split part")
    print(f"| two-core workers | whole scenes | --split {split} | floor: longest job, whole / split |\n"
          "|---:|---:|---:|---:|")
    # the plan's dry run (in the last part), the first part's own build of the scene, Dask's share of
    # the cores: `overhead` s per part
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
    parser.add_argument("--part-overhead", type=float, default=4.0,
                        help="seconds each split part adds (the plan's dry run, the first part's own build of "
                             "the scene, start-up; docs/benchmarks.md, 2026-11-30)")
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
