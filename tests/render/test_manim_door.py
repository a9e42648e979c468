"""One door to Manim: outside ``scenes/render/manim_door/`` no file of the pipeline, the CLI, the
benchmark or the base scene imports Manim's internals, names a private Manim member, or assigns to
an attribute of a Manim object; the pipeline outside the door does not import Manim at all. Read
from the sources (AST), with Manim's own attribute and private names read from Manim's sources."""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

import manim
import pytest

ROOT = Path(__file__).resolve().parents[2]
DOOR = ROOT / "scenes" / "render" / "manim_door"
PIPELINE = [*(ROOT / "scenes" / "render").rglob("*.py"), *(ROOT / "scenes" / "cli").rglob("*.py")]
OUTSIDE = [path for path in [*PIPELINE, *(ROOT / "bench").glob("*.py"), ROOT / "scenes" / "kit" / "base.py"]
           if DOOR not in path.parents]
# Manim's own ThreeDAxes gives each 3-D axis piece its shading, per piece, in this hook; the kit's
# axes subclass overrides the hook (a mobject subclass, as the door's rule allows) rather than
# patching the pieces from outside.
KIT_AXES = ROOT / "scenes" / "kit" / "adapters.py"
ALLOWED = {(KIT_AXES, "_set_axis_shading"), (KIT_AXES, "get_gradient_start_and_end_points"),
           (KIT_AXES, "get_unit_normal")}


# What holds a Manim object in our code: an assignment to an attribute of one of these (or of an
# attribute of one, ``self.camera.x``) is an assignment to a Manim object's attribute.
HOLDERS = {"scene", "renderer", "camera", "writer", "file_writer", "config", "manager", "mobject", "vmobject",
           "axes", "axis", "piece", "submob", "cue", "animation", "subcaptions"}


def _is_property(node) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "property" or isinstance(d, ast.Attribute) and d.attr == "setter"
               for d in node.decorator_list)


@lru_cache(maxsize=1)
def manims_names() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """(every attribute name Manim's objects have, its methods, the private names among them)."""
    names: set[str] = set()
    methods: set[str] = set()
    for path in Path(manim.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names.add(node.name)
                if not _is_property(node):
                    methods.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
    private = {name for name in names if name.startswith("_") and not name.startswith("__")}
    return frozenset(names), frozenset(methods - {"__init__"}), frozenset(private)


def _holds_manim(target: ast.expr) -> bool:
    """Whether the object ``target`` (the part before ``.attr``) is named as a Manim object."""
    parts = []
    while isinstance(target, ast.Attribute):
        parts.append(target.attr)
        target = target.value
    if isinstance(target, ast.Name):
        parts.append(target.id)
    return any(part in HOLDERS for part in parts)


def our_names() -> set[str]:
    """Every name our own code defines (a private name of ours may equal one of Manim's)."""
    names: set[str] = set()
    for path in [*PIPELINE, *(ROOT / "scenes" / "kit").glob("*.py"), *(ROOT / "bench").glob("*.py")]:
        if DOOR in path.parents:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and \
                    isinstance(node.value, ast.Name) and node.value.id == "self":
                names.add(node.attr)
    return names


def violations(path: Path, source: str | None = None, in_pipeline: bool = True) -> list[str]:
    """What ``path`` (or ``source``) does that only the door may: import Manim (in the pipeline),
    import a private Manim module or name, name a private Manim member, assign to a Manim
    attribute of anything but ``self``."""
    tree = ast.parse(source if source is not None else path.read_text(encoding="utf-8"))
    attributes, methods, private = manims_names()
    ours = our_names()
    found = []
    for node in ast.walk(tree):
        where = f"{path.name}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            modules = [alias.name for alias in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            for module in modules:
                if module == "manim" or module.startswith("manim."):
                    if in_pipeline:
                        found.append(f"{where} imports {module}")
                    if any(part.startswith("_") for part in module.split(".")):
                        found.append(f"{where} imports Manim's private {module}")
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "manim":
                found += [f"{where} imports Manim's private {alias.name}" for alias in node.names
                          if alias.name.startswith("_")]
        elif isinstance(node, ast.Attribute):
            name = node.attr
            if name in private and name not in ours and (path, name) not in ALLOWED:
                found.append(f"{where} names Manim's private {name}")
            mine = isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")
            if isinstance(node.ctx, ast.Store) and not mine and (path, name) not in ALLOWED and \
                    name in attributes and _holds_manim(node.value):
                found.append(f"{where} assigns {ast.unparse(node)}")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in private and \
                node.name not in ours and (path, node.name) not in ALLOWED:
            found.append(f"{where} overrides Manim's private {node.name}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr":
            found.append(f"{where} calls setattr")
    return found


@pytest.mark.parametrize("path", sorted(OUTSIDE), ids=lambda path: str(path.relative_to(ROOT)))
def test_no_file_outside_the_door_reaches_into_manim(path):
    in_pipeline = path in PIPELINE
    assert violations(path, in_pipeline=in_pipeline) == []


def test_the_kit_axes_touch_manim_only_in_their_shading_hook():
    """The kit is not the pipeline (it builds mobjects from Manim's public classes), but it too
    assigns to no Manim attribute and names no private member outside the axes' shading hook."""
    assert violations(KIT_AXES, in_pipeline=False) == []


def test_the_rule_catches_what_the_pipeline_used_to_do():
    """The patches the door replaced, each caught (so the test above can fail)."""
    patches = {
        "writer._create_segment_encoder = create": "private _create_segment_encoder",
        "writer.write_frame = recording": "assigns writer.write_frame",
        "renderer.update_frame = draw_frame": "assigns renderer.update_frame",
        "scene.tear_down = tear_down": "assigns scene.tear_down",
        "camera.set_cairo_context_path = f": "assigns camera.set_cairo_context_path",
        "manager = scene._get_manager()": "private _get_manager",
        "cue.end = limit": "assigns cue.end",
        "self.camera.background_color = colour": "assigns self.camera.background_color",
        "config.upto_animation_number = end": "assigns config.upto_animation_number",
        "from manim import config": "imports manim",
    }
    for source, expected in patches.items():
        found = violations(ROOT / "scenes" / "render" / "example.py", source)
        assert any(expected in line for line in found), (source, found)


def test_the_door_imports_manim():
    """(So that the rule above, which every other file of the pipeline passes, is not vacuous.)"""
    assert any("imports manim" in line for path in DOOR.glob("*.py") for line in violations(path))


def test_another_manim_is_refused_in_one_line_before_anything_renders(monkeypatch, tmp_path):
    """The door's subclasses are written against Manim 0.22: another minor version is one line and
    exit 2, naming what to install, and nothing is rendered."""
    from click.testing import CliRunner

    from scenes.cli.main import cli
    from scenes.render.manim_door import version
    from scenes.render.running import dask  # noqa: F401  (binds the real manim_version before the patch:
    # a name the door loads lazily while patched would keep the fake for the rest of the process)

    monkeypatch.setattr(version, "manim_version", lambda: "0.23.1")
    result = CliRunner().invoke(cli, ["still", "layernorm-2d", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "normgeo renders with Manim Community 0.22.x, found 0.23.1: pip install 'manim==0.22.*'" in result.output
    assert not any(tmp_path.rglob("*.png"))
