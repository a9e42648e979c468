"""The scenes in lecture order: id → module and class, loaded only when asked for.

``normgeo list`` prints this; ``normgeo render`` and ``lecture`` follow its order.
"""

from __future__ import annotations

import difflib
import importlib
from dataclasses import dataclass
from pathlib import Path

from scenes.languages import message

__all__ = ["SceneEntry", "SCENES", "scene_ids", "entry", "scene_class", "UnknownSceneError"]

PACKAGE_DIR = Path(__file__).resolve().parent


class UnknownSceneError(KeyError):
    """No scene has this id; the message suggests the closest one."""

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class SceneEntry:
    """One scene: its id, the module and class that draw it."""

    id: str
    module: str
    class_name: str

    @property
    def source_file(self) -> Path:
        return PACKAGE_DIR / f"{self.module.rsplit('.', 1)[-1]}.py"

    def description(self, lang: str) -> str:
        return message(f"scene.{self.id}.description", lang)

    def load(self) -> type:
        return getattr(importlib.import_module(self.module), self.class_name)


SCENES: tuple[SceneEntry, ...] = (
    SceneEntry("radial-projection", "scenes.radial_projection", "RadialProjection"),
    SceneEntry("sphere-radii", "scenes.sphere_radii", "SphereRadii"),
    SceneEntry("layernorm-hyperplane", "scenes.layernorm_hyperplane", "LayerNormHyperplane"),
    SceneEntry("layernorm-2d", "scenes.layernorm_2d", "LayerNorm2D"),
    SceneEntry("direction-not-length", "scenes.direction_not_length", "DirectionNotLength"),
    SceneEntry("degrees-of-freedom", "scenes.degrees_of_freedom", "DegreesOfFreedom"),
    SceneEntry("unified-formula", "scenes.unified_formula", "UnifiedFormula"),
    SceneEntry("normalization-axes", "scenes.normalization_axes", "NormalizationAxes"),
    SceneEntry("conditioning", "scenes.conditioning", "Conditioning"),
    SceneEntry("scale-invariance", "scenes.scale_invariance", "ScaleInvariance"),
    SceneEntry("covariate-shift", "scenes.covariate_shift", "CovariateShift"),
    SceneEntry("batch-dependence", "scenes.batch_dependence", "BatchDependence"),
    SceneEntry("prenorm-postnorm", "scenes.prenorm_postnorm", "PrenormPostnorm"),
)


def scene_ids() -> list[str]:
    """Every scene id, in lecture order."""
    return [scene.id for scene in SCENES]


def entry(scene_id: str) -> SceneEntry:
    """The entry for ``scene_id``; an unknown id raises with a "did you mean"."""
    for scene in SCENES:
        if scene.id == scene_id:
            return scene
    close = difflib.get_close_matches(scene_id, scene_ids(), n=1, cutoff=0.4)
    hint = f"; did you mean {close[0]!r}?" if close else f"; known: {', '.join(scene_ids())}"
    raise UnknownSceneError(f"unknown scene {scene_id!r}{hint}")


def scene_class(scene_id: str) -> type:
    """The scene class for ``scene_id`` (imports manim)."""
    return entry(scene_id).load()
