"""A scene never reuses a name the base scene keeps its narration records under (``spoken``,
``cues``, ``play_starts``…): layernorm-gradient once kept its caption values in ``self.spoken``,
which a silent render never touches and a narrated one appends to, so only narrated renders failed.
Read from the source (ast): the names the base's ``__init__`` assigns, against every assignment to
``self.<name>`` in each scene's module."""

from __future__ import annotations

import ast
import importlib.util
import inspect

import pytest

from scenes.kit import base
from scenes.kit.registry import LECTURE_ORDER, entry


def _assigned_to_self(tree: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, (ast.AnnAssign, ast.AugAssign)) else []
        for target in targets:
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
                names.add(target.attr)
    return names


BASE_NAMES = _assigned_to_self(ast.parse(inspect.getsource(base.NarratedScene.__init__).strip()))


def test_the_base_keeps_the_narration_records_under_these_names():
    assert {"spoken", "speech", "cues", "play_starts", "steps", "end_time", "steps_at_end"} <= BASE_NAMES


@pytest.mark.parametrize("scene_id", LECTURE_ORDER)
def test_no_scene_overwrites_the_base_scenes_records(scene_id):
    source = importlib.util.find_spec(entry(scene_id).module).origin
    with open(source, encoding="utf-8") as handle:
        clashes = _assigned_to_self(ast.parse(handle.read())) & BASE_NAMES
    assert not clashes, f"{scene_id} assigns self.{', self.'.join(sorted(clashes))}, which the base scene keeps"
