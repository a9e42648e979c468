"""Scene 7, ``direction-not-length`` (A8): (3, 4) and (6, 8) merge; (3, 4) and (4, 3) stay apart."""

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
    """x; y, a positive multiple of x of another length; z, a vector in another direction (the source's example)."""

    x: Vector = setting((3.0, 4.0), items=(2, 2))
    y: Vector = setting((6.0, 8.0), items=(2, 2))
    z: Vector = setting((4.0, 3.0), items=(2, 2))

    def validate(self) -> None:
        for name in ("x", "y", "z"):
            check_vectors(name, (getattr(self, name),), dim=2)
        px, py, pz = l2_normalize(np.array([self.x, self.y, self.z], dtype=float))
        if distance(px, py) > 1e-6:
            raise SpecError("y: must point the same way as x (a positive multiple of it) to show the merge")
        lx, ly = euclidean_norm(np.array([self.x, self.y], dtype=float))
        if abs(lx - ly) <= 1e-6 * max(lx, ly):
            raise SpecError("y: must differ from x in length (a multiple other than 1) for the lengths to be what differs")
        if distance(px, pz) < 1e-3:
            raise SpecError("z: must point in another direction than x to show a difference that survives")


class DirectionNotLength(NormGeoScene):
    """Full-scale vectors on the left, their L2 projections on an enlarged unit circle on the right."""

    spec_class = DirectionNotLengthSpec

    def construct(self) -> None:
        self.normalize()
        self.show_both_scales()
        self.draw_same_direction()
        self.merge_on_circle()
        self.draw_other_direction()
        self.keep_apart_on_circle()
        self.sum_up()

    def normalize(self) -> None:
        """Everything the scene shows, from the core: x, y, z, their L2 images, lengths and distances."""
        spec = self.spec
        self.vectors = np.array([spec.x, spec.y, spec.z], dtype=float)
        self.projected = l2_normalize(self.vectors)
        self.lengths = euclidean_norm(self.vectors)
        self.merged_gap = float(distance(self.projected[0], self.projected[1]))
        self.kept_gap = float(distance(self.projected[0], self.projected[2]))
        self.merged = self.merged_gap <= SAME_POINT
        fmt = self.fmt
        self.values = {
            "x": fmt.vector(self.vectors[0]), "y": fmt.vector(self.vectors[1]), "z": fmt.vector(self.vectors[2]),
            "px": fmt.vector(self.projected[0]), "pz": fmt.vector(self.projected[2]),
            "nx": fmt.number(self.lengths[0]), "ny": fmt.number(self.lengths[1]),
        }
        self.hues = (self.palette.input, self.palette.ones, self.palette.hyperplane)

    def show_both_scales(self) -> None:
        """Two planes: full scale, and the unit circle enlarged; the readout and formula laid out below."""
        colors = self.palette
        title = self.make_title()
        if self.layout.stacked:  # full scale above the zoom, the readout and formula under both
            (full_at, full_side), (zoom_at, zoom_side) = self.layout.stacked_panels(2, 5.6, above=0.45, below=0.1,
                                                                                    bottom_gap=2.9)
        else:
            (full_at, full_side), (zoom_at, zoom_side) = ((-3.4, 0.35, 0), 4.7), ((2.6, 0.35, 0), 4.7)
        full = make_plane(1.1 * float(self.lengths.max()), full_side, full_at, colors)
        zoom = make_plane(1.3, zoom_side, zoom_at, colors, step=0.5)
        self.full_plane, self.zoom_plane = full, zoom
        captions = VGroup(
            self.text("full-scale", font_size=SMALL_SIZE, color=colors.muted).next_to(full, UP, 0.12),
            self.text("zoomed", font_size=SMALL_SIZE, color=colors.muted).next_to(zoom, UP, 0.12),
        )
        circles = VGroup(circle_of_radius(full, 1.0, colors.l2, 3), circle_of_radius(zoom, 1.0, colors.l2, 4))
        self.arrows = [vector_arrow(full, v, hue, stroke_width=w)
                       for v, hue, w in zip(self.vectors, self.hues, (6, 9, 6))]
        self.landed = [vector_arrow(zoom, p, hue, stroke_width=w)
                       for p, hue, w in zip(self.projected, self.hues, (6, 10, 6))]
        self.projected_arrows = VGroup(*self.landed)
        self.lay_out_readout()
        self.say("intro", FadeIn(title), Create(full), Create(zoom), FadeIn(captions),
                 Create(circles), run_time=1.5, hold=1.0)

    def lay_out_readout(self) -> None:
        """The three lines of the readout, bottom left, beside the formula, bottom right."""
        colors, values = self.palette, self.values
        self.merged_text = self.text("merged", font_size=SMALL_SIZE + 2, gap=self.fmt.number(self.merged_gap), **values)
        self.lost_text = self.text("lost", font_size=SMALL_SIZE + 2, color=colors.muted, **values)
        self.kept_text = self.text("kept", font_size=SMALL_SIZE + 2, gap=self.fmt.number(self.kept_gap), **values)
        formula = self.formula(FORMULAS["direction"], font_size=28, color=colors.l2)
        formula.to_corner(DOWN + RIGHT, buff=EDGE + 0.1)
        self.formula_mobject = formula
        readout = VGroup(self.merged_text, self.lost_text, self.kept_text).arrange(DOWN, aligned_edge=LEFT, buff=0.2)
        if self.layout.stacked:
            fit_width(readout, self.layout.content_width).next_to(formula, UP, buff=0.3).to_edge(LEFT, buff=EDGE)
        else:
            fit_width(readout, formula.get_left()[0] + config.frame_x_radius - EDGE - 0.5).to_corner(DOWN + LEFT, buff=EDGE)
        self.readout = readout

    def draw_same_direction(self) -> None:
        arrows = self.arrows
        self.say("same", GrowArrow(arrows[1]), GrowArrow(arrows[0]), run_time=1.5, hold=1.0, **self.values)
        self.add(arrows[0])  # x above y

    def merge_on_circle(self) -> None:
        arrows, landed = self.arrows, self.landed
        self.say("merge", TransformFromCopy(arrows[1], landed[1]), TransformFromCopy(arrows[0], landed[0]),
                 FadeIn(self.merged_text), FadeIn(self.lost_text), run_time=1.8, hold=2.5, **self.values)
        self.add(landed[0])

    def draw_other_direction(self) -> None:
        self.say("other", GrowArrow(self.arrows[2]), run_time=1.2, hold=0.8, **self.values)

    def keep_apart_on_circle(self) -> None:
        self.say("kept", TransformFromCopy(self.arrows[2], self.landed[2]), FadeIn(self.kept_text),
                 run_time=1.5, hold=2.0, gap=self.fmt.number(self.kept_gap), **self.values)
        self.projected_dots = VGroup(*(dot_at(self.zoom_plane, p, hue, radius=0.06)
                                       for p, hue in zip(self.projected, self.hues)))

    def sum_up(self) -> None:
        self.say("summary", Write(self.formula_mobject), run_time=1.2, hold=2.5)
