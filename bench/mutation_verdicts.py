"""A mutation run's verdicts kept in the repository, so that a run outlives the machine it ran on.

mutmut 3 keeps, beside each mutated file, a ``.meta`` file: every mutant's exit code (``None`` until
tested) and a hash of each function's source. When it makes a file's mutants again, it keeps the
exit codes of every function whose hash has not changed and tests the others anew. The stage under
``renders/mutation/`` is git-ignored and a fresh machine has none, so without this a run of several
hours starts from nothing each time. :func:`save` writes the verdicts of a stage's mutated files into
one JSON file under ``bench/mutation_verdicts/``; :func:`restore` writes them back as ``.meta`` files
into a new stage before mutmut runs, and mutmut's own rule decides what is kept: a verdict of a
function edited since is dropped and tested again.

What a kept verdict does not see: a test removed or weakened since (a killed mutant stays killed);
``--rerun`` tests the survivors against the tests of now, and a run from scratch (no ``--resume``)
tests everything.

>>> compact({"m.x_f__mutmut_1": 1, "m.x_f__mutmut_3": 0, "m.x_g__mutmut_1": None})
{'m.x_f': [1, None, 0], 'm.x_g': [None]}
>>> sorted(expand({'m.x_f': [1, None, 0]}).items())
[('m.x_f__mutmut_1', 1), ('m.x_f__mutmut_2', None), ('m.x_f__mutmut_3', 0)]
"""

from __future__ import annotations

import json
import re
from pathlib import Path

__all__ = ["compact", "expand", "save", "restore"]

MARK = "__mutmut_"


def compact(exit_code_by_key: dict[str, int | None]) -> dict[str, list[int | None]]:
    """Exit codes by mutant name as one list per function (mutant ``n`` at index ``n − 1``)."""
    grouped: dict[str, dict[int, int | None]] = {}
    for key, code in exit_code_by_key.items():
        function, _, number = key.rpartition(MARK)
        grouped.setdefault(function, {})[int(number)] = code
    return {function: [codes.get(n) for n in range(1, max(codes) + 1)] for function, codes in sorted(grouped.items())}


def expand(codes_by_function: dict[str, list[int | None]]) -> dict[str, int | None]:
    """The inverse of :func:`compact`."""
    return {f"{function}{MARK}{n}": code for function, codes in codes_by_function.items()
            for n, code in enumerate(codes, start=1)}


def save(stage: Path, folders: list[str], target: Path) -> int:
    """The verdicts of the stage's mutated files under ``folders`` into ``target``; how many mutants
    have one (a tested mutant's exit code)."""
    files, tested = {}, 0
    for folder in folders:
        for meta in sorted((stage / "mutants" / folder).rglob("*.py.meta")):
            data = json.loads(meta.read_text(encoding="utf-8"))
            if not data.get("exit_code_by_key"):
                continue
            tested += sum(code is not None for code in data["exit_code_by_key"].values())
            files[meta.relative_to(stage / "mutants").as_posix()] = {
                "hash_by_function_name": dict(sorted(data.get("hash_by_function_name", {}).items())),
                "exit_codes": compact(data["exit_code_by_key"])}
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.partial")
    partial.write_text(_one_function_a_line(files), encoding="utf-8")
    partial.replace(target)
    return tested


def _one_function_a_line(files: dict) -> str:
    """The JSON with each function's exit codes on one line (a diff shows which functions changed).

    >>> _one_function_a_line({"a.py.meta": {"exit_codes": {"f": [1, None]}}})
    '{\\n "a.py.meta": {\\n  "exit_codes": {\\n   "f": [1,null]\\n  }\\n }\\n}\\n'
    """
    text = json.dumps(files, indent=1, sort_keys=True)
    return re.sub(r"\[([-\d,\snul]*)\]", lambda m: "[" + re.sub(r"\s+", "", m.group(1)) + "]", text) + "\n"


def restore(stage: Path, source: Path) -> int:
    """The verdicts saved in ``source`` written into a new stage's ``mutants/`` as mutmut's
    ``.meta`` files; how many mutants have one. mutmut then keeps those of unchanged functions."""
    files = json.loads(source.read_text(encoding="utf-8"))
    restored = 0
    for relative, saved in files.items():
        meta = stage / "mutants" / relative
        meta.parent.mkdir(parents=True, exist_ok=True)
        codes = expand(saved["exit_codes"])
        restored += sum(code is not None for code in codes.values())
        meta.write_text(json.dumps({"exit_code_by_key": codes, "hash_by_function_name": saved["hash_by_function_name"],
                                    "type_check_error_by_key": {}, "durations_by_key": {},
                                    "estimated_durations_by_key": {}}, indent=4), encoding="utf-8")
    return restored
