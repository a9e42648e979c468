"""Mutation testing of the core (``normgeo/``) and the kit (``scenes/kit/``) with mutmut 3.

    .venv/bin/python bench/mutation.py                 # both folders (many hours on a loaded 2-core machine)
    .venv/bin/python bench/mutation.py --only normgeo  # one folder (--only kit in a second shell runs beside it)
    .venv/bin/python bench/mutation.py --report        # the score of the last run, without running
    .venv/bin/python bench/mutation.py --resume        # go on with an interrupted run (current sources and tests;
                                                       # on a new machine, from the verdicts saved in git)
    .venv/bin/python bench/mutation.py --save          # the run's verdicts into bench/mutation_verdicts/ now
    .venv/bin/python bench/mutation.py --rerun         # new tests against the last run's survivors only
    .venv/bin/python bench/mutation.py --rerun --skip 'scenes.kit.real_states.*show_landing*'  # minus slow ones
    .venv/bin/python bench/mutation.py --max-children 2  # two mutants at once

Too slow for CI, so it is a benchmark-like command of its own. It copies the tree into
``renders/mutation/<folders>/`` (git-ignored; ``--only kit`` and ``--only normgeo`` have copies of
their own, so they can run at the same time, and ``--report``/``--resume``/``--rerun`` take the
same ``--only`` as the run they continue; the working tree is never touched), writes a pyproject there
whose pytest options drop ``-n auto`` (xdist workers would run the tests outside mutmut's process,
where it cannot see which tests reach which function), runs ``mutmut run`` niced with one child,
and prints per folder: mutants, killed, equivalent (listed with a one-line reason each in
``bench/mutation_equivalent.toml``), the score = killed / (all − equivalent − not runnable) and every surviving
mutant's name. Every mutant that is not killed counts against the score: survived, no test reaches
it, or not checked yet by an interrupted run. The tests run are the core's and the kit's own
(``tests/core``, ``tests/toolkit``) and the doctests of both folders; the scene, render and site
suites are too slow to run once per mutant.

Why mutmut and not cosmic-ray: mutmut 3 imports the suite once, measures which tests reach each
function, then forks per mutant and runs only those tests, so a mutant costs tens of milliseconds;
cosmic-ray rewrites the file on disk and starts a fresh test command per mutant (a new interpreter
importing numpy and Manim, about 2 s each), which for a few thousand mutants on a shared 2-core
machine is hours. mutmut also works on its own copy (``mutants/``), never on the sources.
"""

from __future__ import annotations

import argparse
import datetime
import fnmatch
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tomllib
from collections import defaultdict
from pathlib import Path

import mutation_verdicts  # (bench/ is this script's folder)

ROOT = Path(__file__).resolve().parents[1]
STAGES = ROOT / "renders" / "mutation"
EQUIVALENT = ROOT / "bench" / "mutation_equivalent.toml"
VERDICTS = ROOT / "bench" / "mutation_verdicts"  # each run's verdicts, kept in git (bench/mutation_verdicts.py)
FOLDERS = {"normgeo": "normgeo", "kit": "scenes/kit"}
TESTS = ["tests/core", "tests/toolkit", "normgeo", "scenes/kit"]
TARGET = 0.90
# Statuses that count as killed; every other status of a non-equivalent mutant counts against the
# score (survived, no tests, not checked by an interrupted run, suspicious, segfault).
KILLED = ("killed", "timeout", "caught by type check")
# A mutant that makes its tests run too long is stopped and counted killed (a timeout) after
# (estimated seconds + constant) × multiplier of wall time and twice that of CPU. mutmut's 15 and 1 s
# stopped a mutant of a 0.2 s test after 22–34 s (normgeo's depth, batch and group loops, where a
# mutated bound never ends: 49 of the first 1,800 mutants, over half the run's time); 10 and 0.5 s stop
# it after 7 s of wall time, still 35 times the test's own time.
TIMEOUT_MULTIPLIER, TIMEOUT_CONSTANT = 10.0, 0.5
MUTMUT = Path(sys.executable).with_name("mutmut")  # the mutation extra's, beside this Python


def stage_of(only: list[str]) -> Path:
    """The run's own copy, one per choice of folders (so that two folders can run at once)."""
    return STAGES / "-".join(sorted(only))


def stage(only: list[str]) -> None:
    """A copy of the sources and tests in the run's folder with a pyproject fit for mutmut."""
    where = stage_of(only)
    shutil.rmtree(where, ignore_errors=True)
    where.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "node_modules")
    for name in ("normgeo", "normgeo_models", "scenes", "tests"):
        shutil.copytree(ROOT / name, where / name, ignore=ignore)
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    text = re.sub(r'^addopts = .*$', 'addopts = "--doctest-modules -p no:cacheprovider -p no:xdist"', text,
                  flags=re.M)
    text = re.sub(r'^testpaths = .*$', 'testpaths = ["tests/core"]', text, flags=re.M)
    mutate = [f'"{FOLDERS[f]}/*"' for f in only]
    text += ("\n[tool.mutmut]\n"
             'source_paths = ["normgeo", "normgeo_models", "scenes"]\n'
             f"only_mutate = [{', '.join(mutate)}]\n"
             f"pytest_add_cli_args_test_selection = {json.dumps(TESTS)}\n"
             'pytest_add_cli_args = ["-p", "no:xdist", "-p", "no:randomly"]\n'
             "use_git_change_detection = false\n"
             f"timeout_multiplier = {TIMEOUT_MULTIPLIER}\ntimeout_constant = {TIMEOUT_CONSTANT}\n")
    (where / "pyproject.toml").write_text(text, encoding="utf-8")


def sync_sources(where: Path) -> None:
    """The working tree's sources copied over the staged ones, their times kept: mutmut makes the
    mutants of each file newer than its mutants again and tests those of each function whose source
    changed (it keeps a hash per function), the others keep their results."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "node_modules")
    for name in ("normgeo", "normgeo_models", "scenes"):
        shutil.copytree(ROOT / name, where / name, ignore=ignore, dirs_exist_ok=True)


def sync_tests(where: Path) -> None:
    """The working tree's tests copied over the staged ones (for ``--rerun``)."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for target in (where / "tests", where / "mutants" / "tests"):
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(ROOT / "tests", target, ignore=ignore)


def forget_test_map(where: Path) -> None:
    """Make mutmut map tests to functions again, all of them. Given a stats file, mutmut 3.8 runs
    only new tests to map them; a test it knew that now reaches a new or changed function is never
    mapped to it, so that function's mutants are tested against too few tests and "survive" (seen:
    ``NarratedScene.held_caption``, added after a run started, had one test mapped, and its mutants
    survived tests/toolkit/test_narration.py, which kills them). A full mapping is one run of the suite."""
    (where / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)


def verdicts_of(only: list[str]) -> Path:
    return VERDICTS / f"{stage_of(only).name}.json"


def save_verdicts(only: list[str]) -> bool:
    """The stage's verdicts into git's keeping (:mod:`mutation_verdicts`); False without a stage."""
    where = stage_of(only)
    if not (where / "mutants").is_dir():
        print(f"no mutation run in {where.relative_to(ROOT)} to save", file=sys.stderr)
        return False
    tested = mutation_verdicts.save(where, [FOLDERS[f] for f in only], verdicts_of(only))
    print(f"{tested} verdicts saved in {verdicts_of(only).relative_to(ROOT)}")
    return True


def restore_verdicts(only: list[str]) -> bool:
    """A new stage with the saved verdicts (a machine without the last run's stage); False when
    there are none to go on with."""
    if not verdicts_of(only).is_file():
        print(f"nothing to resume: no stage in {stage_of(only).relative_to(ROOT)} and no "
              f"{verdicts_of(only).relative_to(ROOT)}", file=sys.stderr)
        return False
    stage(only)
    restored = mutation_verdicts.restore(stage_of(only), verdicts_of(only))
    print(f"{restored} verdicts restored from {verdicts_of(only).relative_to(ROOT)} (kept where the function is unchanged)")
    return True


# mutmut forks each mutant's run from a process that has run the suite: a thread pool of OpenBLAS, GNU
# OpenMP or PyTorch started there is gone in the child, whose first call into it then waits forever on
# a lock (seen: output_ellipsoid's mutants stuck in futex_wait until mutmut's time limit, and counted
# as timeouts, that is killed). One thread each: no pool, nothing to wait for.
ONE_THREAD = {name: "1" for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}


def run_mutmut(where: Path, max_children: int, names: list[str] | None = None) -> int:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | ONE_THREAD
    env["HYPOTHESIS_PROFILE"] = "dev"
    command = ["nice", "-n", "10", str(MUTMUT), "run", "--max-children", str(max_children), *(names or [])]
    return subprocess.run(command, cwd=where, env=env).returncode


def results(where: Path) -> dict[str, str]:
    """{mutant name: status} from the last run (mutmut's ``results --all true``)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([str(MUTMUT), "results", "--all", "true"], cwd=where, env=env,
                         capture_output=True, text=True, check=True).stdout
    found = {}
    for line in out.splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if sep and name:
            found[name] = status.strip()
    return found


def folder_of(mutant: str) -> str | None:
    module = mutant.split(".x")[0].split(".x_")[0]
    for key, folder in FOLDERS.items():
        if module.startswith(folder.replace("/", ".") + "."):
            return key
    return None


def equivalent(table: str = "equivalent") -> dict[str, str]:
    """{mutant name: reason} of one table of EQUIVALENT: ``equivalent`` (the mutant does what the
    code does) or ``not_runnable`` (code that runs while the modules load, before mutmut switches to
    a mutant, so no test can ever see the mutant; left out of the score, printed apart)."""
    if not EQUIVALENT.exists():
        return {}
    data = tomllib.loads(EQUIVALENT.read_text(encoding="utf-8"))
    return {name: reason for name, reason in data.get(table, {}).items()}


def report(only: list[str]) -> bool:
    statuses = results(stage_of(only))
    same = equivalent()
    unrunnable = equivalent("not_runnable")
    by_folder: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for name, status in statuses.items():
        folder = folder_of(name)
        if folder in only:
            by_folder[folder][status].append(name)
    print(f"mutation testing, {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, "
          f"{platform.node()} ({platform.machine()}, {os.cpu_count()} CPUs), mutmut")
    ok = True
    for folder in only:
        groups = by_folder[folder]
        total = sum(len(v) for v in groups.values())
        killed = sum(len(groups.get(status, [])) for status in KILLED)
        rest = {status: names for status, names in groups.items() if status not in KILLED}
        marked = sorted(name for names in rest.values() for name in names if name in same)
        unrun = sorted(name for names in rest.values() for name in names if name in unrunnable)
        alive = {status: sorted(name for name in names if name not in same and name not in unrunnable)
                 for status, names in rest.items()}
        alive = {status: names for status, names in alive.items() if names}
        counted = total - len(marked) - len(unrun)
        score = killed / counted if counted else 1.0
        ok &= score >= TARGET
        print(f"\n{FOLDERS[folder]}/: {total} mutants, {killed} killed, {len(marked)} equivalent, "
              f"{len(unrun)} not runnable by mutmut, "
              f"{sum(map(len, alive.values()))} not killed "
              f"({', '.join(f'{len(v)} {k}' for k, v in sorted(alive.items())) or 'none'}); "
              f"score {score:.1%} of non-equivalent ({'meets' if score >= TARGET else 'below'} {TARGET:.0%})")
        unchecked = len(alive.get("not checked", []))
        if unchecked:
            checked = counted - unchecked
            print(f"  an interrupted run: {unchecked} mutants not checked yet (counted as not killed above); "
                  f"over the {checked} checked, {killed / checked if checked else 1.0:.1%} killed")
        for status, names in sorted(alive.items()):
            for name in names:
                print(f"  {status}: {name}")
    stale = sorted(name for name in (set(same) | set(unrunnable)) - set(statuses) if folder_of(name) in only)
    if stale:
        print(f"\n{len(stale)} names in {EQUIVALENT.name} match no mutant any more: {', '.join(stale)}")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=sorted(FOLDERS), action="append", help="one folder (repeatable)")
    parser.add_argument("--max-children", type=int, default=1, help="mutants tested at once (default 1)")
    parser.add_argument("--report", action="store_true", help="print the last run's score only")
    parser.add_argument("--resume", action="store_true",
                        help="copy the current sources and tests into the last run and go on with the mutants it "
                             "has not tested (those of changed functions included)")
    parser.add_argument("--rerun", action="store_true",
                        help="copy the current tests into the last run and test again only its surviving (and timed-out) mutants")
    parser.add_argument("--save", action="store_true",
                        help="write the last run's verdicts into bench/mutation_verdicts/ (every run does at its end)")
    parser.add_argument("--skip", action="append", default=[], metavar="GLOB",
                        help="with --rerun: leave out the mutants whose names match (fnmatch; repeatable)")
    args = parser.parse_args()
    if not MUTMUT.is_file():
        print(f"mutmut is not installed beside {sys.executable}: pip install -e '.[test,mutation]'", file=sys.stderr)
        return 2
    only = args.only or sorted(FOLDERS)
    if args.save:
        return 0 if save_verdicts(only) else 2
    if args.resume:
        if not (stage_of(only) / "mutants").is_dir() and not restore_verdicts(only):
            return 2
        sync_sources(stage_of(only))
        sync_tests(stage_of(only))
        forget_test_map(stage_of(only))
        code = run_mutmut(stage_of(only), args.max_children)
        if code not in (0, 1):
            print(f"mutmut failed with exit status {code}", file=sys.stderr)
            return 2
        save_verdicts(only)
    elif args.rerun:
        # timeouts too: one judged before the one-thread fix (ONE_THREAD) may have been a child stuck on a lock
        names = [name for name, status in results(stage_of(only)).items()
                 if status in ("survived", "no tests", "timeout") and folder_of(name) in only and name not in equivalent()
                 and not any(fnmatch.fnmatchcase(name, glob) for glob in args.skip)]
        sync_tests(stage_of(only))
        forget_test_map(stage_of(only))
        code = run_mutmut(stage_of(only), args.max_children, names) if names else 0
        if code not in (0, 1):
            print(f"mutmut failed with exit status {code}", file=sys.stderr)
            return 2
        save_verdicts(only)
    elif not args.report:
        stage(only)
        code = run_mutmut(stage_of(only), args.max_children)
        if code not in (0, 1):
            print(f"mutmut failed with exit status {code}", file=sys.stderr)
            return 2
        save_verdicts(only)
    return 0 if report(only) else 1


if __name__ == "__main__":
    sys.exit(main())
