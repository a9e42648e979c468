"""The scenes in lecture order. The order is the one explicit list below; everything else about a
scene is derived from its id: its module ``scenes/<id with _>.py``, its text file beside it, its
class (the one normgeo scene class the module defines). Nothing here imports manim until a scene
class is asked for.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path

from scenes.kit.spec import did_you_mean
from scenes.kit.text import SCENES_DIR, message, scene_text_path

__all__ = ["LECTURE_ORDER", "SceneEntry", "SCENES", "scene_ids", "entry", "UnknownSceneError"]

# The lecture, in order. Adding a scene: its module, its text file, its test, and one line here.
LECTURE_ORDER: tuple[str, ...] = (
    "radial-projection",
    "sphere-radii",
    "layernorm-hyperplane",
    "epsilon-and-affine",
    "layernorm-2d",
    "rmsnorm-vs-layernorm",
    "direction-not-length",
    "degrees-of-freedom",
    "real-states-rmsnorm",
    "real-states-layernorm",
    "unified-formula",
    "normalization-axes",
    "batchnorm-geometry",
    "conditioning",
    "layernorm-gradient",
    "scale-invariance",
    "covariate-shift",
    "batch-dependence",
    "prenorm-postnorm",
    "dynamic-tanh",
)


class UnknownSceneError(KeyError):
    """No scene has this id; the message suggests the closest one."""

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class SceneEntry:
    """One scene of the lecture, known by its id."""

    id: str

    @property
    def module(self) -> str:
        return f"scenes.{self.id.replace('-', '_')}"

    @property
    def source_file(self) -> Path:
        return SCENES_DIR / f"{self.id.replace('-', '_')}.py"

    @property
    def text_file(self) -> Path:
        return scene_text_path(self.id)

    def title(self, lang: str) -> str:
        return message(self.id, "title", lang)

    def description(self, lang: str) -> str:
        return message(self.id, "description", lang)

    def load(self) -> type:
        """The scene class (imports manim): the one scene class its module defines."""
        from scenes.kit.base import NarratedScene

        module = importlib.import_module(self.module)
        found = [value for value in vars(module).values()
                 if isinstance(value, type) and issubclass(value, NarratedScene) and value.__module__ == module.__name__]
        if len(found) != 1:
            raise TypeError(f"{self.module} must define exactly one scene class, found {len(found)}")
        return found[0]

    @property
    def class_name(self) -> str:
        return self.load().__name__


SCENES: tuple[SceneEntry, ...] = tuple(SceneEntry(scene_id) for scene_id in LECTURE_ORDER)


def scene_ids() -> list[str]:
    """Every scene id, in lecture order."""
    return list(LECTURE_ORDER)


def entry(scene_id: str) -> SceneEntry:
    """The entry for ``scene_id``; an unknown id raises with a "did you mean"."""
    if scene_id in LECTURE_ORDER:
        return SceneEntry(scene_id)
    raise UnknownSceneError(f"unknown scene {scene_id!r}{did_you_mean(scene_id, LECTURE_ORDER)}")
