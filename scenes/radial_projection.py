"""Scene 1, ``radial-projection`` (A1, A2): vectors slide along their rays onto the sphere."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import DOWN, LEFT, RIGHT, Create, FadeIn, GrowArrow, ReplacementTransform, VGroup, Write

from normgeo import euclidean_norm, radial_projection
from scenes.kit.adapters import make_plane
from scenes.kit.base import SMALL_SIZE, NormGeoScene, fit_width
from scenes.kit.formulas import FORMULAS
from scenes.kit.spec import SceneSpec, Vectors, check_vectors, setting
from scenes.kit.widgets import circle_of_radius, dot_at, legend, ray, segment, vector_arrow

__all__ = ["RadialProjectionSpec", "RadialProjection"]


@dataclass(frozen=True)
class RadialProjectionSpec(SceneSpec):
    """Vectors of mixed length and direction (the first is the worked example) and the sphere's radius."""

    vectors: Vectors = setting(((3.0, 4.0), (-3.5, 1.5), (1.5, -2.5), (-0.6, -0.5), (0.5, 0.25)), items=(1, 12))
    radius: float = setting(1.0, low=0.05, high=1000)

    def validate(self) -> None:
        check_vectors("vectors", self.vectors, dim=2)


class RadialProjection(NormGeoScene):
    """Raw vectors, their rays, and their radial projections onto the sphere of radius R."""

    spec_class = RadialProjectionSpec

    def construct(self) -> None:
        self.project()
        self.introduce()
        self.show_sets()
        self.draw_raw_vectors()
        self.draw_rays()
        self.slide_onto_sphere()
        self.work_the_example()
        self.write_formula()

    def project(self) -> None:
        """Everything the scene shows, from the core: the vectors, their projections and lengths."""
        self.vectors = np.array(self.spec.vectors, dtype=float)
        self.projected = radial_projection(self.vectors, self.spec.radius)
        self.lengths = euclidean_norm(self.vectors)
        self.extent = 1.12 * max(float(self.lengths.max()), self.spec.radius)

    def introduce(self) -> None:
        title = self.make_title()
        self.plane = make_plane(self.extent, self.layout.figure_height, self.layout.figure_center, self.palette)
        self.say("intro", FadeIn(title), Create(self.plane), run_time=1.2, hold=0.6)

    def show_sets(self) -> None:
        """A1: the sphere of radius R and the zero-mean hyperplane, named in a legend."""
        spec, colors, plane = self.spec, self.palette, self.plane
        sphere = circle_of_radius(plane, spec.radius, colors.l2)
        zero_mean_direction = radial_projection([1.0, -1.0], self.extent)
        zero_mean_line = segment(plane, -zero_mean_direction, zero_mean_direction, colors.hyperplane, 3)
        sets = legend(
            [
                (colors.l2, self.words("sphere-set", radius=self.fmt.number(spec.radius))),
                (colors.hyperplane, self.words("hyperplane-set")),
            ],
            spec.lang,
            colors.text,
            SMALL_SIZE,
        )
        self.layout.start_column(fit_width(sets, self.layout.column_width), plane)
        self.sets = sets
        self.say("sets", Create(sphere), Create(zero_mean_line), FadeIn(sets), run_time=1.5, hold=2.5)

    def draw_raw_vectors(self) -> None:
        self.raw_arrows = VGroup(*(vector_arrow(self.plane, v, self.palette.input) for v in self.vectors))
        self.say("raw", *(GrowArrow(a) for a in self.raw_arrows), run_time=1.5, hold=0.5)

    def draw_rays(self) -> None:
        rays = VGroup(*(ray(self.plane, radial_projection(v, self.extent), self.palette.muted) for v in self.vectors))
        self.say("rays", *(Create(r) for r in rays), run_time=1.0, hold=0.5)

    def slide_onto_sphere(self) -> None:
        """A2: each arrow slides along its ray to the sphere; a faint copy stays where it was."""
        self.ghosts = self.raw_arrows.copy().set_opacity(0.25)
        self.add(self.ghosts)
        self.projected_arrows = VGroup(*(vector_arrow(self.plane, p, self.palette.l2, stroke_width=6)
                                         for p in self.projected))
        self.say("slide", ReplacementTransform(self.raw_arrows, self.projected_arrows), run_time=2.0, hold=2.0)

    def work_the_example(self) -> None:
        """The first vector worked through: x, ‖x‖₂ and x·R/‖x‖₂, all from the core; worded for the
        unit circle when R = 1 and for the circle of radius R otherwise."""
        colors = self.palette
        on = "unit" if self.spec.radius == 1 else "radius"
        values = {"x": self.fmt.vector(self.vectors[0]), "norm": self.fmt.number(self.lengths[0]),
                  "proj": self.fmt.vector(self.projected[0]), "radius": self.fmt.number(self.spec.radius)}
        values["projection"] = self.words(f"example-projection.{on}", **values)
        self.example_dot = dot_at(self.plane, self.projected[0], colors.emphasis, radius=0.08)
        readout = VGroup(
            self.text("example", font_size=SMALL_SIZE + 4, **values),
            self.text(f"example-result.{on}", font_size=SMALL_SIZE + 4, **values),
            self.text("direction-kept", font_size=SMALL_SIZE, color=colors.muted),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.22)
        fit_width(readout, self.layout.column_width).next_to(self.sets, DOWN, buff=0.6, aligned_edge=LEFT)
        self.readout = readout
        highlight = self.ghosts[0].copy().set_opacity(1).set_color(colors.emphasis)
        self.say("example", FadeIn(highlight), FadeIn(self.example_dot), Write(readout),
                 run_time=1.5, hold=3.0, **values)

    def write_formula(self) -> None:
        formula = self.formula(FORMULAS["radial-projection"], font_size=40, color=self.palette.l2)
        formula.next_to(self.readout, DOWN, buff=0.7, aligned_edge=LEFT)
        self.formula_mobject = formula
        self.say("formula", Write(formula), run_time=1.2, hold=2.0)
