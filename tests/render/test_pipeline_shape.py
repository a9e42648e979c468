"""The pipeline's shape, read from its sources: no import cycle (counting imports inside functions,
so none can hide one), no file over 400 lines, no function over 60 (docstrings included)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PIPELINE = ROOT / "scenes" / "render"
FILES = sorted(PIPELINE.rglob("*.py"))
MAX_LINES, MAX_FUNCTION = 400, 60


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """The pipeline modules ``path`` imports, anywhere in it (``from a import b`` counts ``a.b``
    when that is a module)."""
    known = {module_name(file) for file in FILES}
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            base = node.module if node.level == 0 else None
            if base is None:
                continue
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}
    return {name for name in found if name in known and name != module_name(path)}


def graph() -> dict[str, set[str]]:
    return {module_name(path): imports(path) for path in FILES}


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``edges``, or None.

    >>> cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}), cycle({"a": {"b"}, "b": set()})
    (['a', 'b', 'c', 'a'], None)
    """
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(edges):
        if start not in state and (found := visit(start)):
            return found
    return None


def test_the_pipeline_has_no_import_cycle():
    edges = graph()
    assert len(edges) > 30
    assert cycle(edges) is None


def test_the_cycle_finder_finds_the_one_the_pipeline_had():
    """executors → jobs → split → executors, as it was before the wings."""
    assert cycle({"executors": {"jobs"}, "jobs": {"split"}, "split": {"executors"}}) is not None


# Not yet within the limits, each for a stated reason (strict: the mark fails once they are).
NOT_YET: dict[str, str] = {}


@pytest.mark.parametrize("path", [pytest.param(path, marks=pytest.mark.xfail(strict=True, reason=NOT_YET[name]))
                                  if (name := str(path.relative_to(PIPELINE))) in NOT_YET else path
                                  for path in FILES], ids=lambda path: str(path.relative_to(PIPELINE)))
def test_files_and_functions_are_short(path):
    source = path.read_text(encoding="utf-8")
    assert len(source.splitlines()) <= MAX_LINES, f"{path.name}: {len(source.splitlines())} lines"
    long = [f"{node.name} ({node.end_lineno - node.lineno + 1} lines)" for node in ast.walk(ast.parse(source))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno - node.lineno + 1 > MAX_FUNCTION]
    assert long == [], f"{path.name}: {long}"
