"""No test that cannot fail (issue 21): the test files are read as Python syntax trees and every
assertion that holds whatever the code under test does is reported with its file and line.

Caught: ``assert Path(...)`` (a path object is always true), ``assert`` of a literal that is true
(a non-empty string, tuple, list, dict or set, a number other than 0, an f-string, a lambda),
``assert (x, "message")`` (a tuple, always true), ``A and B or C`` as a whole assertion (the
``or`` rescues a false ``A and B``), dead ``if False:`` / ``if 0:`` / ``while False:`` blocks, a
test function whose body is only a docstring, ``pass`` or ``...``, and any skip (``pytest.skip``,
``pytest.importorskip``, ``@pytest.mark.skip``/``skipif``): what the tests need is installed by
``./run test``, so a missing piece is a failure, never a silent skip.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
PATH_NAMES = {"Path", "PurePath", "PosixPath"}
SKIPS = {"skip", "skipif", "importorskip"}


def _always_true(node: ast.expr, source: str = "") -> str | None:
    """Why ``assert node`` can never fail, or None (``source``: the file, to see brackets)."""
    if isinstance(node, ast.Constant):
        return "a true constant" if node.value else None  # assert False / assert 0 fail on purpose
    if isinstance(node, ast.JoinedStr):
        return "an f-string"
    if isinstance(node, ast.Lambda):
        return "a lambda"
    if isinstance(node, ast.Tuple) and node.elts:
        return "a non-empty tuple (message inside the brackets?)"
    if isinstance(node, (ast.List, ast.Set)) and node.elts or isinstance(node, ast.Dict) and node.keys:
        return "a non-empty literal"
    if isinstance(node, ast.Call):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if name in PATH_NAMES:
            return "a path object (always true; call .exists() or .is_file())"
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) and _always_true(node.left, source):
        return _always_true(node.left, source)
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        first = node.values[0]
        if isinstance(first, ast.BoolOp) and isinstance(first.op, ast.And) and not _bracketed(first, node):
            return "'A and B or C' (the or rescues a false A and B)"
        reasons = [_always_true(value, source) for value in node.values]
        if any(reasons):
            return next(r for r in reasons if r)
    return None


def _bracketed(inner: ast.expr, outer: ast.expr) -> bool:
    """Whether ``inner``, the first operand of ``outer``, has brackets of its own, as in ``(A and B) or C``
    (then ``outer`` starts at the bracket, before ``inner``)."""
    return (inner.lineno, inner.col_offset) > (outer.lineno, outer.col_offset)


def _dead_condition(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and not node.value


def _empty_body(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    body = list(function.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
        body = body[1:]
    return all(isinstance(s, ast.Pass) or isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and s.value.value is Ellipsis
               for s in body)


def vacuous_checks(source: str, name: str = "<test>") -> list[str]:
    """``file:line: why`` for every check in ``source`` that cannot fail.

    >>> vacuous_checks("assert Path('x')\\nassert (1 == 2, 'no')\\nif False:\\n    assert 1 == 2\\n")[0]
    '<test>:1: assert of a path object (always true; call .exists() or .is_file())'
    """
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Assert):
            reason = _always_true(node.test, source)
            if reason:
                found.append(f"{name}:{node.lineno}: assert of {reason}")
        elif isinstance(node, (ast.If, ast.While)) and _dead_condition(node.test):
            found.append(f"{name}:{node.lineno}: a block that never runs ({type(node).__name__.lower()} on a false constant)")
        elif isinstance(node, ast.Attribute) and node.attr in SKIPS and isinstance(node.value, (ast.Name, ast.Attribute)) \
                and (getattr(node.value, "id", None) == "pytest" or getattr(node.value, "attr", None) == "mark"):
            found.append(f"{name}:{node.lineno}: a skip ({node.attr}): a missing requirement must fail, not skip")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test") and _empty_body(node):
            found.append(f"{name}:{node.lineno}: {node.name} has no body: it passes whatever the code does")
    return found


@pytest.mark.parametrize("source", [
    "assert Path('renders/x.gif')\n",
    "assert pathlib.Path(out) / 'a.png'\n",
    "assert (value == 3, 'value is three')\n",
    "assert 'non-empty message'\n",
    "assert f'{x}'\n",
    "assert a and b or c\n",
    "assert (a and b or c)\n",
    "assert [x]\n",
    "if False:\n    assert result == 1\n",
    "while 0:\n    pass\n",
    "def test_x():\n    '''Nothing.'''\n",
    "def test_y():\n    pass\n",
    "distributed = pytest.importorskip('distributed')\n",
    "if not path.is_file():\n    pytest.skip('missing')\n",
    "@pytest.mark.skipif(not AXE.is_file(), reason='no axe')\ndef test_a():\n    assert axe() == []\n",
])
def test_each_kind_of_vacuous_check_is_found(source):
    assert len(vacuous_checks(source)) == 1, source


@pytest.mark.parametrize("source", [
    "assert Path('x').exists()\n",
    "assert (a == b), 'message'\n",
    "assert a and (b or c)\n",
    "assert name == 'x' or (a and b)\n",
    "assert (a and b) or c\n",
    "assert False, 'unreachable'\n",
    "if x:\n    assert y\n",
    "def test_z():\n    '''Doc.'''\n    assert f() == 1\n",
])
def test_real_checks_are_not_reported(source):
    assert vacuous_checks(source) == []


def test_no_test_file_holds_a_check_that_cannot_fail():
    files = sorted(TESTS.rglob("*.py"))
    assert len(files) > 100, f"only {len(files)} test files found under {TESTS}"
    found = [line for path in files for line in vacuous_checks(path.read_text(encoding="utf-8"), str(path.relative_to(TESTS)))]
    assert found == [], "checks that cannot fail:\n" + "\n".join(found)
