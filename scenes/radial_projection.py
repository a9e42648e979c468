"""Scene 1, ``radial-projection`` (A1, A2): vectors slide along their rays onto the sphere."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Create, FadeIn, FadeOut, GrowArrow, ReplacementTransform, VGroup, Write

from normgeo import circle_in_plane, euclidean_norm, radial_projection
from scenes.kit import labels
from scenes.kit.adapters import make_plane, to_points
from scenes.kit.base import SMALL_SIZE, NormGeoScene, fit_width
from scenes.kit.formulas import FORMULAS
from scenes.kit.spec import SceneSpec, SpecError, Vectors, check_vectors, setting
from scenes.kit.widgets import circle_of_radius, dot_at, ray, segment, vector_arrow

__all__ = ["RadialProjectionSpec", "RadialProjection"]

CORNERS = ((-1, -1, 0), (1, -1, 0), (1, 1, 0), (-1, 1, 0))
SCALES_APART = 10  # the sphere's radius and the longest vector drawn at one scale: neither more than 10× the other


@dataclass(frozen=True)
class RadialProjectionSpec(SceneSpec):
    """Vectors of mixed length and direction (the first is the worked example) and the sphere's radius."""

    vectors: Vectors = setting(((3.0, 4.0), (-3.5, 1.5), (1.5, -2.5), (-0.6, -0.5), (0.5, 0.25)), items=(1, 12))
    radius: float = setting(1.0, low=0.05, high=1000)

    def validate(self) -> None:
        check_vectors("vectors", self.vectors, dim=2)
        longest = float(np.max(euclidean_norm(np.array(self.vectors, dtype=float))))
        if not longest / SCALES_APART <= self.radius <= longest * SCALES_APART:
            raise SpecError(f"radius: must be within {SCALES_APART:g}× the longest vector's length ({longest:.3g}), "
                            f"so that the sphere and the vectors show at one scale; got {self.radius:g}")


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
        """A1: the sphere of radius R and the zero-mean hyperplane, each named on the figure."""
        spec, colors, plane = self.spec, self.palette, self.plane
        origin = to_points(plane, np.zeros(2))
        sphere = circle_of_radius(plane, spec.radius, colors.l2)
        zero_mean_direction = radial_projection([1.0, -1.0], self.extent)
        zero_mean_line = segment(plane, -zero_mean_direction, zero_mean_direction, colors.hyperplane, 3)
        # each name where it crosses least: the vectors, the line and the circle as drawn at the end
        tips = to_points(plane, self.vectors)
        self.drawn_segments = np.concatenate([
            [[origin, tip] for tip in tips],
            [to_points(plane, np.array([zero_mean_direction, -zero_mean_direction]))],
            labels.polygon_segments(to_points(plane, circle_in_plane([1.0, 0.0], [0.0, 1.0], spec.radius, 48))),
        ])
        sphere_label = self.text("sphere-set", font_size=SMALL_SIZE, color=colors.l2,
                                 radius=self.fmt.number(spec.radius))
        radius = sphere.width / 2
        around = [labels.on_circle(sphere_label, origin, radius, a).get_center()
                  for a in np.linspace(0, 2 * np.pi, 24, endpoint=False)]
        labels.clearest_place(sphere_label, around, self.drawn_segments, inside=self.figure_box())
        line_label = self.text("hyperplane-set", font_size=SMALL_SIZE, color=colors.hyperplane)
        beside_line = [labels.at_point(line_label, to_points(plane, t * zero_mean_direction), side).get_center()
                       for t in (-0.85, -0.65, 0.65, 0.85) for side in ((1, 1, 0), (-1, -1, 0))]
        labels.clearest_place(line_label, beside_line, self.drawn_segments, inside=self.figure_box())
        self.set_labels = VGroup(sphere_label, line_label)
        self.sphere = sphere
        self.say("sets", Create(sphere), Create(zero_mean_line), FadeIn(self.set_labels), run_time=1.5, hold=2.5)

    def figure_box(self):
        """The plane's box: labels of the figure stay on it."""
        return self.plane.get_corner(DOWN + LEFT)[:2], self.plane.get_corner(UP + RIGHT)[:2]

    def draw_raw_vectors(self) -> None:
        self.raw_arrows = VGroup(*(vector_arrow(self.plane, v, self.palette.input) for v in self.vectors))
        self.say("raw", *(GrowArrow(a) for a in self.raw_arrows), run_time=1.5, hold=0.5)

    def draw_rays(self) -> None:
        self.rays = VGroup(*(ray(self.plane, radial_projection(v, self.extent), self.palette.muted)
                             for v in self.vectors))
        self.say("rays", *(Create(r) for r in self.rays), run_time=1.0, hold=0.5)

    def slide_onto_sphere(self) -> None:
        """A2: each arrow slides along its ray to the sphere; a faint copy stays where it was."""
        self.ghosts = self.raw_arrows.copy().set_opacity(0.25)
        self.add(self.ghosts)
        self.projected_arrows = VGroup(*(vector_arrow(self.plane, p, self.palette.l2, stroke_width=6)
                                         for p in self.projected))
        self.say("slide", ReplacementTransform(self.raw_arrows, self.projected_arrows), run_time=2.0, hold=2.0)

    def work_the_example(self) -> None:
        """The first vector worked through: x, ‖x‖₂ and x·R/‖x‖₂, all from the core; worded for the
        unit circle when R = 1 and for the circle of radius R otherwise. The other ghosts and the rays
        fade: only the example's x stays, named at its tip, and its image, named beside its dot."""
        colors, plane = self.palette, self.plane
        on = "unit" if self.spec.radius == 1 else "radius"
        values = {"x": self.fmt.vector(self.vectors[0]), "norm": self.fmt.number(self.lengths[0]),
                  "proj": self.fmt.vector(self.projected[0]), "radius": self.fmt.number(self.spec.radius)}
        values["projection"] = self.words(f"example-projection.{on}", **values)
        self.example_dot = dot_at(plane, self.projected[0], colors.emphasis, radius=0.08)
        readout = VGroup(
            self.text("example", font_size=SMALL_SIZE + 4, **values),
            self.text(f"example-result.{on}", font_size=SMALL_SIZE + 4, **values),
            self.text("direction-kept", font_size=SMALL_SIZE, color=colors.muted),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.22)
        self.layout.start_column(fit_width(readout, self.layout.column_width), plane)
        self.readout = readout
        highlight = self.ghosts[0].copy().set_opacity(1).set_color(colors.emphasis)
        origin, tip, dot = (to_points(plane, v) for v in (np.zeros(2), self.vectors[0], self.projected[0]))
        x_label = self.formula("x", font_size=36, color=colors.emphasis)
        image_label = self.text(f"image-label.{on}", font_size=SMALL_SIZE + 4, color=colors.l2)
        segments = np.concatenate([self.drawn_segments, [[origin, to_points(plane, p)] for p in self.projected]])
        for label, anchor in ((x_label, tip), (image_label, dot)):
            places = [labels.at_point(label, anchor, (np.cos(a), np.sin(a), 0)).get_center()
                      for a in np.linspace(0, 2 * np.pi, 16, endpoint=False)]
            labels.clearest_place(label, places, segments, inside=self.figure_box())
            segments = np.concatenate([segments, labels.polygon_segments([label.get_corner(c) for c in CORNERS])])
        self.example_labels = VGroup(x_label, image_label)
        self.say("example", FadeOut(self.rays), FadeOut(self.ghosts[1:]), FadeIn(highlight), FadeIn(self.example_dot),
                 FadeIn(self.example_labels), Write(readout), run_time=1.5, hold=3.0, **values)

    def write_formula(self) -> None:
        formula = self.formula(FORMULAS["radial-projection"], font_size=40, color=self.palette.l2)
        formula.next_to(self.readout, DOWN, buff=0.7, aligned_edge=LEFT)
        self.formula_mobject = formula
        self.say("formula", Write(formula), run_time=1.2, hold=2.0)
