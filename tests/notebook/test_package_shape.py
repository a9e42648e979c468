"""scenes/notebook sits beside the CLI: nothing else imports it, it imports no CLI, every import is at
the top of its module (none hides in a function), no file is over 400 lines."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "scenes" / "notebook"
SOURCES = sorted(PACKAGE.rglob("*.py"))


def imported(path: Path) -> list[tuple[str, bool]]:
    """(module, at the top level?) for every import in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, id(node) in top) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append((node.module, id(node) in top))
    return found


def test_nothing_outside_it_imports_the_notebook_package():
    others = [p for p in sorted((ROOT / "scenes").rglob("*.py")) + sorted((ROOT / "normgeo").rglob("*.py"))
              if PACKAGE not in p.parents]
    assert len(others) > 50
    users = [str(p.relative_to(ROOT)) for p in others if any(m.startswith("scenes.notebook") for m, _ in imported(p))]
    assert users == []


def test_it_imports_at_the_top_and_never_the_cli():
    assert len(SOURCES) >= 5
    for path in SOURCES:
        for module, at_top in imported(path):
            assert at_top, f"{path.name}: import of {module} inside a block"
            assert not module.startswith("scenes.cli"), f"{path.name} imports {module}"


def test_no_file_is_over_400_lines():
    files = SOURCES + sorted(PACKAGE.rglob("*.js"))
    long = {p.name: n for p in files if (n := len(p.read_text(encoding="utf-8").splitlines())) > 400}
    assert long == {}
