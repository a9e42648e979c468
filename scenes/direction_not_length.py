"""Scene 5, ``direction-not-length`` (A8): (3, 4) and (6, 8) merge; (3, 4) and (4, 3) stay apart."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Create, config, FadeIn, GrowArrow, TransformFromCopy, VGroup, Write

from normgeo import distance, euclidean_norm, l2_normalize
from scenes.kit.adapters import make_plane
from scenes.kit.base import EDGE, SMALL_SIZE, NormGeoScene, fit_width
from scenes.kit.formulas import FORMULAS
from scenes.kit.spec import SceneSpec, SpecError, Vector, check_vectors, setting
from scenes.kit.widgets import circle_of_radius, dot_at, vector_arrow

__all__ = ["DirectionNotLengthSpec", "DirectionNotLength"]

SAME_POINT = 1e-9


@dataclass(frozen=True)
class DirectionNotLengthSpec(SceneSpec):
    """x; y, a longer vector along x; z, a vector in another direction (the source's example)."""

    x: Vector = setting((3.0, 4.0), items=(2, 2))
    y: Vector = setting((6.0, 8.0), items=(2, 2))
    z: Vector = setting((4.0, 3.0), items=(2, 2))

    def validate(self) -> None:
        for name in ("x", "y", "z"):
            check_vectors(name, (getattr(self, name),), dim=2)
        px, py, pz = l2_normalize(np.array([self.x, self.y, self.z], dtype=float))
        if distance(px, py) > 1e-6:
            raise SpecError("y: must point the same way as x (a positive multiple of it) to show the merge")
        if distance(px, pz) < 1e-3:
            raise SpecError("z: must point in another direction than x to show a difference that survives")


class DirectionNotLength(NormGeoScene):
    """Full-scale vectors on the left, their L2 projections on an enlarged unit circle on the right."""

    spec_class = DirectionNotLengthSpec

    def construct(self) -> None:
        spec, colors = self.spec, self.palette
        vectors = np.array([spec.x, spec.y, spec.z], dtype=float)
        projected = l2_normalize(vectors)
        lengths = euclidean_norm(vectors)
        merged_gap, kept_gap = float(distance(projected[0], projected[1])), float(distance(projected[0], projected[2]))
        values = {
            "x": self.fmt.vector(vectors[0]), "y": self.fmt.vector(vectors[1]), "z": self.fmt.vector(vectors[2]),
            "px": self.fmt.vector(projected[0]), "pz": self.fmt.vector(projected[2]),
            "nx": self.fmt.number(lengths[0]), "ny": self.fmt.number(lengths[1]),
        }
        hues = (colors.raw, colors.mean_part, colors.centred_part)

        title = self.make_title()
        full = make_plane(1.1 * float(lengths.max()), 4.7, (-3.4, 0.35, 0), colors)
        zoom = make_plane(1.3, 4.7, (2.6, 0.35, 0), colors, step=0.5)
        self.full_plane, self.zoom_plane = full, zoom
        captions = VGroup(
            self.text("full-scale", font_size=SMALL_SIZE, color=colors.muted).next_to(full, UP, 0.12),
            self.text("zoomed", font_size=SMALL_SIZE, color=colors.muted).next_to(zoom, UP, 0.12),
        )
        circles = VGroup(circle_of_radius(full, 1.0, colors.l2, 3), circle_of_radius(zoom, 1.0, colors.l2, 4))
        self.say("intro", FadeIn(title), Create(full), Create(zoom), FadeIn(captions),
                 Create(circles), run_time=1.5, hold=1.0)

        arrows = [vector_arrow(full, v, hue, stroke_width=w) for v, hue, w in zip(vectors, hues, (6, 9, 6))]
        self.say("same", GrowArrow(arrows[1]), GrowArrow(arrows[0]), run_time=1.5,
                 hold=1.0, **values)
        self.add(arrows[0])  # x above y

        landed = [vector_arrow(zoom, p, hue, stroke_width=w) for p, hue, w in zip(projected, hues, (6, 10, 6))]
        self.projected_arrows = VGroup(*landed)
        merged = self.text("merged", font_size=SMALL_SIZE + 2, gap=self.fmt.number(merged_gap), **values)
        lost = self.text("lost", font_size=SMALL_SIZE + 2, color=colors.muted, **values)
        kept = self.text("kept", font_size=SMALL_SIZE + 2, gap=self.fmt.number(kept_gap), **values)
        formula = self.formula(FORMULAS["direction"], font_size=28, color=colors.l2)
        formula.to_corner(DOWN + RIGHT, buff=EDGE + 0.1)
        readout = VGroup(merged, lost, kept).arrange(DOWN, aligned_edge=LEFT, buff=0.2)
        fit_width(readout, formula.get_left()[0] + config.frame_x_radius - EDGE - 0.5).to_corner(DOWN + LEFT, buff=EDGE)
        self.readout = readout
        self.say("merge", TransformFromCopy(arrows[1], landed[1]),
                 TransformFromCopy(arrows[0], landed[0]), FadeIn(merged), FadeIn(lost), run_time=1.8, hold=2.5,
                 **values)
        self.add(landed[0])

        self.say("other", GrowArrow(arrows[2]), run_time=1.2, hold=0.8, **values)
        self.say("kept", TransformFromCopy(arrows[2], landed[2]), FadeIn(kept),
                 run_time=1.5, hold=2.0, gap=self.fmt.number(kept_gap), **values)
        self.projected_dots = VGroup(*(dot_at(zoom, p, hue, radius=0.06) for p, hue in zip(projected, hues)))

        self.formula_mobject = formula
        self.say("summary", Write(formula), run_time=1.2, hold=2.5)
        self.merged = merged_gap <= SAME_POINT


